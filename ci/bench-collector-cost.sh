#!/usr/bin/env bash
# What collecting counters costs: the in-process collector against ncu on the same suite binary and kernels.
#   ci/bench-collector-cost.sh [SUITE_BINARY]   (needs a GPU and ncu; builds first when no binary is given)
# Prints host milliseconds per profiled kernel for both, and the wall time of a whole suite each way.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
build_dir=${BANKGATE_BUILD_DIR:-build/bench}
suite=${1:-}
if [ -z "$suite" ]; then
  bankgate_ensure_dependencies
  mkdir -p "$(dirname "$build_dir")"
  bankgate_build "$build_dir"
  suite="$build_dir/tests/suites/square_tile_suite"
fi
work=$(mktemp -d)
now() { date +%s.%N; }
metrics=$("$(dirname "$suite")/../../tools/bankgate-baselines" metrics)
kernels=$("$suite" --gtest_list_tests | grep -c '^  ')

t0=$(now); BANKGATE_LAUNCH_ONLY=1 "$suite" >"$work/plain.log" 2>&1; t1=$(now)
BANKGATE_CANDIDATE_DIR="$work/candidates" "$suite" >"$work/collector.log" 2>&1; t2=$(now)
BANKGATE_LAUNCH_ONLY=1 ncu --clock-control none --metrics "$metrics" "$suite" >"$work/ncu.log" 2>&1; t3=$(now)

per_kernel_ms=$(grep -o 'counters in [0-9.]* ms' "$work/collector.log" | awk '{s+=$3; n++} END {if (n) printf "%.2f", s/n; else print "n/a"}')
python3 - "$t0" "$t1" "$t2" "$t3" "$kernels" "$per_kernel_ms" <<'PY'
import sys
t0, t1, t2, t3 = map(float, sys.argv[1:5]); kernels = int(sys.argv[5]); collector_ms = sys.argv[6]
plain, collector, ncu = t1 - t0, t2 - t1, t3 - t2
ncu_per_kernel = (ncu - plain) / kernels * 1000
print(f"kernels: {kernels}")
print(f"{'measure':44s} {'value':>10s}")
print(f"{'suite wall, launch-only (no profiling) [s]':44s} {plain:10.2f}")
print(f"{'suite wall, in-process collector (counters+timing) [s]':44s} {collector:10.2f}")
print(f"{'suite wall, ncu on the same kernels [s]':44s} {ncu:10.2f}")
print(f"{'collector host time per profiled kernel [ms]':44s} {collector_ms:>10s}")
print(f"{'ncu overhead per profiled kernel [ms]':44s} {ncu_per_kernel:10.1f}")
PY
echo; echo "collector run, per test:"; grep -h '^\[bankgate\]' "$work/collector.log" | sed 's/^\[bankgate\] /  /'
grep -h '^\[  \(PASSED\|FAILED\|SKIPPED\)' "$work/collector.log"
rm -rf "$work"
