#!/usr/bin/env bash
# `bankgate history` and the gate's append, without a GPU: a made-up project in a git repository whose "GPU suite"
# is a ctest entry labelled gpu writing a candidate and a result record, as a measuring run would, with a shared
# load count read from the project (so that a commit can change it).
#   - a gate appends its tests to the store --history names; history show lists the series;
#   - a store that cannot be used (a server that cannot be reached, a damaged file, a newer schema): the gate's
#     verdict and exit code stand, it says why, and keeps the run in a file that history import adds later;
#   - the outcome kept is the gate's verdict (its summary), not the suite's result record;
#   - a failed gate draws each failed test's trend page from the history and its reports link it; each point links
#     to its commit (a page made from the source link template) and to its run's row;
#   - history import of a gate's report folder (or its summary.json), with the gate's verdicts, once however often
#     it is imported;
#   - history changes names the exact commit where the counter changed (its parent was measured), and a range
#     where it was not; history mark and stats;
#   - two imports at once into one SQLite store lose nothing;
#   - bench/history-false-alerts.sh counts the change points of gates of one commit, per test.
#
#   tests/unit/history_cli_test.sh PATH/TO/bankgate CMAKE
#
# Exits 77 (Skipped) where git or sqlite3 is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
. "$(dirname "$0")/test_lib.sh"
made_up_project history "${1:-}" "${2:-}" git sqlite3
unset BANKGATE_HISTORY NO_COLOR
cd "$root"  # no baselines folder here: the gate finds none for the test, wherever the test is run from

# The suite's measuring run writes a candidate and a result record of SquareTile.setRowReadRow, its loads from
# loads.txt (fake_gpu_suite.py).
fake_suite_cmakelists --records
echo 32 >"$repo/loads.txt"
first=$(commit first)
"$cmake" -S "$repo" -B "$repo/build" >"$root/configure.log" 2>&1 || { cat "$root/configure.log"; exit 1; }
build="$repo/build"
store="$root/history.sqlite"
gate() { run "$tool" gate --build "$build" --no-build --confirm-processes 0 "$@"; }

# 1. A gate appends; show lists the run. The outcome kept is the gate's verdict (no baseline: not measured), not
# what the suite's result record reported (passed).
gate --history "$store"
gate_rc=$rc
expect_in "a gate appends its tests" "history: 1 test appended to $store" "$out"
check "the outcome kept is the gate's verdict, not the record's" \
  "[ \"\$(sqlite3 '$store' 'SELECT outcome FROM results')\" = not_measured ]" "$(sqlite3 "$store" 'SELECT * FROM results')"
run "$tool" history show --history "$store" --test SquareTile.setRowReadRow --metric smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
expect_rc "history show: exit 0" 0
expect_in "history show: the run's commit and value" "${first:0:12}" "$out"
expect_in "history show: the value" " 32 " "$out"
run "$tool" history show --history "$store" --test SquareTile.setRowReadRow
expect_in "history show: durations by default, with p10 - p90" "768 ns - 768 ns" "$out"
run "$tool" history show --history "$store" --test SquareTile.setRowReadRow --html "$root/trend.html" \
  --commit-url 'https://example.com/commit/{commit}'
expect_in "history show --html: the page is written" "trend page: $root/trend.html" "$out"
expect_in "the trend page links each point to its commit" "href=\"https://example.com/commit/$first\"" "$(cat "$root/trend.html")"
expect_in "the trend page names each point's run and commit" "<title>run 1, commit $first: 768" "$(cat "$root/trend.html")"
run "$tool" history show --history "$store" --test SquareTile.setRowReadRow --html "$root/x.html" --commit-url 'javascript:{commit}'
expect_rc "a --commit-url that is no web address: a usage error" 64
run "$tool" history show --history "$store" --test SquareTile.setRowReadRow --metric no_such_counter
expect_rc "history show of an unknown metric: exit 2" 2
expect_in "history show of an unknown metric: names the known ones" "its metrics: duration, smsp__sass" "$out"
run "$tool" history show --history "$root/none.sqlite" --test SquareTile.setRowReadRow
expect_rc "history show of no store: exit 2" 2
expect_in "history show of no store: says where it looked" "there is no history store at $root/none.sqlite" "$out"
check "history show of no store: makes none" "[ ! -e '$root/none.sqlite' ]"

# 2. Stores that cannot be used: the verdict stands, the run is kept for an import.
pending="$build/bankgate/history-pending"
gate --history "postgresql://gate:secret@127.0.0.1:1/history"
expect_rc "an unreachable server: the verdict stands" "$gate_rc"
expect_in "an unreachable server: said" "history: not appended" "$out"
expect_in "an unreachable server: the verdict stands, said" "the verdict stands" "$out"
expect_not_in "an unreachable server: its password is not shown" "secret" "$out"
kept=$(ls "$pending"/*.json 2>/dev/null | head -n 1)
check "an unreachable server: the run is kept in a file" "[ -f '$kept' ]"
expect_in "an unreachable server: the import command is named" "history import $kept" "$out"
run "$tool" history import "$kept" --history "$store"
expect_rc "the kept run imports" 0
expect_in "the kept run imports: appended" "1 test(s) of commit ${first:0:12} appended" "$out"
run "$tool" history import "$kept" --history "$store"
expect_in "the kept run imported again: added once" "already in the history" "$out"

echo "not a database, damaged" >"$root/damaged.sqlite"
gate --history "$root/damaged.sqlite"
expect_rc "a damaged store: the verdict stands" "$gate_rc"
expect_in "a damaged store: named, with what to do" "$root/damaged.sqlite is damaged" "$out"

cp "$store" "$root/newer.sqlite"
sqlite3 "$root/newer.sqlite" "INSERT INTO schema_migrations VALUES (2, 'later')"
gate --history "$root/newer.sqlite"
expect_rc "a store of a newer schema: the verdict stands" "$gate_rc"
expect_in "a store of a newer schema: both versions named" "has schema version 2, newer than this bankgate's 1" "$out"
check "a store of a newer schema: nothing written to it" \
  "[ \"\$(sqlite3 '$root/newer.sqlite' 'SELECT COUNT(*) FROM runs')\" = 2 ]"

# 3. The default place: the repository's .bankgate/, and BANKGATE_HISTORY=off.
gate
expect_in "by default the history is the repository's" "appended to $repo/.bankgate/history.sqlite" "$out"
BANKGATE_HISTORY=off gate
expect_not_in "BANKGATE_HISTORY=off: nothing appended" "appended" "$out"

# 4. A report folder imported, once.
cp -R "$build/bankgate/gate" "$root/artifacts"
run "$tool" history import "$root/artifacts" --history "$root/imported.sqlite"
expect_in "a gate's report folder imports" "1 test(s) of commit ${first:0:12} appended" "$out"
run "$tool" history import "$root/artifacts" --history "$root/imported.sqlite"
expect_in "a gate's report folder imported again: added once" "already in the history" "$out"
check "an imported report folder keeps the gate's verdicts (summary.json), not the records'" \
  "[ \"\$(sqlite3 '$root/imported.sqlite' 'SELECT outcome FROM results')\" = not_measured ]"
run "$tool" history import "$root/artifacts/summary.json" --history "$root/imported.sqlite"
expect_rc "a gate's summary.json stands for its report folder: exit 0" 0
expect_in "a gate's summary.json stands for its report folder: the same run" "already in the history" "$out"
cp -R "$root/artifacts" "$root/not-a-summary"
echo '{"schema": "bankgate-test-result"}' >"$root/not-a-summary/summary.json"
run "$tool" history import "$root/not-a-summary" --history "$root/imported.sqlite"
expect_rc "a report folder whose summary.json is none: exit 2" 2
expect_in "a report folder whose summary.json is none: said" "summary.json is no gate summary" "$out"
mkdir -p "$root/empty"
run "$tool" history import "$root/empty" --history "$root/imported.sqlite"
expect_rc "a folder without candidates: exit 2" 2
expect_in "a folder without candidates: says what to give" "holds no candidates" "$out"

# 5. Change points: the counter changes at the third commit (exact: its parent measured); the fifth's parent
# was not measured (a range).
echo '# second' >>"$repo/CMakeLists.txt" && second=$(commit second) && gate --history "$store"
echo 1024 >"$repo/loads.txt" && third=$(commit third) &&
  gate --history "$store" --source-url 'https://git.example/o/r/blob/{commit}/{path}#L{line}'
expect_rc "a gate whose test regressed: exit 1" 1
expect_in "a gate whose test regressed still appends" "history: 1 test appended" "$out"
reports="$build/bankgate/gate"
page="$reports/trend/SquareTile.setRowReadRow.html"
expect_in "the failed test's trend page is said" "the trend page of each of the 1 failed test(s) in $reports/trend" "$out"
check "the failed test's trend page is written" "[ -f '$page' ]"
expect_in "the trend page plots the counter over the history, this run included" \
  "<title>run 4, commit $third: 1024.0" "$(cat "$page" 2>/dev/null)"
expect_in "the trend page plots the duration too" "<h2>duration</h2>" "$(cat "$page" 2>/dev/null)"
expect_in "the trend page links each point to its commit's page, made from the source link template" \
  "<a href=\"https://git.example/o/r/commit/$third\"><circle" "$(cat "$page" 2>/dev/null)"
expect_in "the trend page links each point to its run's row" "<a href=\"#run-4\"><text" "$(cat "$page" 2>/dev/null)"
expect_in "the run's row names its commit, linked" \
  "<tr id=run-4><td>4</td>" "$(cat "$page" 2>/dev/null)"
expect_in "the earlier runs' commits are linked too" "href=\"https://git.example/o/r/commit/$first\"" "$(cat "$page" 2>/dev/null)"
expect_in "the HTML report links the failed test to its trend page" \
  "href='trend/SquareTile.setRowReadRow.html'>trend page</a>" "$(cat "$reports/report.html")"
expect_in "the markdown summary names the trend pages and how to draw one" \
  "\`trend/\` beside this summary (1 page(s)); draw one again with \`bankgate history show --test SquareTile.setRowReadRow --html FILE\`" \
  "$(cat "$reports/summary.md")"
gate --history off
expect_rc "without a history: the verdict is the same" 1
expect_not_in "without a history: no trend page is linked" "trend page" "$(cat "$reports/report.html")"
echo '# fourth' >>"$repo/CMakeLists.txt" && commit fourth >/dev/null
echo 32 >"$repo/loads.txt" && fifth=$(commit fifth) && gate --history "$store"
run "$tool" history changes --history "$store" --metric smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
expect_rc "history changes: exit 0" 0
expect_in "history changes: two change points" "2 change point(s)" "$out"
expect_in "history changes: the exact commit" "${third:0:12} (exact)" "$out"
expect_in "history changes: before and after" "32 -> 1024" "$out"
expect_in "history changes: a range to bisect where the parent was not measured" "${third:0:12}..${fifth:0:12} (bisect)" "$out"

# 6. Marks and precision.
run "$tool" history mark --history "$store" --test SquareTile.setRowReadRow \
  --metric smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum --commit "$third" --verdict regression
expect_rc "history mark: exit 0" 0
run "$tool" history mark --history "$store" --test SquareTile.setRowReadRow --metric duration --commit "$fifth" --verdict false
run "$tool" history mark --history "$store" --test SquareTile.setRowReadRow --metric duration --commit "$fifth" --verdict maybe
expect_rc "history mark with an unknown verdict: a usage error" 64
run "$tool" history stats --history "$store"
expect_in "history stats: the test's precision" "50%" "$out"
run "$tool" history changes --history "$store" --metric smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
expect_in "history changes: the mark beside its change point" "regression" "$out"

# 7. Two imports at once into one store: every run arrives.
for i in $(seq 1 20); do
  python3 - "$kept" "$root/runs-a/$i.json" "a$i" <<'PY'
import json, os, sys
run = json.load(open(sys.argv[1]))
run["run"]["key"] = sys.argv[3]
os.makedirs(os.path.dirname(sys.argv[2]), exist_ok=True)
json.dump(run, open(sys.argv[2], "w"))
PY
done
mkdir -p "$root/runs-b"
for f in "$root"/runs-a/*.json; do sed 's/"key": *"a/"key": "b/' "$f" >"$root/runs-b/$(basename "$f")"; done
"$tool" history import "$root"/runs-a/*.json --history "$root/together.sqlite" >"$root/a.log" 2>&1 &
"$tool" history import "$root"/runs-b/*.json --history "$root/together.sqlite" >"$root/b.log" 2>&1 &
wait
check "two imports at once: 40 runs arrive" "[ \"\$(sqlite3 '$root/together.sqlite' 'SELECT COUNT(*) FROM runs')\" = 40 ]" \
  "$(cat "$root/a.log" "$root/b.log")"

# 8. The false-alert rate on A/A series (bench/history-false-alerts.sh): three gates of one commit, their report
# folders imported in order, each change point counted per test.
# (A second apart: the fake suite's candidates bear the time to the second, and two gates that left the same files
# are one run.)
for i in 1 2 3; do sleep 1 && gate --history off && cp -R "$build/bankgate/gate" "$root/aa-$i"; done
run env BANKGATE="$tool" OUT="$root/false-alerts" bash "$test_lib_dir/../../bench/history-false-alerts.sh" \
  "$root/aa-1" "$root/aa-2" "$root/aa-3" "$root/aa-3"
expect_rc "the false-alert script: exit 0" 0
expect_in "the false-alert script: the gates, runs and tests counted (a folder given twice is one run)" \
  "A/A history of 4 report folders (3 runs imported), 1 tests" "$out"
expect_in "the false-alert script: every series counted, no change point" "| (every test) | 3 | 0 | 6 | 0 | 0 |" "$out"
expect_in "the false-alert script: the rate" "Durations: 0 change point(s) in 3 runs: 0.00 per 1,000 runs." "$out"
finish
