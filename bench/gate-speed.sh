#!/usr/bin/env bash
# What a gate costs, measured on this machine's GPUs in one run (needs a GPU and ncu; the scaling rows need two
# GPUs or more). bench/RESULTS-speed.md is its output, committed with the commit it measured.
#   bench/gate-speed.sh
#   1. the catalogue gate (`bankgate gate --no-build`, unchanged code, the committed baselines) on one GPU, GATES
#      times (default 20): wall time, each suite's measuring run, timing false alarms and counter changes
#   2. the same gate spread over every GPU (a resource spec), MULTI times (default 5), each right after a
#      one-GPU gate, so that a drift of the machine weighs on both alike
#   3. host ms per profiled kernel at 1, 12 and 64 kernels per call against Nsight Compute (bench/counters.sh)
#   4. the timing phase per test, and the per-process start-up, as the tests of the one-GPU gates recorded them
#   5. the timing gate's false alarms and sensitivity (bench/timing-gate.sh, parts compare and sensitivity;
#      ROUNDS default 2, TRIALS default 40)
# PARTS picks parts (default "gates counters timing": 1, 2 and 4 are gates; 3 counters; 5 timing).
# One build serves every part. Logs go to $OUT (default build/gate-speed); $OUT/RESULTS-speed.md is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/gate-speed}
gates=${GATES:-20}
multi=${MULTI:-5}
parts=" ${PARTS:-gates counters timing} "
mkdir -p "$out/gates" "$out/logs"
out=$(cd "$out" && pwd)
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
start=$(now)
bankgate_bench_build "$out/logs/build.log"
build=$BANKGATE_BENCH_BUILD
echo "== build: $(since "$start") s"
nvidia-smi --query-gpu=index,name,driver_version,persistence_mode,clocks.sm,clocks.max.sm --format=csv >"$out/gpus.csv" 2>&1
bankgate="$build/cli/bankgate"
summary_json=$(bankgate_result_path "$bankgate" "$build" gate_summary_json) || exit 3
ctest_junit=$(bankgate_result_path "$bankgate" "$build" gate_ctest_junit) || exit 3

# One GPU: the first CUDA shows. All GPUs: a resource spec of every GPU CUDA shows.
one_gpu=${CUDA_VISIBLE_DEVICES:-0}
one_gpu=${one_gpu%%,*}
gpus=1
if bash cli/bankgate-resource-spec.sh "$out/spec.json" 2>"$out/logs/spec.txt"; then
  gpus=$(grep -o '"id"' "$out/spec.json" | wc -l)
fi
gate() {  # gate KIND I [ENV=VALUE...] [-- GATE OPTIONS...]: one gate, its wall time, summary and ctest's JUnit report
  local kind=$1 i=$2 t0 rc
  shift 2
  local env=() options=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
  [ $# -gt 0 ] && shift && options=("$@")
  rm -f "$summary_json" "$ctest_junit"  # no earlier gate answers for this one
  t0=$(now)
  env "${env[@]}" "$bankgate" gate --build "$build" --no-build "${options[@]}" >"$out/logs/gate-$kind-$i.log" 2>&1
  rc=$?
  echo "$kind $i $rc $(since "$t0")" >>"$out/gates/walls.txt"
  cp "$summary_json" "$out/gates/$kind-$i.json" 2>/dev/null
  cp "$ctest_junit" "$out/gates/$kind-$i.xml" 2>/dev/null
}
start=$(now)
[[ $parts == *" gates "* ]] || gates=0
rm -rf "$out/gates" && mkdir -p "$out/gates" && : >"$out/gates/walls.txt"
for i in $(seq 1 "$gates"); do
  gate one "$i" CUDA_VISIBLE_DEVICES="$one_gpu"
  if [ "$gpus" -gt 1 ] && [ "$i" -le "$multi" ]; then
    gate all "$i" -- --resource-spec "$out/spec.json"
  fi
done
echo "== gates: $(since "$start") s"
BANKGATE_COMMAND="$bankgate" python3 bench/gate_speed_table.py "$out/gates" "$gpus" >"$out/gates.md" 2>"$out/logs/gates-table.txt" ||
  echo "(the gates' table failed: logs/gates-table.txt)" >"$out/gates.md"

start=$(now)
[[ $parts == *" counters "* ]] && BANKGATE_BUILD_DIR=$build bash bench/counters.sh "$out/counters" >"$out/logs/counters.log" 2>&1
[[ $parts == *" counters "* ]] && echo "exit $?" >>"$out/logs/counters.log"
echo "== counters: $(since "$start") s"

start=$(now)
[[ $parts == *" timing "* ]] && OUT="$out/timing" PARTS="compare sensitivity" ROUNDS=${ROUNDS:-2} TRIALS=${TRIALS:-40} bash bench/timing-gate.sh \
  >"$out/logs/timing.log" 2>&1
echo "== timing gate: $(since "$start") s"

{
  echo "# What a gate costs: $(sed -n 2p "$out/gpus.csv" | cut -d, -f2,3 | sed 's/^ //') ($gpus GPU(s) on the machine)"
  echo
  echo "Produced by bench/gate-speed.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${BANKGATE_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}$(bankgate_tree_dirty && echo ' (with uncommitted changes)'); parts:$parts; GPUs as found (nvidia-smi):"
  echo
  echo '```'
  cat "$out/gpus.csv"
  echo '```'
  echo
  cat "$out/gates.md"
  echo
  if [[ $parts == *" counters "* ]]; then
    echo "## Counters: host ms per profiled kernel against Nsight Compute (bench/counters.sh)"
    echo
    echo '```'
    sed -n '/: [0-9]* pass; collector set-up/,$p' "$out/logs/counters.log"
    echo '```'
    echo
  fi
  if [[ $parts == *" timing "* ]]; then
    echo "## The timing gate: false alarms and sensitivity (bench/timing-gate.sh)"
    echo
    sed -e '1d' -e 's/^## /### /' "$out/timing/RESULTS.md" 2>/dev/null || echo "(no results: see logs/timing.log)"
  fi
} >"$out/RESULTS-speed.md"
echo
cat "$out/RESULTS-speed.md"
