#!/usr/bin/env bash
# A gate split over runners, without a GPU: `bankgate gate --shard I/N` on a stand-in project whose GPU tests are
# shell commands laid out as bankgate_add_gpu_suite() lays out a suite (a measuring run per suite program, a
# ctest fixture, one entry per test), then `bankgate summary --shards` over the parts' report folders.
#
#   tests/unit/shard_gate_test.sh PATH/TO/bankgate CMAKE CTEST FIXTURE_DIR
#
# FIXTURE_DIR is tests/unit/fixtures/gate_summary (result records). Checks: each part runs its own suites and
# only their programs' measuring runs; the parts cover the catalogue once; the plan is the same whatever order the
# tests are declared in, and follows --shard-durations; an empty part exits 2 and says why; the reports say which
# part they are; the merge gives the whole gate's verdict and reports and refuses a missing, doubled or foreign
# part (exit 2, nothing written); the merged report links the trend pages the parts drew (where the command keeps
# history, BANKGATE_TEST_HISTORY=1). Prints "N passed, M failed"; exits non-zero if any check failed.
set -uo pipefail

usage="usage: shard_gate_test.sh PATH/TO/bankgate CMAKE CTEST FIXTURE_DIR"
tool=${1:?$usage}
cmake=${2:?$usage}
ctest=${3:?$usage}
fixtures=${4:?$usage}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }
fixtures=$(cd "$fixtures" && pwd)
python=$(command -v python3)  # the one found first, before ctest's folder goes ahead of it
PATH="$(dirname "$ctest"):$PATH"  # the command runs ctest

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-shard-gate.XXXXXX")
trap 'rm -rf "$root"' EXIT
export BANKGATE_HISTORY="$root/history.sqlite"  # every part's gate appends here and draws its failed tests' pages
. "$(dirname "$0")/test_lib.sh"

# The stand-in catalogue: "program suite.test exit-code", three programs, five suites, nine tests. The one failing
# test's record says it regressed (its candidate differs from its baseline).
catalogue="A SquareTile.setRowReadColIpad 1
A SquareTile.setRowReadRow 0
A Reverse.a 0
A Reverse.b 0
B Stride.s1 0
B Stride.s2 0
B Stride.s3 0
B Wide.w1 0
C Lone.x 0"
program_of() { case $1 in SquareTile|Reverse) echo A ;; Stride|Wide) echo B ;; Lone) echo C ;; esac; }
# Every test's result record, as its suite process would leave it: the fixtures' where they have one (the
# regression's), a passing one for the rest (a test that ran and left no record is not measured, never passed).
records="$root/records"
mkdir -p "$records" && cp "$fixtures"/gtest-results/*.result.json "$records"
while read -r _ name _; do
  [ -f "$records/$name.result.json" ] && continue
  printf '{"schema": "bankgate-test-result", "schema_version": 1, "suite": "%s", "test": "%s", "outcome": "passed", "seconds": 0.1, "messages": [], "properties": {}, "wrong_output": false, "findings": []}\n' \
    "${name%%.*}" "${name#*.}" >"$records/$name.result.json"
done <<<"$catalogue"
suite_file "$root/measured/sm_90/nvidia-h200/SquareTile/setRowReadColIpad.json" setRowReadColIpad 1024
suite_file "$root/baselines/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 32
# bankgate judges each test itself: the passing ones have a candidate equal to their baseline. Each program's
# measuring run leaves its plan (the tests it was to run) beside the records.
passing_measurements "$root/measured" "$root/baselines" $(awk '$3 == 0 {print $2}' <<<"$catalogue")
for program in A B C; do
  test_plan "$root/plans/$program" "$program" $(awk -v p="$program" '$1 == p {print $2}' <<<"$catalogue")
done
ran="$root/ran"

# standin DIR ORDER: the project, its tests declared in catalogue order (forward) or reversed (reverse).
standin() {
  mkdir -p "$1"
  cat >"$1/measure.sh" <<'SH'
#!/bin/sh
# A suite program's measuring run: marks that it ran and leaves what run-suite and a suite process would (its
# plan, candidates, the records of its tests).
touch "$2/bankgate.measure.$1"
# Where candidates go, as the command's run manifest says.
candidates=$(python3 -c 'import json, os; print(json.load(open(os.environ["BANKGATE_RUN_MANIFEST"]))["candidate_dir"])')
mkdir -p "$candidates" "$4" && cp -R "$3/." "$candidates"
# The plan: the program's tests that the command's filter selects (GoogleTest's "POSITIVE-NEGATIVE" patterns; the
# split's are whole suites), resolved once, as run-suite resolves it; then each planned test's record.
tests=$(python3 -c 'import fnmatch, json, os, sys
plan = json.load(open(sys.argv[1]))
wanted, _, unwanted = json.load(open(os.environ["BANKGATE_RUN_MANIFEST"])).get("suite_filter", "").partition("-")
patterns, out = [p for p in wanted.split(":") if p] or ["*"], [p for p in unwanted.split(":") if p]
match = lambda t, ps: any(fnmatch.fnmatchcase(t, p) for p in ps)
plan["tests"] = [t for t in plan["tests"] if match(t, patterns) and not match(t, out)]
json.dump(plan, open(sys.argv[2], "w"))
print(" ".join(plan["tests"]))' "$6/$1.0.plan.json" "$4/$1.0.plan.json")
for name in $tests; do
  cp "$5/$name.result.json" "$4"
done
# A suite process that leaves a record as a link to a file outside its folder.
[ -z "${PLANT_RECORD_LINK:-}" ] || ln -sf "$PLANT_RECORD_LINK" "$4/Lone.x.result.json"
# One that leaves a subfolder as a link to a folder outside.
[ -z "${PLANT_FOLDER_LINK:-}" ] || ln -sfn "$PLANT_FOLDER_LINK" "$4/more"
SH
  {
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(split NONE)\nenable_testing()\n'
    for program in A B C; do
      printf 'add_test(NAME bankgate.measure.%s COMMAND sh %s %s %s %s %s %s %s)\n' "$program" "$1/measure.sh" "$program" "$ran" \
        "$root/measured" "\${CMAKE_BINARY_DIR}/bankgate/gtest-results" "$records" "$root/plans/$program"
      printf 'set_tests_properties(bankgate.measure.%s PROPERTIES FIXTURES_SETUP bankgate.%s LABELS gpu)\n' "$program" "$program"
    done
    if [ "$2" = reverse ]; then tac; else cat; fi <<<"$catalogue" | while read -r program name rc; do
      printf 'add_test(NAME %s COMMAND sh -c "touch %s/%s && exit %s")\n' "$name" "$ran" "$name" "$rc"
      printf 'set_tests_properties(%s PROPERTIES FIXTURES_REQUIRED bankgate.%s LABELS gpu)\n' "$name" "$program"
    done
  } >"$1/CMakeLists.txt"
  "$cmake" -S "$1" -B "$1/build" >"$1/configure.log" 2>&1 || fail "the stand-in project $1 configures" "$(cat "$1/configure.log")"
}
standin "$root/forward" forward
standin "$root/reverse" reverse
build="$root/forward/build"
gate_folder() { echo "$1/bankgate/gate"; }

json() {  # json FILE PYTHON-EXPRESSION-OF-d
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>&1
}

# shard I N [ARGS...]: a gate of part I/N on the forward project, its folder kept as $root/shards-N/I, the measuring
# runs it started in $measured_runs.
shard() {
  local index=$1 count=$2
  shift 2
  rm -rf "$ran" && mkdir -p "$ran"
  run "$tool" gate --shard "$index/$count" --build "$build" --no-build --baselines "$root/baselines" "$@"
  measured_runs=$(cd "$ran" && ls bankgate.measure.* 2>/dev/null | sed 's/bankgate.measure.//' | sort | tr '\n' ' ')
  mkdir -p "$root/shards-$count" && rm -rf "$root/shards-$count/$index"
  cp -R "$(gate_folder "$build")" "$root/shards-$count/$index"
}

# 1. Three parts: each runs its own suites and only their programs.
all_tests="" all_suites="" codes=""
for index in 1 2 3; do
  shard "$index" 3
  codes="$codes $rc"
  summary="$root/shards-3/$index/summary.json"
  expect_in "shard $index/3 says which part it runs" "bankgate: shard $index of 3: " "$out"
  suites=$(json "$summary" '" ".join(d["shard"]["suites"])')
  all_suites="$all_suites $suites"
  all_tests="$all_tests $(json "$summary" '" ".join(t["name"] for t in d["tests"])')"
  wanted=$(for suite in $suites; do program_of "$suite"; done | sort -u | tr '\n' ' ')
  check "shard $index/3 started its suites' programs only ($suites)" '[ "$measured_runs" = "$wanted" ]' \
    "started: '$measured_runs', its suites' programs: '$wanted'"
  judged=$(json "$summary" '" ".join(sorted({t["suite"] for t in d["tests"]}))')
  check "shard $index/3 judged the tests of its suites only" '[ "$judged " = "$(tr " " "\n" <<<"$suites" | sort | tr "\n" " ")" ]' \
    "judged: '$judged', its suites: '$suites'"
  # The command judges every test itself: ctest runs the measuring entries alone, no per-test verdict entry.
  check "shard $index/3 ran no per-test entry" '[ -z "$(cd "$ran" && ls | grep -v "^bankgate\.")" ]' "$(ls "$ran")"
  expect_in "shard $index/3's JUnit report says which part it is" "name=\"bankgate.shard\" value=\"$index/3\"" \
    "$(cat "$root/shards-3/$index/junit.xml")"
  expect_in "shard $index/3's markdown says which part it is" "Shard $index of 3 of a split gate" "$(cat "$root/shards-3/$index/summary.md")"
done
check "the parts' suites cover the catalogue once" \
  '[ "$(tr " " "\n" <<<"$all_suites" | grep . | sort | tr "\n" " ")" = "Lone Reverse SquareTile Stride Wide " ]' "$all_suites"
check "the parts' tests cover the catalogue once" '[ "$(tr " " "\n" <<<"$all_tests" | grep -c .)" = 9 ] &&
  [ "$(tr " " "\n" <<<"$all_tests" | grep . | sort -u | wc -l)" = 9 ]' "$all_tests"
check "the part with the regression exits 1, the others 0" '[ "$(tr " " "\n" <<<"$codes" | grep . | sort | tr "\n" " ")" = "0 0 1 " ]' "$codes"
regressed=$(grep -l setRowReadColIpad "$root"/shards-3/*/summary.json | head -n 1)
check "a part keeps its result records in its folder" \
  '[ -f "$(dirname "$regressed")/gtest-results/SquareTile.setRowReadColIpad.result.json" ]' "$(ls -R "$(dirname "$regressed")")"

# A gate's verdict comes from its plans and records alone: deleting ctest's JUnit report after the run changes no
# report.
part=$(dirname "$regressed")
summarize_part() {  # summarize_part REPORTS: the part's summary again, from its own folder's files
  run "$tool" summary --gtest-results "$part/gtest-results" --candidates "$part/candidates" --baselines "$root/baselines" \
    --reports "$1"
}
strip() { json "$1" 'json.dumps({k: v for k, v in d.items() if k != "provenance"}, sort_keys=True)'; }
summarize_part "$root/again-with-junit" && with_rc=$rc
check "the part's folder holds ctest's JUnit report" '[ -f "$part/ctest-junit.xml" ]' "$(ls "$part")"
rm -f "$part/ctest-junit.xml"
summarize_part "$root/again-without-junit"
check "deleting ctest's JUnit report changes neither verdict nor summary" \
  '[ "$rc" = "$with_rc" ] && [ "$rc" = 1 ] && [ "$(strip "$root/again-with-junit/summary.json")" = "$(strip "$root/again-without-junit/summary.json")" ]' \
  "exit $with_rc then $rc"

# 2. The same plan whatever order ctest lists the tests in.
for index in 1 2 3; do
  run "$tool" gate --shard "$index/3" --build "$root/reverse/build" --no-build --baselines "$root/baselines"
  check "shard $index/3 is the same part when the tests are declared in reverse" \
    '[ "$(json "$(gate_folder "$root/reverse/build")/summary.json" "d[\"shard\"]")" = "$(json "$root/shards-3/$index/summary.json" "d[\"shard\"]")" ]'
done

# 3. The merge: the whole gate's verdict and reports.
echo "earlier step's summary" >"$root/step.md"
run "$tool" summary --shards "$root/shards-3" --baselines "$root/baselines" --reports "$root/merged" --markdown "$root/step.md"
expect_rc "the merge of the three parts exits 1 (the regression one part found)" 1
expect_in "the merge says what it merged" "Merged from the reports of all 3 shards" "$out"
verdict=$(json "$root/merged/summary.json" '(d["exit_code"], d["merged_shards"], len(d["tests"]),
  [(t["outcome"], t["changes"][0]["measured"], t["device"]) for t in d["tests"] if t["name"] == "SquareTile.setRowReadColIpad"])')
expect_in "the merged summary.json holds every test, the regression read from its part's files" \
  "(1, 3, 9, [('regressed', 1024, '1 (0000:3B:00.0)')])" "$verdict"
check "every part's and the merged summary.json validate against schemas/summary.schema.json" \
  '"$python" -B "$(dirname "$0")/validate_output.py" summary.schema.json "$root"/shards-3/*/summary.json "$root/merged/summary.json"'
for report in junit.xml summary.md report.html; do
  check "the merge writes $report" '[ -s "$root/merged/$report" ]'
done
expect_in "the merged JUnit report says it merges 3 parts" 'name="bankgate.merged_shards" value="3"' "$(cat "$root/merged/junit.xml")"
expect_in "the merged JUnit report names the regressed counter" "shared load transactions CHANGED: 1024 (baseline 32" \
  "$(cat "$root/merged/junit.xml")"
[ "$(head -n 1 "$root/step.md")" = "earlier step's summary" ] && pass "--markdown is appended to" || fail "--markdown is appended to"
expect_in "--markdown gets the merged summary" "Merged from the reports of all 3 shards" "$(cat "$root/step.md")"
# The part that failed a test drew its trend page from the history; the merged report links a copy of it.
page=trend/SquareTile.setRowReadColIpad.html
if [ "${BANKGATE_TEST_HISTORY:-0}" = 1 ]; then
  check "the part with the regression drew its trend page" "[ -f '$part/$page' ]" "$(ls -R "$part")"
  check "the merge copies the part's trend page beside its report" "cmp -s '$part/$page' '$root/merged/$page'"
  expect_in "the merged HTML report links the failed test to its trend page" \
    "href='$page'>trend page</a>" "$(cat "$root/merged/report.html")"
  expect_in "the merged markdown summary names the trend pages" "\`trend/\` beside this summary (1 page(s))" \
    "$(cat "$root/merged/summary.md")"
  # A part's page that is a link to a file elsewhere (an artifact's) is not followed: not copied, not linked.
  rm -rf "$root/linked" && cp -R "$root/shards-3" "$root/linked" && echo '<p>elsewhere</p>' >"$root/outside.html"
  ln -sf "$root/outside.html" "$root/linked/$(basename "$part")/$page"
  run "$tool" summary --shards "$root/linked" --baselines "$root/baselines" --reports "$root/merged-linked"
  expect_rc "a part's trend page that is a link: the merge's verdict stands" 1
  check "a part's trend page that is a link is not copied" "[ ! -e '$root/merged-linked/$page' ]"
  expect_not_in "a part's trend page that is a link is not linked" "trend page</a>" "$(cat "$root/merged-linked/report.html")"
else
  echo "SKIPPED (trend pages of a merge): this bankgate keeps no history (built without SQLite)"
fi

# 4. Merges refused: exit 2, what is wrong named, nothing written.
refused() {  # refused NAME FOLDER TEXT
  rm -rf "$root/refused-reports"
  run "$tool" summary --shards "$2" --baselines "$root/baselines" --reports "$root/refused-reports"
  expect_rc "$1: refused (exit 2)" 2
  expect_in "$1: says why" "$3" "$out"
  check "$1: writes nothing" '[ ! -e "$root/refused-reports" ]' "$(ls -R "$root/refused-reports" 2>&1)"
}
variant() { rm -rf "$root/variant" && cp -R "$root/shards-3" "$root/variant"; }
variant && rm -rf "$root/variant/2"
refused "a missing part" "$root/variant" "shard 2 of 3 is missing"
variant && cp -R "$root/variant/1" "$root/variant/1-again"
refused "a part present twice" "$root/variant" "shard 1 of 3 is present 2 times: $root/variant/1, $root/variant/1-again"
variant && python3 -c 'import json, sys; p = sys.argv[1]; d = json.load(open(p)); d["shard"]["count"] = 4; json.dump(d, open(p, "w"))' \
  "$root/variant/3/summary.json"
refused "parts of different N" "$root/variant" "the shards disagree on their number N: N = 3 in"
variant && cp "$root/variant/1/gtest-results/"* "$root/variant/2/gtest-results/"
refused "a test in two parts" "$root/variant" "tests reported by two shards"
variant && rm -rf "$root/variant/3" && run "$tool" gate --build "$build" --no-build --baselines "$root/baselines" &&
  cp -R "$(gate_folder "$build")" "$root/variant/3"
refused "a whole gate's report among the parts" "$root/variant" "the summary of a gate run without --shard I/N"
# A part's files come from a CI artifact: a link out of its folder is refused, even to a well-formed report.
variant && mv "$root/variant/2/summary.json" "$root/outside-summary.json" &&
  ln -s "$root/outside-summary.json" "$root/variant/2/summary.json"
refused "a part's summary.json linked outside its folder" "$root/variant" "leads outside the shard's report folder"
variant && mv "$root/variant/1/gtest-results" "$root/outside-results" &&
  ln -s "$root/outside-results" "$root/variant/1/gtest-results"
refused "a part's plans and records linked outside its folder" "$root/variant" "leads outside the shard's report folder"
variant && rm -rf "$root/variant/3" && shard 3 3 --filter 'Stride.*:Wide.*:Lone.*' && cp -R "$root/shards-3/3" "$root/variant/3"
refused "a part of another split" "$root/variant" "are parts of different splits"
shard 3 3  # back to the part of the whole catalogue
refused "an empty folder" "$root/ran" "no gate report (a folder with summary.json) at or below"

# 5. More runners than suites: the idle ones exit 2 and say why, and so does the merge.
for index in 1 2 3 4 5 6; do shard "$index" 6; done
expect_rc "shard 6 of 6 of five suites exits 2" 2
expect_in "it says the runner matrix is wider than the catalogue" "make it at most 5 wide" "$out"
check "it starts no measuring run" '[ -z "$measured_runs" ]' "$measured_runs"
expect_in "its summary.json says it had no suite" "([], 6, 6)" "$(json "$root/shards-6/6/summary.json" 'd["shard"]["suites"], d["shard"]["index"], d["shard"]["count"]')"
run "$tool" summary --shards "$root/shards-6" --baselines "$root/baselines"
expect_rc "the merge of six parts, one idle, exits 1 for the regression" 1
expect_in "the merge names the idle part" "shard 6 of 6 has no suite to run" "$out"
run "$tool" gate --shard 2/2 --filter 'Stride.*' --build "$build" --no-build
expect_rc "a filter that leaves one suite for two runners: the second exits 2" 2
expect_in "it says so" "the gate's 1 suite(s) (after --filter) leave 1 of its 2 runners idle" "$out"
run "$tool" record --shard 6/6 --build "$build" --no-build
expect_rc "record of an idle part exits 2" 2
expect_in "record says why" "shard 6 of 6 has no suite to run" "$out"

# 6. Recorded durations decide the split; a file that cannot be read is refused.
printf '{"tests": [{"name": "Lone.x", "seconds": 100, "properties": {}}]}\n' >"$root/durations.json"
for index in 1 2 3; do
  shard "$index" 3 --shard-durations "$root/durations.json"
  case $(json "$root/shards-3/$index/summary.json" '" ".join(d["shard"]["suites"])') in
    *Lone*) lone=$(json "$root/shards-3/$index/summary.json" '" ".join(d["shard"]["suites"])') ;;
  esac
done
expect_in "the plan says where its costs come from" "costs from the durations in $root/durations.json" "$out"
check "a suite recorded as long runs alone" '[ "$lone" = "Lone" ]' "the part with Lone: '$lone'"
echo 'not json' >"$root/bad.json"
run "$tool" gate --shard 1/3 --shard-durations "$root/bad.json" --build "$build" --no-build
expect_rc "an unreadable --shard-durations is refused (exit 3)" 3
expect_in "it names the option and the file" "--shard-durations: $root/bad.json is not JSON" "$out"

before=$(ls "$(gate_folder "$build")")
run "$tool" gate --shard 1/3 --ctest-arg=-E --ctest-arg=Stride --build "$build" --no-build
expect_rc "a --ctest-arg that selects tests is refused with --shard (exit 3)" 3
expect_in "it says why" "--ctest-arg -E selects tests, which is --filter's work" "$out"
run "$tool" gate --ctest-arg=-R --ctest-arg=Stride --build "$build" --no-build
expect_rc "... and without --shard too (exit 3): the command selects the tests with --filter" 3
expect_in "it names the argument" "--ctest-arg -R selects tests" "$out"
check "refusals come before the last run's reports are cleared" '[ "$(ls "$(gate_folder "$build")")" = "$before" ]'

# A copy is a read: a record the suite process left as a link out of its folder never reaches the gate's folder
# (the CI artifact) or its reports, and its test has no record.
printf '{"schema": "bankgate-test-result", "schema_version": 1, "suite": "Lone", "test": "x", "outcome": "passed", "seconds": 0.1, "messages": ["TOKEN-outside"], "properties": {}, "wrong_output": false, "findings": []}\n' >"$root/outside-record.json"
PLANT_RECORD_LINK="$root/outside-record.json" run "$tool" gate --build "$build" --no-build --baselines "$root/baselines"
check "a result record linked out of its folder is left out of the gate's folder and reports" \
  '! grep -rq TOKEN-outside "$(gate_folder "$build")" && [[ $out == *"Lone.x.result.json is left out"* ]]' "$out"
# Invented beside the attacks: a subfolder of the records that is a link to a folder outside, holding a record and a
# plan, is never walked into: nothing of it reaches the gate's folder.
mkdir -p "$root/outside-folder"
sed 's/TOKEN-outside/TOKEN-folder/' "$root/outside-record.json" >"$root/outside-folder/Lone.x.result.json"
printf '{"TOKEN-folder": 1}\n' >"$root/outside-folder/C.0.plan.json"
PLANT_FOLDER_LINK="$root/outside-folder" run "$tool" gate --build "$build" --no-build --baselines "$root/baselines"
check "a subfolder of the records linked out of it is not copied into the gate's folder or reports" \
  '! grep -rq TOKEN-folder "$(gate_folder "$build")" && [ -z "$(find "$(gate_folder "$build")" -path "*more*" -print -quit)" ]' "$out"

# 7. The command line.
for value in 0/3 4/3 a/b 3; do
  run "$tool" gate --shard "$value" --build "$build" --no-build
  expect_rc "--shard $value is a usage error (64)" 64
  expect_in "--shard $value: says what it takes" "got '$value'" "$out"
done
run "$tool" gate --shard-durations "$root/durations.json" --build "$build" --no-build
expect_rc "--shard-durations without --shard is a usage error" 64
run "$tool" summary --baselines "$root/baselines"
expect_rc "summary without --gtest-results or --shards is a usage error" 64
expect_in "it names both" "--gtest-results or --shards is required" "$out"
run "$tool" summary --shards "$root/shards-3" --gtest-results "$root/x"
expect_rc "summary with --gtest-results and --shards is a usage error" 64

finish
