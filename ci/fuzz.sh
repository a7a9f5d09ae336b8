#!/usr/bin/env bash
# Fuzzes the baseline reader (parse_suite_file) with libFuzzer for SECONDS (default 60).
#
#   ci/fuzz.sh [SECONDS]
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
if ! command -v clang >/dev/null 2>&1 || ! command -v clang++ >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "bankgate: installing clang (libFuzzer)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null ||
      bankgate_die "apt-get could not install clang; install it and rerun"
  else
    bankgate_die "missing: clang (with libFuzzer); install it (Debian/Ubuntu package: clang) and rerun"
  fi
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
status=0
"$dir/tests/fuzz/baseline_reader_fuzz" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$dir/findings/" "$work/corpus" || status=$?
if [ "$status" -ne 0 ]; then
  echo "bankgate: FINDING: the fuzzer stopped with status $status; the input is under $dir/findings/ (reproduce:" \
    "$dir/tests/fuzz/baseline_reader_fuzz $dir/findings/<file>)" >&2
  exit 1
fi
echo "bankgate: no finding in ${seconds}s"
