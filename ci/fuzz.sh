#!/usr/bin/env bash
# Fuzzes the baseline reader (parse_suite_file) with libFuzzer for SECONDS (default 60).
#
#   ci/fuzz.sh [SECONDS]
#
# ci/test.sh (and so CI) runs it briefly after the tests (BANKGATE_FUZZ_SECONDS, default 20); a longer run by
# hand, e.g. `ci/fuzz.sh 600`, explores further. Clang and libFuzzer are installed with apt where missing.
#
# Builds build/fuzz with Clang and -DBANKGATE_BUILD_FUZZERS=ON (only the fuzz target), then runs it on a copy
# of tests/fuzz/corpus (the checked-in seeds stay unchanged). Exit codes: 0 no finding; 1 a finding (crash,
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

seconds=${1:-60}
case $seconds in '' | *[!0-9]*) bankgate_die "SECONDS must be a whole number, got '$seconds'" ;; esac

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
cmake --build "$dir" --target baseline_reader_fuzz || bankgate_die "building baseline_reader_fuzz failed (errors above)"

# A working copy of the seeds: libFuzzer adds what it finds to the first corpus folder.
work="$dir/fuzz-run"
rm -rf "$work"
mkdir -p "$work/corpus" "$dir/findings"
cp tests/fuzz/corpus/* "$work/corpus/"

echo "bankgate: fuzzing parse_suite_file for ${seconds}s"
touch "$work/started"  # findings of this run are the files newer than this
status=0
# -timeout: one input parsing for more than 10 s is a finding (a hang), not something to wait out.
# libFuzzer logs every input that adds coverage; that goes to a file, and only its report is shown.
"$dir/tests/fuzz/baseline_reader_fuzz" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$dir/findings/" "$work/corpus" >"$dir/fuzz.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 60 "$dir/fuzz.log" >&2
  echo "bankgate: FINDING: the fuzzer stopped with status $status (the end of its log is above; all of it:" \
    "$dir/fuzz.log)" >&2
  found=0
  while IFS= read -r input; do
    found=1
    echo "bankgate: reproducer: $PWD/$input" >&2
    echo "bankgate:   rerun it: $PWD/$dir/tests/fuzz/baseline_reader_fuzz $PWD/$input" >&2
  done < <(find "$dir/findings" -type f -newer "$work/started" | sort)
  [ "$found" = 1 ] || echo "bankgate: libFuzzer saved no input under $dir/findings/; its report above says why" >&2
  exit 1
fi
grep '^stat::' "$dir/fuzz.log" || true
echo "bankgate: no finding in ${seconds}s (log: $dir/fuzz.log)"
