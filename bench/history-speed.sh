#!/usr/bin/env bash
# The history store's speed on SQLite (no GPU): an append of a 66-test gate into a store of 1,000 commits (target:
# at most 50 ms), and `bankgate history show` of one test's counter and duration over those 1,000 commits (target:
# at most 200 ms, the command's whole run).
#   bench/history-speed.sh [OUT_DIR]     (default OUT_DIR build/bench-history)
# Builds the bench program and the command only, writes OUT_DIR/append.json and prints a table last.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${1:-build/bench-history}
build_dir=${BANKGATE_BUILD_DIR:-build/bench}
mkdir -p "$out" "$(dirname "$build_dir")"
bankgate_ensure_dependencies
bankgate_configure "$build_dir"
cmake --build "$build_dir" --target bankgate-history-bench bankgate >"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log"; exit 3; }
store="$out/history.sqlite"
rm -f "$store" "$store-wal" "$store-shm"
"$build_dir/bench/bankgate-history-bench" "$store" --commits 1000 --tests 66 --appends 20 >"$out/append.json" ||
  bankgate_die "the history bench failed"
# The whole command, as a person runs it, best of five (the first warms the page cache).
show_ms() {
  local best=""
  for _ in 1 2 3 4 5; do
    local start end ms
    start=$(date +%s%N)
    "$build_dir/cli/bankgate" history show --history "$store" --test Suite5.test33 "$@" >/dev/null ||
      bankgate_die "history show failed"
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}
counter_ms=$(show_ms --metric smsp__metric_7.sum)
duration_ms=$(show_ms)
python3 - "$out/append.json" "$counter_ms" "$duration_ms" "$(du -k "$store" | cut -f1)" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
print(f"| what | measured | target |\n| --- | --- | --- |")
print(f"| append of a {a['tests']}-test gate (median of 20, into {a['commits']} commits) | {a['append_median_ms']:.1f} ms (max {a['append_max_ms']:.1f}) | 50 ms |")
print(f"| history show, a counter over {a['commits']} commits | {sys.argv[2]} ms | 200 ms |")
print(f"| history show, the duration over {a['commits']} commits | {sys.argv[3]} ms | 200 ms |")
print(f"| store size | {int(sys.argv[4]) / 1024:.0f} MiB | |")
PY
