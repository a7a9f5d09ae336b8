#!/usr/bin/env bash
# Cross-checks the collector against Nsight Compute on the same suite binaries: the suites run once with the
# in-process collector (its values land in candidates/), then under ncu in launch-only mode, where each test
# launches its kernel exactly once and gates nothing. Prints both values for every kernel and metric with a
# verdict; exits 1 on any difference.
#   ci/ncu-crosscheck.sh [--filter 'Suite.*']   (needs a GPU and ncu)
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
filter=""
[ "${1:-}" = "--filter" ] && filter=${2:-}
command -v ncu >/dev/null 2>&1 || bankgate_die "ncu (Nsight Compute) is not on PATH; it ships with the CUDA toolkit (nsight-compute)"
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/crosscheck}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
rm -rf "$build_dir/candidates" "$build_dir/ncu"
mkdir -p "$build_dir/ncu"
ctest --test-dir "$build_dir" -L '^gpu$' -R "$(bankgate_filter_regex "$filter")" >"$build_dir/ncu/collector-run.log" 2>&1 || true

metrics=$("$build_dir/tools/bankgate-baselines" metrics)
for suite in "$build_dir"/tests/suites/*_suite; do
  name=$(basename "$suite")
  "$suite" --gtest_list_tests ${filter:+--gtest_filter="$filter"} >"$build_dir/ncu/$name.tests"
  # --clock-control none: the card's clocks stay as they are; counters do not depend on them.
  BANKGATE_LAUNCH_ONLY=1 ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base \
    --print-kernel-base function --log-file "$build_dir/ncu/$name.csv" "$suite" ${filter:+--gtest_filter="$filter"} \
    >"$build_dir/ncu/$name.ncu.log" 2>&1 ||
    bankgate_die "ncu failed on $name; see $build_dir/ncu/$name.ncu.log"
done
python3 ci/ncu_compare.py "$build_dir/candidates" "$build_dir/ncu"
