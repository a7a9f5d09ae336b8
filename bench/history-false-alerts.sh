#!/usr/bin/env bash
# The false-alert rate of `bankgate history changes` on A/A series: the report folders of several gates of one
# unchanged code (each gate's build/bankgate/gate/, as the CI artifact keeps it) imported, in the order given, into
# a new SQLite store; then every change point `history changes` finds there is a false alert, since nothing
# changed. Counters that took two values in one commit are counted apart (history changes lists them as no
# property of the code, never as change points). docs/history.md states the rate measured on synthetic series.
#   bench/history-false-alerts.sh FOLDER...        (at least two report folders; 8 or more give durations a chance
#                                                  to be split: history changes wants 4 runs a side)
# BANKGATE: the command to use (default: built here, in $BANKGATE_BUILD_DIR or build/bench). OUT: where the store
# and the table go (default build/history-false-alerts). Prints a markdown table per test and the totals, also
# written to OUT/false-alerts.md. Exits 2 where a folder cannot be imported.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: bench/history-false-alerts.sh FOLDER FOLDER... (gates' report folders)" >&2; exit 64; }
folders=()
for folder in "$@"; do folders+=("$(cd "$folder" && pwd)") || exit 2; done
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/history-false-alerts}
mkdir -p "$out"
tool=${BANKGATE:-}
if [ -z "$tool" ]; then
  build_dir=${BANKGATE_BUILD_DIR:-build/bench}
  mkdir -p "$(dirname "$build_dir")"
  bankgate_ensure_dependencies
  bankgate_configure "$build_dir"
  cmake --build "$build_dir" --target bankgate >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 3; }
  tool="$build_dir/cli/bankgate"
fi
store="$out/history.sqlite"
rm -f "$store" "$store-wal" "$store-shm"
: >"$out/import.log"
for folder in "${folders[@]}"; do
  "$tool" history import "$folder" --history "$store" >>"$out/import.log" 2>&1 ||
    { tail -5 "$out/import.log"; bankgate_die "could not import $folder (log: $out/import.log)"; }
done
# A folder given twice (or two gates that left the same files) is one run: the rate is over the runs imported.
runs=$(awk '/ run\(s\) appended to / { n += $1 } END { print n + 0 }' "$out/import.log")

# The tests: every name the gates' summaries list (a folder without summary.json: its candidates' tests).
tests=$(python3 - "${folders[@]}" <<'PY'
import json, pathlib, sys
names = set()
for folder in map(pathlib.Path, sys.argv[1:]):
    summary = folder / "summary.json"
    if summary.exists():
        names.update(t["name"] for t in json.load(open(summary))["tests"])
        continue
    for file in (folder / "candidates").glob("*/*/*/*.json"):
        candidate = json.load(open(file))
        names.update(f"{candidate['suite']}.{test}" for test in candidate["tests"])
print("\n".join(sorted(names)))
PY
) || bankgate_die "the folders' tests could not be listed"

# history changes of one test: its change points, the runs examined and the counters with two values in a commit,
# as "POINTS DURATION_RUNS COUNTER_RUNS UNSTABLE".
changes() {
  "$tool" history changes --history "$store" --test "$1" ${2:+--metric "$2"} | awk '
    / change point\(s\) in / { points = $1 }
    /^examined: / { duration = $6; counter = $12 }
    /^not a property of the code/ { unstable++ }
    END { print points + 0, duration + 0, counter + 0, unstable + 0 }'
}
rows="$out/changes.txt"  # a line a test: TEST DURATION_RUNS DURATION_POINTS COUNTER_RUNS COUNTER_POINTS UNSTABLE
: >"$rows"
while IFS= read -r test; do
  [ -n "$test" ] || continue
  read -r all _ counter_runs unstable < <(changes "$test")
  read -r duration duration_runs _ _ < <(changes "$test" duration)
  echo "$test $duration_runs $duration $counter_runs $((all - duration)) $unstable" >>"$rows"
done <<<"$tests"
python3 - "${#folders[@]}" "$runs" "$rows" "$out/false-alerts.md" <<'PY'
import sys
gates, runs, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[4]
rows = [line.split() for line in open(sys.argv[3]) if line.strip()]
lines = [f"A/A history of {gates} report folders ({runs} runs imported), {len(rows)} tests: every change point "
         "is a false alert.", "",
         "| test | duration runs | duration change points | counter runs | counter change points | "
         "counters with two values in one commit |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
total = [0] * 5
for test, *numbers in rows:
    numbers = list(map(int, numbers))
    total = [a + b for a, b in zip(total, numbers)]
    if numbers[1] or numbers[3] or numbers[4]:
        lines.append(f"| {test} | " + " | ".join(map(str, numbers)) + " |")
lines.append("| (every test) | " + " | ".join(map(str, total)) + " |")
rate = lambda alerts, runs: f"{1000.0 * alerts / runs:.2f} per 1,000 runs" if runs else "no runs"
lines += ["", f"Durations: {total[1]} change point(s) in {total[0]} runs: {rate(total[1], total[0])}.",
          f"Counters: {total[3]} change point(s) in {total[2]} runs: {rate(total[3], total[2])}; "
          f"{total[4]} counter(s) took two values in one commit.",
          "Tests without any are left out of the table; (every test) counts them all."]
text = "\n".join(lines) + "\n"
open(path, "w").write(text)
print(text, end="")
PY
