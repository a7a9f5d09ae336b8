#!/usr/bin/env bash
# Cross-checks the collector against Nsight Compute on the same suite binaries: the suites run once with the
# in-process collector (its values land in candidates/), then under ncu in launch-only mode, where each test
# launches its kernel exactly once and gates nothing. Prints both values for every kernel and metric with a
# verdict; exits 1 on any difference.
#   tools/ncu-crosscheck.sh [--filter 'Suite.*']   (needs a GPU and ncu)
# BANKGATE_NCU_REPEATS=N (default 1) runs ncu N times per binary and shows, per counter, ncu's own spread
# (min and max over its runs); a collector value inside that spread, or within the counter's tolerance of it,
# agrees. Multi-block kernels' wavefronts move between runs under ncu too, so one ncu run can mislead.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
filter=""
[ "${1:-}" = "--filter" ] && filter=${2:-}
repeats=${BANKGATE_NCU_REPEATS:-1}
case $repeats in
  '' | *[!0-9]* | 0) bankgate_die "BANKGATE_NCU_REPEATS must be a whole number of ncu runs, at least 1; got '$repeats'" ;;
esac
command -v ncu >/dev/null 2>&1 || bankgate_die "ncu (Nsight Compute) is not on PATH; it ships with the CUDA toolkit (nsight-compute)"
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/crosscheck}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
rm -rf "$build_dir/ncu"
mkdir -p "$build_dir/ncu"
# The collector's values: `bankgate record` leaves them as candidates (<build>/bankgate/record/candidates).
candidates=$(bankgate_result_path "$build_dir/cli/bankgate" "$build_dir" record_candidates) || exit 3
"$build_dir/cli/bankgate" record --build "$build_dir" --no-build ${filter:+--filter "$filter"} >"$build_dir/ncu/collector-run.log" 2>&1 || true

# The range profiler's metrics, and the launch figures Nsight Compute reports beside them (resident blocks per
# SM is the least of its occupancy limits; ncu_compare.py takes it so).
metrics=$("$build_dir/cli/bankgate" metrics),launch__registers_per_thread,launch__shared_mem_per_block_static
metrics+=,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_blocks,launch__occupancy_limit_registers
metrics+=,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
for suite in "$build_dir"/tests/suites/*_suite; do
  name=$(basename "$suite")
  "$suite" --gtest_list_tests ${filter:+--gtest_filter="$filter"} >"$build_dir/ncu/$name.tests"
  for run in $(seq 1 "$repeats"); do
    # Run 1 keeps the single-run names; ncu_compare.py finds the further runs as <suite>.run<N>.csv.
    out="$build_dir/ncu/$name"
    [ "$run" -gt 1 ] && out="$build_dir/ncu/$name.run$run"
    # --clock-control none: the card's clocks stay as they are; counters do not depend on them.
    BANKGATE_LAUNCH_ONLY=1 ncu --clock-control none --metrics "$metrics" --csv --page raw --print-units base \
      --print-kernel-base function --log-file "$out.csv" "$suite" ${filter:+--gtest_filter="$filter"} \
      >"$out.ncu.log" 2>&1 ||
      bankgate_die "ncu failed on $name (run $run of $repeats); see $out.ncu.log"
  done
done
python3 tools/ncu_compare.py "$candidates" "$build_dir/ncu" "$build_dir/cli/bankgate"
