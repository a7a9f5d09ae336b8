#!/usr/bin/env bash
# Investigation, on a GPU: do the contention-sensitive counters of a multi-block kernel (shared wavefronts and
# bank conflicts that L1 traffic adds) depend on the GPU's state when they are read, not only on the code?
# AsyncCopy.Sync16 and Async16 are measured in several situations and their verdicts against the committed
# baselines are printed, with the SM clock just before each:
#   fresh-idle     a new process after 5 s of idle GPU (what ctest gives every test)
#   repeat         one process, the test three times: run 2 and 3 count right after run 1's timing phase
#   fresh-busy     a new process started right after another kept the GPU busy
#   ncu-*          Nsight Compute on the launch-only suite, with and without its cache control
#   ./bench/contention-state.sh [BUILD_DIR]   (default build/gate, as ci/gate.sh builds it)
# On an H200, before the collector flushed L2 ahead of counting (CounterOptions::l2), every run after the first
# in a process failed (Sync16 store transactions per request 5.73 against 4.01, Async16 loads 3.76 against
# 2.96) while ncu, with or without its cache control, read the fresh values; with the flush every run passes.
# The gate now reads the SASS-instrumented counters, which no GPU state moves; the ncu runs below read the
# hardware set (bankgate metrics --set hardware), where the effect lives.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/gate}
suite="$build/tests/suites/catalogue_suite"
[ -x "$suite" ] || { echo "no $suite: build first (ci/gate.sh)" >&2; exit 3; }
log=${LOG_DIR:-build/contention-state}
mkdir -p "$log"
export BANKGATE_CANDIDATE_DIR="$log/candidates"
clock() { nvidia-smi --query-gpu=clocks.sm --format=csv,noheader 2>/dev/null | tr -d '\n'; }
# "Sync16:OK (ld tpr 4, st tpr 4.007) ...", from GoogleTest's JSON report of the run (with --gtest_repeat it
# holds the last repetition, the one counted after the others' timing phases).
verdicts() {
  python3 - "$1" <<'PY'
import json, sys
try:
    report = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print(f"no report ({e})")
    sys.exit(0)
out = []
for suite in report.get("testsuites", []):
    for t in suite.get("testsuite", []):
        verdict = "FAILED" if t.get("failures") else "OK"
        ld, st = t.get("shared_load_transactions_per_request", "-"), t.get("shared_store_transactions_per_request", "-")
        out.append(f"{t['name']}:{verdict} (ld tpr {ld}, st tpr {st})")
print("  ".join(out))
PY
}
run() {
  local name=$1; shift
  local before; before=$(clock)
  "$@" --gtest_output="json:$log/$name.json" >"$log/$name.log" 2>&1
  printf '%-12s SM clock before %-10s %s\n' "$name" "$before" "$(verdicts "$log/$name.json")"
}
filter=--gtest_filter='AsyncCopy.Sync16:AsyncCopy.Async16'
sleep 5
run fresh-idle "$suite" "$filter"
sleep 5
run repeat "$suite" "$filter" --gtest_repeat=3
"$suite" --gtest_filter='AsyncCopy.Sync4' --gtest_repeat=3 >/dev/null 2>&1
run fresh-busy "$suite" "$filter"

metrics=$("$build/cli/bankgate" metrics --set hardware)
for cache in all none; do
  sleep 5
  BANKGATE_LAUNCH_ONLY=1 ncu --clock-control none --cache-control "$cache" --metrics "$metrics" --csv --page raw \
    --print-units base --print-kernel-base function "$suite" --gtest_filter='AsyncCopy.*' >"$log/ncu-$cache.csv" 2>"$log/ncu-$cache.log"
  python3 - "$log/ncu-$cache.csv" "$cache" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
header = next(r for r in rows if "Kernel Name" in r)
def value(row, metric):
    return float(row[header.index(metric)].replace(",", ""))
# In test order (Sync4, Async4, Sync8, Async8, Sync16, Async16): ncu names kernels by their bare function name.
for row in rows[rows.index(header) + 1:]:
    if len(row) != len(header) or not row[header.index("ID")].isdigit():
        continue  # the units row
    ratios = []
    for op in ("ld", "st"):
        requests = value(row, f"smsp__inst_executed_op_shared_{op}.sum")
        wavefronts = value(row, f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
        ratios.append(f"{op} tpr {wavefronts / requests:.3f}" if requests else f"{op} tpr 0")
    print(f"ncu-{sys.argv[2]:<8} launch {row[header.index('ID')]:<3} {row[header.index('Kernel Name')]:<10} " + "  ".join(ratios))
PY
done
