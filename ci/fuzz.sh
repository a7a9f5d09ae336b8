#!/usr/bin/env bash
# Fuzzes every reader of outside input with libFuzzer, each for SECONDS (default 60) or for RUNS inputs:
# baselines and candidates (baseline_reader_fuzz), result records and plans (run_files_fuzz), the
# environment's settings (settings_fuzz) and the command line (command_line_fuzz).
#
#   ci/fuzz.sh [SECONDS]        ci/fuzz.sh --runs RUNS      (e.g. --runs 1000000 for the long run)
#
# ci/test.sh (and so CI) runs it briefly after the tests (BANKGATE_FUZZ_SECONDS per reader, default 8); a
# longer run by hand explores further. Clang and libFuzzer are installed with apt where missing.
#
# Builds build/fuzz with Clang and -DBANKGATE_BUILD_FUZZERS=ON (only the fuzz targets), then runs each on a
# copy of its seeds in tests/fuzz/ (the checked-in seeds stay unchanged). Exit codes: 0 no finding; 1 a finding (crash,
# sanitizer report or an exception other than BaselineError; libFuzzer writes the input as crash-*/leak-*/...
# under build/fuzz/findings); 3 missing tools or a failed build.
#
# The CUDA parts (kernels) are still configured: CMake checks nvcc, which uses its own host compiler (g++), not
# Clang. CMAKE_CUDA_HOST_COMPILER is pinned to g++ where present so nvcc never picks up CXX=clang++ (an nvcc
# release may not accept the installed Clang as a host compiler). Only baseline_reader_fuzz and what it links
# (bankgate_collector, plain C++) are built, so no .cu file is compiled here.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=ci/lib.sh
. ci/lib.sh

limit=(-max_total_time="${1:-60}")
what="${1:-60}s"
if [ "${1:-}" = "--runs" ]; then
  case ${2:-} in '' | *[!0-9]*) bankgate_usage "--runs takes a whole number of inputs, got '${2:-}'" ;; esac
  limit=(-runs="$2")
  what="$2 inputs"
else
  case ${1:-60} in '' | *[!0-9]*) bankgate_usage "SECONDS must be a whole number, got '${1:-}'" ;; esac
fi

bankgate_ensure_dependencies

# libFuzzer is part of Clang's compiler-rt: inside the clang packages on Ubuntu, but in libclang-rt-<N>-dev on
# Debian 12, which apt skips where recommended packages are not installed. Linking a one-line fuzz target with
# the flags the real one uses proves it is there.
libfuzzer_links() {
  local probe status
  probe=$(mktemp -d)
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/probe.cpp"
  clang++ -fsanitize=fuzzer,address,undefined "$probe/probe.cpp" -o "$probe/probe" >"$probe/log" 2>&1
  status=$?
  rm -rf "$probe"
  return "$status"
}
if ! command -v clang >/dev/null 2>&1 || ! command -v clang++ >/dev/null 2>&1; then
  bankgate_install_packages clang
fi
if ! libfuzzer_links; then
  apt-cache show libclang-rt-dev >/dev/null 2>&1 && bankgate_install_packages libclang-rt-dev
  libfuzzer_links || bankgate_die "clang++ cannot link -fsanitize=fuzzer (libFuzzer missing): install it (Debian 12:" \
    "libclang-rt-dev; elsewhere the libclang-rt-<N>-dev or libclang-common-<N>-dev package of your clang) and rerun"
fi

dir=build/fuzz
mkdir -p build
host_compiler=()
command -v g++ >/dev/null 2>&1 && host_compiler=(-DCMAKE_CUDA_HOST_COMPILER="$(command -v g++)")
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CUDA_COMPILER="$BANKGATE_NVCC" \
  "${host_compiler[@]}" -DBANKGATE_BUILD_FUZZERS=ON >"$dir.configure.log" 2>&1 ||
  { cat "$dir.configure.log" >&2; bankgate_die "configuring $dir failed (log above)"; }
fuzzers=(baseline_reader_fuzz:corpus run_files_fuzz:corpus-run-files settings_fuzz:corpus-settings
  command_line_fuzz:corpus-command-line)
cmake --build "$dir" --target "${fuzzers[@]%%:*}" || bankgate_die "building the fuzz targets failed (errors above)"

findings=0
for entry in "${fuzzers[@]}"; do
  fuzzer=${entry%%:*} seeds=tests/fuzz/${entry#*:}
  # A working copy of the seeds: libFuzzer adds what it finds to the first corpus folder.
  work="$dir/fuzz-run/$fuzzer"
  rm -rf "$work"
  mkdir -p "$work/corpus" "$dir/findings"
  cp "$seeds"/* "$work/corpus/"
  echo "bankgate: fuzzing $fuzzer for $what"
  touch "$work/started"  # findings of this run are the files newer than this
  status=0
  # -timeout: one input taking more than 10 s is a finding (a hang), not something to wait out. libFuzzer logs
  # every input that adds coverage; that goes to a file, and only its report is shown.
  "$dir/tests/fuzz/$fuzzer" "${limit[@]}" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$dir/findings/$fuzzer-" "$work/corpus" >"$dir/$fuzzer.log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    findings=1
    tail -n 60 "$dir/$fuzzer.log" >&2
    echo "bankgate: FINDING: $fuzzer stopped with status $status (the end of its log is above; all of it: $dir/$fuzzer.log)" >&2
    while IFS= read -r input; do
      echo "bankgate: reproducer: $PWD/$input; rerun it: $PWD/$dir/tests/fuzz/$fuzzer $PWD/$input" >&2
    done < <(find "$dir/findings" -type f -newer "$work/started" | sort)
    continue
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$dir/$fuzzer.log" | sed "s/^/  $fuzzer /" || true
  echo "bankgate: $fuzzer: no finding in $what (log: $dir/$fuzzer.log)"
done
exit "$findings"
