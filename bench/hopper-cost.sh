#!/usr/bin/env bash
# What counting Hopper's data paths costs, before and after, on one GPU: builds BASE (a commit before the
# Hopper counters) beside this tree, then for each the collector's host time per kernel as the gate makes it
# (bankgate-counter-bench, one kernel per call) and the catalogue gate's wall time (3 gates, --no-build).
#   bench/hopper-cost.sh BASE OUT   (needs a GPU; results in bench/RESULTS-hopper-counters.md)
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/hopper-cost.sh BASE OUT}
out=${2:?usage: bench/hopper-cost.sh BASE OUT}
mkdir -p "$out"
. ci/lib.sh
bankgate_ensure_dependencies
here=$PWD
rm -rf /tmp/hopper-cost-base
git -c safe.directory='*' worktree prune
git -c safe.directory='*' worktree add --detach /tmp/hopper-cost-base "$base" >"$out/worktree.log" 2>&1 || { cat "$out/worktree.log"; exit 3; }
(cd /tmp/hopper-cost-base && mkdir -p build && bankgate_build build/gate >"$out/build-base.log" 2>&1) &
mkdir -p build && bankgate_build build/gate >"$out/build-head.log" 2>&1
wait
for tree in /tmp/hopper-cost-base "$here"; do
  name=$([ "$tree" = "$here" ] && echo head || echo base)
  "$tree/build/gate/bench/bankgate-counter-bench" --batches 1 --calls 30 >"$out/$name-single.json" 2>&1
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], 'bench', json.dumps(d)[:400])" "$out/$name-single.json" "$name"
  for i in 1 2 3; do
    start=$(date +%s.%N)
    (cd "$tree" && build/gate/cli/bankgate gate --build build/gate --no-build >"$out/$name-gate-$i.log" 2>&1)
    rc=$?
    echo "$name gate $i exit $rc wall $(python3 -c "import sys,time; print(round(time.time()-float(sys.argv[1]),2))" "$start") s, $(grep -c 'Passed\|Skipped' "$out/$name-gate-$i.log") lines"
  done
done
