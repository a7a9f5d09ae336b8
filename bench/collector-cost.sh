#!/usr/bin/env bash
# What collecting counters costs: the in-process collector against ncu on the same suite binary and kernels.
#   bench/collector-cost.sh [SUITE_BINARY [FILTER]]   (needs a GPU and ncu; builds first when no binary is given)
# FILTER (a --gtest_filter, default SquareTile.*) picks the kernels: the catalogue is one suite program.
# Prints host milliseconds per profiled kernel for both, and the wall time of a whole suite each way.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
build_dir=${BANKGATE_BUILD_DIR:-build/bench}
suite=${1:-}
filter=--gtest_filter=${2:-SquareTile.*}
if [ -z "$suite" ]; then
  bankgate_ensure_dependencies
  mkdir -p "$(dirname "$build_dir")"
  bankgate_build "$build_dir"
  suite="$build_dir/tests/suites/catalogue_suite"
fi
work=$(mktemp -d)
now() { date +%s.%N; }
metrics=$("$(dirname "$suite")/../../cli/bankgate" metrics)
"$suite" "$filter" --gtest_list_tests --gtest_output="json:$work/tests.json" >/dev/null
# The listing's own "tests" counts the whole program; the suites it lists are the filter's.
kernels=$(python3 -c 'import json, sys; print(sum(len(s["testsuite"]) for s in json.load(open(sys.argv[1]))["testsuites"]))' "$work/tests.json")

# Each suite runs its tests `repeat` times in one process, as a suite binary run by hand does; under ctest
# each suite is one process (bankgate run-suite) and pays the one-time set-up (first collect) once.
repeat=3
t0=$(now); BANKGATE_LAUNCH_ONLY=1 "$suite" "$filter" --gtest_repeat=$repeat >"$work/plain.log" 2>&1; t1=$(now)
BANKGATE_CANDIDATE_DIR="$work/candidates" "$suite" "$filter" --gtest_repeat=$repeat >"$work/collector.log" 2>&1; t2=$(now)
BANKGATE_LAUNCH_ONLY=1 ncu --clock-control none --metrics "$metrics" "$suite" "$filter" --gtest_repeat=$repeat >"$work/ncu.log" 2>&1; t3=$(now)

# Per-kernel host cost from GoogleTest's JSON report of a fresh process (one pass over the suite): the first
# test records the collector's set-up and pays the first profiled kernel; the rest are steady state.
BANKGATE_CANDIDATE_DIR="$work/candidates-once" "$suite" "$filter" --gtest_output="json:$work/once.json" >"$work/once.log" 2>&1
echo "collector run (one pass, fresh process): $work/once.json"
python3 - "$t0" "$t1" "$t2" "$t3" "$kernels" "$repeat" "$work/once.json" <<'PY'
import json, statistics, sys
t0, t1, t2, t3 = map(float, sys.argv[1:5]); kernels = int(sys.argv[5]) * int(sys.argv[6])
report = json.load(open(sys.argv[7]))
tests = [t for suite in report.get("testsuites", []) for t in suite.get("testsuite", [])]
costs = [float(t["counter_host_ms"]) for t in tests if "counter_host_ms" in t]
setup = next((t["collector_setup_ms"] for t in tests if "collector_setup_ms" in t), "n/a")
print(f"collector set-up (CUPTI initialisation, enabling the profiler; once per process): {setup} ms")
samples = costs
plain, collector, ncu = t1 - t0, t2 - t1, t3 - t2
ncu_per_kernel = (ncu - plain) / kernels * 1000
first = f"{samples[0]:.1f}" if samples else "n/a"
steady = f"{statistics.median(samples[1:]):.2f}" if len(samples) > 1 else "n/a"
print(f"profiled kernels: {kernels} ({sys.argv[5]} tests x {sys.argv[6]} repeats)")
print(f"{'measure':44s} {'value':>10s}")
print(f"{'suite wall, launch-only (no profiling) [s]':44s} {plain:10.2f}")
print(f"{'suite wall, in-process collector (counters+timing) [s]':44s} {collector:10.2f}")
print(f"{'suite wall, ncu on the same kernels [s]':44s} {ncu:10.2f}")
print(f"{'collector: first profiled kernel of a process [ms]':44s} {first:>10s}")
print(f"{'collector: each further profiled kernel, median [ms]':44s} {steady:>10s}")
print(f"{'ncu overhead per profiled kernel [ms]':44s} {ncu_per_kernel:10.1f}")
PY
echo; echo "collector run, per test (GoogleTest JSON report):"
python3 - "$work/once.json" <<'PY'
import json, sys
for suite in json.load(open(sys.argv[1])).get("testsuites", []):
    for t in suite.get("testsuite", []):
        print(f"  {suite['name']}.{t['name']}: counters {t.get('counter_host_ms', '-')} ms, "
              f"timing {t.get('timing_host_ms', '-')} ms, median {t.get('median_ns', '-')} ns")
PY
rm -rf "$work"
