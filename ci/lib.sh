# Shared by the ci/ scripts (sourced, not run): finding or installing what the build needs, and building.
# Every missing piece is named together with the package or setting that supplies it.

# The command's exit codes for a failed set-up and a usage error (exit_setup and exit_usage of
# gate/include/bankgate/gate/protocol/run_protocol.hpp; tests/unit/ci_lib_test.sh checks them against the command).
bankgate_die() { echo "bankgate: $*" >&2; exit 3; }
bankgate_usage() { echo "bankgate: $*" >&2; exit 64; }

# Whether this runs in CI, by the command's rule for $CI (gate/protocol/settings.hpp's running_in_ci): 1, true, yes, on
# in any case mean CI; 0, false, no, off, empty or unset mean not; any other value stops the script, as it
# makes the command refuse, rather than guess. Scripts decide before building, the command after it: they must
# agree (tests/unit/ci_lib_test.sh runs both over every spelling).
bankgate_is_ci() {
  case ${CI:-} in
    1 | [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss] | [Oo][Nn]) return 0 ;;
    '' | 0 | [Ff][Aa][Ll][Ss][Ee] | [Nn][Oo] | [Oo][Ff][Ff]) return 1 ;;
    *) bankgate_die "CI='$CI' is not a yes/no value; use 1 or 0: refusing to guess whether this is CI" ;;
  esac
}

# bankgate_result_path COMMAND BUILD NAME: where the bankgate COMMAND leaves NAME of its result layout in the
# build folder BUILD (gate, gate_junit, gate_candidates, record_candidates, gtest_results, compare, ...; all of
# them: COMMAND protocol --get layout). Scripts ask instead of keeping a copy of the layout, which is the
# command's (gate/include/bankgate/gate/protocol/run_protocol.hpp). Use: dir=$(bankgate_result_path ...) || exit 3
bankgate_result_path() {
  "$1" protocol --build "$2" --get "layout.$3" ||
    { echo "bankgate: $1 cannot say where its '$3' is (bankgate protocol); is it built?" >&2; return 3; }
}

bankgate_find_nvcc() {
  local found=""
  for candidate in "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { found=$candidate; break; }
  done
  [ -n "$found" ] ||
    bankgate_die "the CUDA toolkit (nvcc) was not found: install CUDA 13 (e.g. the cuda-toolkit-13-0 package) or set CUDA_HOME"
  # The nvcc on PATH may be a wrapper script (/usr/local/bin/nvcc -> exec .../cuda-13.0/bin/nvcc); nvcc itself
  # reports the directory it really lives in, and the toolkit root (headers, CUPTI) is found from there.
  local real_bin
  real_bin=$(cd /tmp && "$found" --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ _HERE_=//p' | head -n 1)
  if [ -n "$real_bin" ] && [ -x "$real_bin/nvcc" ]; then echo "$real_bin/nvcc"; else echo "$found"; fi
}

# Where cupti.h lives under a toolkit root, in the layouts NVIDIA's packages use; empty when absent.
bankgate_find_cupti_header() {
  local root=$1
  for candidate in "$root/include/cupti.h" "$root/extras/CUPTI/include/cupti.h" "$root"/targets/*/include/cupti.h; do
    [ -f "$candidate" ] && { echo "$candidate"; return; }
  done
}

bankgate_has_package_file() {  # bankgate_has_package_file RELATIVE_PATH SUBFOLDER
  local prefix
  for prefix in /usr /usr/local ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }}; do
    [ -f "$prefix/$2/$1" ] && return 0
  done
  return 1
}

# What building and gating need, found or installed: cmake, ninja, GoogleTest, nlohmann-json, CLI11 and
# pugixml, installed with apt where they are missing and we may; otherwise stops and lists them. The CUDA toolkit
# itself is never installed here: it is too large to do silently. Sets BANKGATE_NVCC.
bankgate_ensure_dependencies() {
  bankgate_find_build_dependencies
  bankgate_install_missing
}

# What the tests need as well: PyYAML (the CI templates' test reads YAML), jsonschema (tests check the JSON
# outputs against their schemas), cmark-gfm (GitHub's markdown renderer: tests render the markdown reports as
# GitHub would), and for the history store's tests the sqlite3 shell and a PostgreSQL server's programs (initdb,
# pg_ctl: the tests start a throwaway server of their own). Only ci/test.sh and the scripts that run the unit tests ask for these; the gate and the
# benchmarks never do.
bankgate_ensure_test_dependencies() {
  bankgate_find_build_dependencies
  python3 -c 'import yaml' >/dev/null 2>&1 || bankgate_missing+=(python3-yaml)
  python3 -c 'import jsonschema' >/dev/null 2>&1 || bankgate_missing+=(python3-jsonschema)
  command -v cmark-gfm >/dev/null 2>&1 || bankgate_missing+=(cmark-gfm)
  # The history store (history/) is built where SQLite and libpq are found, and its tests run there: the gate
  # builds without them (a GPU runner that cannot install packages keeps no history).
  bankgate_has_package_file sqlite3.h include || bankgate_missing+=(libsqlite3-dev)
  bankgate_has_package_file libpq-fe.h include || bankgate_has_package_file libpq-fe.h include/postgresql ||
    bankgate_missing+=(libpq-dev)
  command -v sqlite3 >/dev/null 2>&1 || bankgate_missing+=(sqlite3)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || bankgate_missing+=(postgresql)
  bankgate_install_missing
}

# Sets BANKGATE_NVCC (or stops: the toolkit and its CUPTI must be there) and bankgate_missing to the packages
# building needs that are missing here.
bankgate_find_build_dependencies() {
  BANKGATE_NVCC=$(bankgate_find_nvcc) || exit 3
  local cuda_root; cuda_root=$(dirname "$(dirname "$BANKGATE_NVCC")")
  [ -n "$(bankgate_find_cupti_header "$cuda_root")" ] ||
    bankgate_die "CUPTI is missing from the CUDA toolkit at $cuda_root: install its CUPTI component (cuda-cupti-dev-13-0)"
  bankgate_missing=()
  command -v cmake >/dev/null 2>&1 || bankgate_missing+=(cmake)
  command -v ninja >/dev/null 2>&1 || bankgate_missing+=(ninja-build)
  [ -f /usr/include/gtest/gtest.h ] || [ -f /usr/local/include/gtest/gtest.h ] || bankgate_missing+=(libgtest-dev)
  # Found as installed packages, or in the folder CMAKE_PREFIX_PATH names (a machine that cannot install them).
  bankgate_has_package_file nlohmann/json.hpp include || bankgate_missing+=(nlohmann-json3-dev)
  bankgate_has_package_file CLI/CLI.hpp include || bankgate_missing+=(libcli11-dev)
  bankgate_has_package_file pugixml.hpp include || bankgate_missing+=(libpugixml-dev)
}

# Installs bankgate_missing in one go, where anything is missing.
bankgate_install_missing() {
  [ ${#bankgate_missing[@]} -eq 0 ] && return 0
  bankgate_install_packages "${bankgate_missing[@]}"
}

# bankgate_configure DIR: configure this tree in DIR as every script builds it: Ninja, Release, the nvcc
# bankgate_ensure_dependencies found and any BANKGATE_CMAKE_ARGS (e.g. -DCMAKE_CUDA_ARCHITECTURES=89).
bankgate_configure() {
  local dir=$1
  # shellcheck disable=SC2086  # BANKGATE_CMAKE_ARGS holds several words on purpose
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$BANKGATE_NVCC" ${BANKGATE_CMAKE_ARGS:-} >"$dir.configure.log" 2>&1 ||
    { mkdir -p "$dir"; cat "$dir.configure.log" >&2; bankgate_die "configuring $dir failed (log above)"; }
}

# bankgate_build DIR: configure (bankgate_configure), then build all.
bankgate_build() {
  bankgate_configure "$1"
  cmake --build "$1" --parallel || bankgate_die "building $1 failed (errors above)"
}

# bankgate_bench_build_dir: where the bench scripts build this tree: where `bankgate compare-commits --work
# $BANKGATE_COMPARE_DIR` builds "." (the working tree; cli/commands/compare_commits.cpp), which ci/compare-commits.sh
# configures alike, so that one build serves them all. The caller exports BANKGATE_COMPARE_DIR, so that the
# scripts it runs find the same build.
bankgate_bench_build_dir() {
  mkdir -p "$BANKGATE_COMPARE_DIR/build"
  echo "$BANKGATE_COMPARE_DIR/build/working-tree"
}

# bankgate_bench_build LOG: what every bench script does first: the dependencies found or installed,
# BANKGATE_COMPARE_DIR exported (default build/compare), this tree built in bankgate_bench_build_dir with its
# output in LOG; sets BANKGATE_BENCH_BUILD to that folder. A failed build shows the log's end and exits 3.
bankgate_bench_build() {
  bankgate_ensure_dependencies
  export BANKGATE_COMPARE_DIR=${BANKGATE_COMPARE_DIR:-$PWD/build/compare}
  BANKGATE_BENCH_BUILD=$(bankgate_bench_build_dir)
  bankgate_build "$BANKGATE_BENCH_BUILD" >"$1" 2>&1 || { tail -n 30 "$1"; exit 3; }
}

# bankgate_install_packages PACKAGE...: apt-get where we may (root on Debian/Ubuntu), otherwise stop and name the
# packages. Used for the build's dependencies and for tools only some scripts need (clang for the fuzzer).
bankgate_install_packages() {
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "bankgate: installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null ||
      bankgate_die "apt-get could not install $*; install them and rerun"
  else
    bankgate_die "missing: $*; install them (Debian/Ubuntu package names) and rerun"
  fi
}

# Whether the tree has uncommitted changes, for provenance; paths given are left out of the question (what the
# caller itself writes). BANKGATE_GIT_DIRTY=0|1 answers instead where the tree is a copy without .git.
bankgate_tree_dirty() {
  if [ -n "${BANKGATE_GIT_DIRTY:-}" ]; then
    case $BANKGATE_GIT_DIRTY in
      0 | 1) [ "$BANKGATE_GIT_DIRTY" = 1 ]; return ;;
      *) bankgate_die "BANKGATE_GIT_DIRTY must be 0 (clean tree) or 1 (uncommitted changes), got '$BANKGATE_GIT_DIRTY'" ;;
    esac
  fi
  local excludes=() path
  for path in "$@"; do excludes+=(":!$path"); done
  [ -n "$(git status --porcelain -- . "${excludes[@]}" 2>/dev/null)" ]
}
