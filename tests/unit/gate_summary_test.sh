#!/usr/bin/env bash
# The gate's verdict without a GPU: bankgate summary on fixture plans and records (a run that could not measure,
# a regression, an all-passed run, a run in which no GPU test ran, forged records) and ci/gate.sh itself, which
# must refuse to pass when no GPU test ran. bankgate judges each planned test itself, from its candidate against
# its baseline; a record can make that verdict worse, never better, and a record that contradicts itself, names
# another test or has a twin is refused.
#
#   tests/unit/gate_summary_test.sh PATH/TO/bankgate FIXTURE_DIR BUILD_DIR
#
# FIXTURE_DIR is tests/unit/fixtures/gate_summary (a plan and result records); BUILD_DIR
# the build ci/gate.sh --no-build runs from. Prints "N passed, M failed"; exits non-zero if any check failed.
set -uo pipefail

tool=${1:?usage: gate_summary_test.sh PATH/TO/bankgate FIXTURE_DIR BUILD_DIR}
fixtures=${2:?usage: gate_summary_test.sh PATH/TO/bankgate FIXTURE_DIR BUILD_DIR}
build_dir=${3:?usage: gate_summary_test.sh PATH/TO/bankgate FIXTURE_DIR BUILD_DIR}
repo=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-gate-summary.XXXXXX")
trap 'rm -rf "$root"' EXIT

. "$(dirname "$0")/test_lib.sh"

reports="$fixtures/gtest-results"  # the plan of six tests and five records (PaddedCopy.copy left none)

# Failed tests without measurements: could not measure (2), never a pass. Without the regressed test's record,
# its plan entry is all there is of it: a planned test that left no record could not measure either.
md="$root/summary.md"
echo "earlier step's summary" >"$md"
unmeasured="$root/unmeasured-records"
cp -r "$reports" "$unmeasured" && rm "$unmeasured/SquareTile.setRowReadColIpad.result.json"
run "$tool" gate-summary --gtest-results "$unmeasured" --markdown "$md"
expect_rc "failures without measurements exit 2 (could not measure)" 2
expect_in "the table shows the skipped test" "SKIPPED" "$out"
expect_in "the table names the device a test measured on" "0 (0000:19:00.0)" "$out"
expect_in "a test that left no record is explained" "it was planned, but left no result record" "$(tr -s ' \n' '  ' <<<"$out")"
# The console table keeps within 100 columns: the detail column goes on over continuation lines, whole, where
# it used to be cut at 100 characters with "..." (the table was 162 columns wide).
widest=$(printf '%s\n' "$out" | python3 -c 'import sys; print(max(len(l) for l in sys.stdin.buffer.read().decode("utf-8").splitlines()))')
check "the console table keeps within 100 columns" '[ "$widest" -le 100 ]' "its widest line has $widest:"$'\n'"$out"
flat=$(printf '%s\n' "$out" | tr -s ' \n' '  ')
expect_in "a long reason is wrapped whole, not cut" "cannot measure: counter access is restricted to administrators \
(ERR_NVGPUCTRPERM) | see the README [BANKGATE_REQUIRE_GPU=1 makes this a failure instead of a skip]" "$flat"
expect_in "a record's pass that bankgate cannot judge is no pass" "bankgate has no measurement and baseline of it to judge" "$flat"
expect_not_in "no reason is cut short" "..." "$out"
[ "$(head -n 1 "$md")" = "earlier step's summary" ] && pass "the markdown is appended, earlier content kept" ||
  fail "the markdown is appended, earlier content kept" "$(head -n 3 "$md")"
expect_in "the markdown has a failures section" "### Failures" "$(cat "$md")"
expect_in "a missing baseline names the refresh command" "refresh --filter 'Transpose.unrecorded'" "$(cat "$md")"

# A test whose candidate differs from its baseline: a regression (1), listed first with measured and baseline.
cand="$root/candidates"
base="$root/baselines"
suite_file "$cand/sm_90/nvidia-h200/SquareTile/setRowReadColIpad.json" setRowReadColIpad 1024
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 32
md="$root/regression.md"
run "$tool" gate-summary --gtest-results "$reports" --candidates "$cand" --baselines "$base" --markdown "$md" \
  --build "$root/project-build" --json "$root/summary.json" --junit-out "$root/junit-out.xml"
expect_rc "a measured change against a baseline exits 1 (regression)" 1
expect_in "the table marks the regression" "REGRESSED" "$out"
expect_in "the table names the device the regression measured on" "1 (0000:3B:00.0)" "$out"
first=$(grep -m 1 '^#### ' "$md")
expect_in "the regression is the first failure in the markdown" "setRowReadColIpad" "$first"
expect_in "the markdown gives the measured value" "1024" "$(cat "$md")"
expect_in "the markdown gives the project's refresh command" "$tool refresh --build $root/project-build --filter 'SquareTile.setRowReadColIpad'" "$(cat "$md")"
# Tools read the verdict from JSON, never from the console table.
verdict=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[2]); from bankgate_outputs import read_summary; d=read_summary(sys.argv[1]); t={x["name"]: x for x in d["tests"]}; r=t["SquareTile.setRowReadColIpad"]; print(d["exit_code"], r["outcome"], r["changes"][0]["measured"], r["changes"][0]["baseline"])' "$root/summary.json" "$repo/tools" 2>&1)
expect_in "the JSON summary gives the verdict and the changed counter, as numbers" "1 regressed 1024 32" "$verdict"
# CI front ends show a JUnit failure's message: it must say what regressed, not just "Failed".
message=$(python3 -c 'import sys, xml.etree.ElementTree as E; r=E.parse(sys.argv[1]).getroot(); print([f.get("message") for c in r.iter("testcase") if c.get("name")=="setRowReadColIpad" for f in c.iter("failure")][0])' "$root/junit-out.xml" 2>&1)
expect_in "the JUnit failure message names the regressed counter and both values" "shared load transactions CHANGED: 1024 (baseline 32" "$message"

# The suite process's failure is kept: against a baseline equal to the measurement, or with nothing to judge by,
# the test its record says regressed still regressed (a record can make a verdict worse, never better).
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 1024
run "$tool" gate-summary --gtest-results "$reports" --candidates "$cand" --baselines "$base" --json "$root/same.json"
expect_rc "the record's regression stands against a baseline equal to the measurement (exit 1)" 1
run "$tool" gate-summary --gtest-results "$reports" --json "$root/bare.json"
expect_rc "the record's regression stands without candidates or baselines (exit 1)" 1
verdict=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[2]); from bankgate_outputs import read_summary; d=read_summary(sys.argv[1]); t={x["name"]: x for x in d["tests"]}; r=t["SquareTile.setRowReadColIpad"]; print(r["outcome"], r["changes"][0]["measured"], r["changes"][0]["baseline"])' "$root/bare.json" "$repo/tools" 2>&1)
expect_in "with nothing to judge by, its changes are the record's findings" "regressed 1024 32" "$verdict"

# Every test passed: 0, where bankgate judged each from its candidate and baseline.
pass_run="$root/passed"
test_plan "$pass_run" fixture_suite SquareTile.setRowReadRow && cp "$reports/SquareTile.setRowReadRow.result.json" "$pass_run"
passing_measurements "$root/pass-cand" "$root/pass-base" SquareTile.setRowReadRow
run "$tool" gate-summary --gtest-results "$pass_run" --candidates "$root/pass-cand" --baselines "$root/pass-base"
expect_rc "an all-passed run exits 0" 0

# JUnit is an output only. A run laid out as a gate leaves it (its ctest's JUnit report beside the copied plans and
# records in gtest-results/, and one more inside that folder), summarised into a reports folder; then ctest's JUnit
# is deleted and the same run summarised again: every report (junit.xml, summary.json, summary.md, report.html) is
# the same, byte for byte, but for the time each was made. The ctest report says the opposite of the records (the
# passed test failed, the regressed one passed), so a summary that read it could not come out the same.
# same_reports A B: what differs between the files of two reports folders, each folder's creation time (its
# summary.json's provenance.created, which JUnit writes without its zone) masked; nothing where they agree.
same_reports() {
  python3 - "$1" "$2" <<'PY'
import json, os, sys
def reports(folder):
    created = json.load(open(os.path.join(folder, "summary.json")))["provenance"]["created"]
    files = {}
    for at, _, names in os.walk(folder):
        for name in names:
            data = open(os.path.join(at, name), "rb").read()
            for stamp in (created, created.rstrip("Z")):
                data = data.replace(stamp.encode(), b"<created>")
            files[os.path.relpath(os.path.join(at, name), folder)] = data
    return files
a, b = reports(sys.argv[1]), reports(sys.argv[2])
for name in ("junit.xml", "summary.json", "summary.md", "report.html"):
    if name not in a: print("no", name, "written")
if sorted(a) != sorted(b): print("other files:", sorted(a), sorted(b))
for name in sorted(set(a) & set(b)):
    if a[name] != b[name]: print(name, "differs")
PY
}
# without_ctest_junit NAME RUN SUMMARY-ARGS...: summarises RUN (a gate's run folder) with and without ctest's JUnit.
without_ctest_junit() {
  local name=$1 at=$2 with_rc
  shift 2
  printf '<testsuite><testcase name="SquareTile.setRowReadRow" status="fail"><failure/></testcase>%s</testsuite>\n' \
    '<testcase name="SquareTile.setRowReadColIpad" status="run"/>' | tee "$at/ctest-junit.xml" >"$at/gtest-results/ctest-junit.xml"
  run "$tool" gate-summary --gtest-results "$at/gtest-results" "$@" --reports "$at/with-junit"
  with_rc=$rc
  rm "$at/ctest-junit.xml" "$at/gtest-results/ctest-junit.xml"
  run "$tool" gate-summary --gtest-results "$at/gtest-results" "$@" --reports "$at/without-junit"
  local differences
  differences=$(same_reports "$at/with-junit" "$at/without-junit" 2>&1)
  check "$name: deleting ctest's JUnit report changes no report" '[ -z "$differences" ] && [ "$with_rc" -eq "$rc" ]' \
    "exit $with_rc with it, $rc without; $differences"
}
mkdir -p "$root/passed-gate" && cp -r "$pass_run" "$root/passed-gate/gtest-results"
without_ctest_junit "a passed run" "$root/passed-gate" --candidates "$root/pass-cand" --baselines "$root/pass-base"
expect_rc "a passed run without ctest's JUnit still exits 0" 0
mkdir -p "$root/regressed-gate" && cp -r "$reports" "$root/regressed-gate/gtest-results"
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 32
without_ctest_junit "a regressed run" "$root/regressed-gate" --candidates "$cand" --baselines "$base"
expect_rc "a regressed run without ctest's JUnit still exits 1" 1
# The plan says the test ran, but it left no record: never a pass, whatever else says it ran.
mkdir -p "$root/no-records" && cp "$pass_run"/*.plan.json "$root/no-records"
run "$tool" gate-summary --gtest-results "$root/no-records" --candidates "$root/pass-cand" --baselines "$root/pass-base"
expect_rc "a planned test that left no record is not measured (exit 2), never passed" 2
expect_in "and the table says why" "left no result record" "$(tr -s ' \n' '  ' <<<"$out")"

# Forged records: each fails the gate or is refused.
forged="$root/forged"
forge() {  # forge NAME OUTCOME WRONG_OUTPUT FINDING_VERDICT [SUITE.TEST]: a record in $forged, named for NAME
  local who=${5:-$1}
  python3 -c 'import json, sys; name, outcome, wrong, verdict, who = sys.argv[2:7]; suite, test = who.split(".", 1)
f = [{"metric": "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "timing": False, "measured": 1024,
      "baseline": 32, "change": 31, "tolerance": "exact", "verdict": verdict, "detail": ""}] if verdict else []
json.dump({"schema": "bankgate-test-result", "schema_version": 1, "suite": suite, "test": test, "outcome": outcome,
           "seconds": 0.1, "messages": [], "properties": {}, "wrong_output": wrong == "true", "findings": f},
          open(sys.argv[1] + "/" + name + ".result.json", "w"))' "$forged" "$1" "$2" "$3" "$4" "$who"
}
reset_forged() { rm -rf "$forged" && test_plan "$forged" fixture_suite SquareTile.setRowReadRow; }
reset_forged && forge SquareTile.setRowReadRow passed true counter_changed
suite_file "$root/forged-cand/sm_90/nvidia-h200/SquareTile/setRowReadRow.json" setRowReadRow 1024
suite_file "$root/forged-base/sm_90/nvidia-h200/SquareTile.json" setRowReadRow 32
run "$tool" gate-summary --gtest-results "$forged" --candidates "$root/forged-cand" --baselines "$root/forged-base" \
  --json "$root/forged.json"
expect_rc "a passed record beside its own counter_changed finding and wrong output: bankgate's judgement fails it (1)" 1
expect_in "the record is refused, and says why" "says the test passed beside its own wrong output" \
  "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tests"][0]["reason"])' "$root/forged.json" 2>&1)"
run "$tool" gate-summary --gtest-results "$forged"
expect_rc "the same forged record with nothing to judge by: refused, not measured (2)" 2
reset_forged && forge SquareTile.setRowReadRow passed false "" Other.test
run "$tool" gate-summary --gtest-results "$forged" --candidates "$root/pass-cand" --baselines "$root/pass-base"
expect_rc "another test's passed record in the test's file is refused (2)" 2
expect_in "it names the test it is of" "it is the record of Other.test, not of SquareTile.setRowReadRow" "$(tr -s ' \n' '  ' <<<"$out")"
run "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_rc "verdict refuses it too (1)" 1
expect_not_in "verdict never prints OK for it" "[       OK ]" "$out"
for copy in Copy.of.it sub/SquareTile.setRowReadRow; do
  reset_forged && mkdir -p "$forged/sub" && forge SquareTile.setRowReadRow passed false ""
  forge "$copy" passed false "" SquareTile.setRowReadRow
  run "$tool" gate-summary --gtest-results "$forged" --candidates "$root/pass-cand" --baselines "$root/pass-base"
  expect_rc "a second record of the test ($copy) is refused, not chosen (2)" 2
  expect_in "it names both files ($copy)" "more than one result record names this test" "$(tr -s ' \n' '  ' <<<"$out")"
done
# A skip is the record's field: a failure whose message imitates ctest's skip text is a failure.
reset_forged && result_record "$forged/SquareTile.setRowReadRow.result.json" SquareTile setRowReadRow regressed \
  '[  SKIPPED ] SquareTile.setRowReadRow'
run "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_rc "verdict fails a failure whose message says [  SKIPPED ] (1, not the skip code)" 1
run "$tool" gate-summary --gtest-results "$forged"
expect_rc "and the summary counts it a regression (1)" 1
result_record "$forged/SquareTile.setRowReadRow.result.json" SquareTile setRowReadRow skipped 'no GPU'
run "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_rc "a skipped record: verdict exits with the skip code ctest's SKIP_RETURN_CODE names (77)" 77

# A verdict step of the command's run judges with the BANKGATE_FAIL_ON_SPEEDUP of the run manifest (the command
# writes its own there), whatever ctest's environment says; by hand, without a manifest, the variable decides. A
# record that says passed beside a faster finding contradicts itself only where a speedup fails.
reset_forged && forge SquareTile.setRowReadRow passed false faster
contradicts="passed beside its own failing finding"
printf '{"version": 1, "fail_on_speedup": true}' >"$root/strict-manifest.json"
printf '{"version": 1, "fail_on_speedup": false}' >"$root/lenient-manifest.json"
run env BANKGATE_RUN_MANIFEST="$root/strict-manifest.json" BANKGATE_FAIL_ON_SPEEDUP=0 \
  "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_in "verdict fails a speedup where the manifest says so, though its environment does not" "$contradicts" "$out"
run env BANKGATE_RUN_MANIFEST="$root/lenient-manifest.json" BANKGATE_FAIL_ON_SPEEDUP=1 \
  "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_not_in "verdict lets a speedup be where the manifest says so, though its environment does not" "$contradicts" "$out"
run env -u BANKGATE_RUN_MANIFEST BANKGATE_FAIL_ON_SPEEDUP=1 \
  "$tool" verdict --results "$forged" --test SquareTile.setRowReadRow
expect_in "verdict run by hand, without a manifest, follows BANKGATE_FAIL_ON_SPEEDUP" "$contradicts" "$out"

# No test at all, and no results at all: never a pass.
test_plan "$root/empty" fixture_suite
run "$tool" gate-summary --gtest-results "$root/empty"
expect_rc "a run without GPU tests exits 2" 2
expect_in "it says that no GPU test ran" "no GPU test ran" "$out"
run "$tool" gate-summary --gtest-results "$root/no-such"
expect_rc "a missing results folder exits 2" 2
expect_in "the missing folder is named" "no-such" "$out"

# A result record nested 200000 levels deep: refused as a record, not a crash.
mkdir -p "$root/deep-records"
python3 -c 'import sys; n=200000; open(sys.argv[1], "w").write("[" * n + "]" * n)' "$root/deep-records/Deep.test.result.json"
run "$tool" gate-summary --gtest-results "$root/deep-records"
expect_rc "a deeply nested result record exits 2 instead of crashing" 2
expect_in "it names the record" "Deep.test.result.json is not a JSON object" "$out"

# ci/gate.sh on a filter that selects no GPU test: it must fail (2), whatever the machine has.
run env BANKGATE_BUILD_DIR="$build_dir" BANKGATE_FILTER='NoSuch.test' GITHUB_STEP_SUMMARY="$root/step.md" \
  bash "$repo/ci/gate.sh" --no-build
expect_rc "ci/gate.sh refuses to pass when no GPU test ran (exit 2)" 2
expect_in "ci/gate.sh says why" "no GPU test ran" "$out"
expect_in "ci/gate.sh appends its summary to GITHUB_STEP_SUMMARY" "no GPU test ran" "$(cat "$root/step.md" 2>/dev/null)"

finish
