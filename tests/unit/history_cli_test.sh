#!/usr/bin/env bash
# `bankgate history` and the gate's append, without a GPU: a made-up project in a git repository whose "GPU suite"
# is a ctest entry labelled gpu writing a candidate and a result record, as a measuring run would, with a shared
# load count read from the project (so that a commit can change it).
#   - a gate appends its tests to the store --history names; history show lists the series;
#   - a store that cannot be used (a server that cannot be reached, a damaged file, a newer schema): the gate's
#     verdict and exit code stand, it says why, and keeps the run in a file that history import adds later;
#   - history import of a gate's report folder, once however often it is imported;
#   - history changes names the exact commit where the counter changed (its parent was measured), and a range
#     where it was not; history mark and stats;
#   - two imports at once into one SQLite store lose nothing.
#
#   tests/unit/history_cli_test.sh PATH/TO/bankgate CMAKE
#
# Exits 77 (Skipped) where git or sqlite3 is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
tool=${1:?usage: history_cli_test.sh PATH/TO/bankgate CMAKE}
cmake=${2:?usage: history_cli_test.sh PATH/TO/bankgate CMAKE}
for program in git sqlite3; do
  command -v "$program" >/dev/null 2>&1 || { echo "SKIPPED: no $program here (apt-get install $program)"; exit 77; }
done
export PATH="$(dirname "$cmake"):$PATH"
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-history.XXXXXX")
trap 'rm -rf "$root"' EXIT
. "$(dirname "$0")/test_lib.sh"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
unset GIT_DIR GIT_WORK_TREE BANKGATE_HISTORY NO_COLOR

repo="$root/repo"
mkdir -p "$repo"
cat >"$repo/measure.sh" <<'SUITE'
#!/usr/bin/env bash
# The suite's measuring run: a candidate and a result record of SquareTile.setRowReadRow, its loads from loads.txt.
set -eu
project=$1 records=$2
loads=$(cat "$project/loads.txt")
commit=$(git -C "$project" rev-parse HEAD)
dir=$(python3 -c 'import json, os; print(json.load(open(os.environ["BANKGATE_RUN_MANIFEST"]))["candidate_dir"])')
mkdir -p "$dir/sm_90/nvidia-h200/SquareTile" "$records"
cat >"$dir/sm_90/nvidia-h200/SquareTile/setRowReadRow.json" <<JSON
{"schema_version": 4, "suite": "SquareTile", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
 "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
                "cupti_version": 130000, "git_commit": "$commit", "git_dirty": false, "date": "2026-11-28T20:00:00Z",
                "command": "fake suite"},
 "tests": {"setRowReadRow": {"kernel": "setRowReadRow", "correct": true,
   "counters": {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": $loads, "tolerance": {"kind": "exact"}}},
   "timing": {"median_ns": 768, "mad_ns": 0, "p10_ns": 768, "p90_ns": 768, "min_ns": 768, "samples": 3,
              "median_se_ns": 0, "tolerance": {"relative": 0.03, "absolute_ns": 64}, "l2": "warm",
              "launches_per_sample": 1, "warmup_launches": 2, "dropped_samples": 0, "sm_clock_mhz": 1980},
   "samples_ns": [768, 768, 768],
   "lines": [{"file": "square.cu", "line": 12, "kind": "shared_load", "opcode": "LDS", "executions": 32,
              "wavefronts": $loads, "ideal_wavefronts": 32, "sectors": 0, "ideal_sectors": 0}]}}}
JSON
# The plan, as run-suite writes it before the suite process starts: the tests it will run.
printf '{"filter": "", "problem": "", "program": "fake_suite", "schema": "bankgate-test-plan", "schema_version": 1, "shard": 0, "tests": ["SquareTile.setRowReadRow"]}\n' \
  >"$records/fake_suite.0.plan.json"
outcome=passed
[ "$loads" = 32 ] || outcome=regressed
printf '{"schema": "bankgate-test-result", "schema_version": 1, "suite": "SquareTile", "test": "setRowReadRow", "outcome": "%s", "seconds": 0.1, "messages": [], "properties": {}, "wrong_output": false, "findings": []}\n' \
  "$outcome" >"$records/SquareTile.setRowReadRow.result.json"
[ "$outcome" = passed ]
SUITE
printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(fake NONE)' 'enable_testing()' \
  'add_test(NAME SquareTile.setRowReadRow COMMAND bash ${CMAKE_SOURCE_DIR}/measure.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/bankgate/gtest-results)' \
  'set_tests_properties(SquareTile.setRowReadRow PROPERTIES LABELS gpu)' >"$repo/CMakeLists.txt"
printf 'build/\n.bankgate/\n' >"$repo/.gitignore"
echo 32 >"$repo/loads.txt"
git init -q "$repo"
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1" && git -C "$repo" rev-parse HEAD; }
first=$(commit first)
"$cmake" -S "$repo" -B "$repo/build" >"$root/configure.log" 2>&1 || { cat "$root/configure.log"; exit 1; }
build="$repo/build"
store="$root/history.sqlite"
gate() { run "$tool" gate --build "$build" --no-build --confirm-processes 0 "$@"; }

# 1. A gate appends; show lists the run.
gate --history "$store"
gate_rc=$rc
expect_in "a gate appends its tests" "history: 1 test appended to $store" "$out"
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
mkdir -p "$root/empty"
run "$tool" history import "$root/empty" --history "$root/imported.sqlite"
expect_rc "a folder without candidates: exit 2" 2
expect_in "a folder without candidates: says what to give" "holds no candidates" "$out"

# 5. Change points: the counter changes at the third commit (exact: its parent measured); the fifth's parent
# was not measured (a range).
echo '# second' >>"$repo/CMakeLists.txt" && second=$(commit second) && gate --history "$store"
echo 1024 >"$repo/loads.txt" && third=$(commit third) && gate --history "$store"
expect_rc "a gate whose test regressed: exit 1" 1
expect_in "a gate whose test regressed still appends" "history: 1 test appended" "$out"
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
finish
