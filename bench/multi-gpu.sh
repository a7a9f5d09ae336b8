#!/usr/bin/env bash
# The gate spread over every GPU of this machine against the gate on one GPU: the wall time of each, which
# test ran on which GPU, and whether both runs measured the same (the one-GPU run as base, judged by the
# gate's own rule: counters exact or within their written tolerance, durations within theirs).
#   bench/multi-gpu.sh     (needs a GPU; on a one-GPU machine both runs use that GPU, one test at a time)
# Results go to $BENCH_OUT (default build/multi-gpu): each run's gate-results/ and log, and summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${BENCH_OUT:-build/multi-gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export BANKGATE_BUILD_DIR=${BANKGATE_BUILD_DIR:-build/gate}
bankgate_ensure_dependencies
mkdir -p "$(dirname "$BANKGATE_BUILD_DIR")"
bankgate_build "$BANKGATE_BUILD_DIR" >"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 3; }
tool="$BANKGATE_BUILD_DIR/cli/bankgate"
gate_results=$(bankgate_result_path "$tool" "$BANKGATE_BUILD_DIR" gate) || exit 3
spec=$(bankgate_result_path "$tool" "$BANKGATE_BUILD_DIR" resource_spec) || exit 3  # ci/gate.sh writes it

rows=()
gate_run() {  # gate_run NAME [VAR=VALUE...]: ci/gate.sh on the existing build, timed, its results kept
  local name=$1; shift
  local start; start=$(date +%s.%N)
  env "$@" bash ci/gate.sh --no-build >"$out/$name.log" 2>&1
  local status=$?
  local wall; wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
  rm -rf "${out:?}/$name"
  cp -r "$gate_results" "$out/$name"
  local gpus; gpus=$(grep -o '"id"' "$spec" 2>/dev/null | wc -l)
  rows+=("$(printf '%-10s GPUs %-3s exit %-3s wall %6ss' "$name" "$gpus" "$status" "$wall")")
}
gate_run all-gpus
gate_run one-gpu CUDA_VISIBLE_DEVICES="$(echo "${CUDA_VISIBLE_DEVICES:-0}" | cut -d, -f1)"

{
  echo "== where each test ran (all GPUs), and how it ended, from the gate's JSON summary"
  python3 -c 'import collections,sys; sys.path.insert(0, "tools"); from bankgate_outputs import read_summary; d=read_summary(sys.argv[1]); c=collections.Counter((t["device"] or "unknown", t["outcome"]) for t in d["tests"]); [print(f"  {n:3d} tests on device {dev}: {o}") for (dev, o), n in sorted(c.items())]' \
    "$out/all-gpus/summary.json"
  echo
  echo "== all GPUs (head) against one GPU (base), by the gate's rule"
  "$tool" compare --base "$out/one-gpu/candidates" --head "$out/all-gpus/candidates"
  echo "compare exit $?"
  echo
  echo "== runs"
  printf '%s\n' "${rows[@]}"
} | tee "$out/summary.txt"
