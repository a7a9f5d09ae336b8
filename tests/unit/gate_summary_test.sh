#!/usr/bin/env bash
# The gate's verdict without a GPU: bankgate summary on fixture reports (a run that could not measure, a
# regression, an all-passed run, a run in which no GPU test ran, a missing report) and ci/gate.sh itself, which
# must refuse to pass when no GPU test ran. Each test's outcome and findings are its result record's: the summary
# compares nothing again.
#
#   tests/unit/gate_summary_test.sh PATH/TO/bankgate FIXTURE_DIR BUILD_DIR
#
# FIXTURE_DIR is tests/unit/fixtures/gate_summary (JUnit as ctest writes it, result records); BUILD_DIR
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

junit="$fixtures/gate-junit.xml"
reports="$fixtures/gtest-results"

# Failed tests without measurements: could not measure (2), never a pass. Without the regressed test's record,
# ctest's report is all there is of it: a failure that left no record could not measure either.
md="$root/summary.md"
echo "earlier step's summary" >"$md"
unmeasured="$root/unmeasured-records"
cp -r "$reports" "$unmeasured" && rm "$unmeasured/SquareTile.setRowReadColIpad.result.json"
run "$tool" gate-summary --junit "$junit" --gtest-results "$unmeasured" --markdown "$md"
expect_rc "failures without measurements exit 2 (could not measure)" 2
expect_in "the table shows the skipped test" "SKIPPED" "$out"
expect_in "the table names the device a test measured on" "0 (0000:19:00.0)" "$out"
expect_in "a test that left no record is explained" "no result record for this test" "$out"
# The console table keeps within 100 columns: the detail column goes on over continuation lines, whole, where
# it used to be cut at 100 characters with "..." (the table was 162 columns wide).
widest=$(printf '%s\n' "$out" | python3 -c 'import sys; print(max(len(l) for l in sys.stdin.buffer.read().decode("utf-8").splitlines()))')
check "the console table keeps within 100 columns" '[ "$widest" -le 100 ]' "its widest line has $widest:"$'\n'"$out"
flat=$(printf '%s\n' "$out" | tr -s ' \n' '  ')
expect_in "a long reason is wrapped whole, not cut" "cannot measure: counter access is restricted to administrators \
(ERR_NVGPUCTRPERM) | see the README [BANKGATE_REQUIRE_GPU=1 makes this a failure instead of a skip]" "$flat"
expect_in "a crash's reason is wrapped whole" "its output is in the JUnit file" "$flat"
expect_not_in "no reason is cut short" "..." "$out"
[ "$(head -n 1 "$md")" = "earlier step's summary" ] && pass "the markdown is appended, earlier content kept" ||
  fail "the markdown is appended, earlier content kept" "$(head -n 3 "$md")"
expect_in "the markdown has a failures section" "### Failures" "$(cat "$md")"
expect_in "a missing baseline names the refresh command" "refresh --filter 'Transpose.unrecorded'" "$(cat "$md")"

# A test whose record says it regressed: a regression (1), listed first with measured and baseline.
cand="$root/candidates"
base="$root/baselines"
suite_file "$cand/sm_90/nvidia-h200/SquareTile/setRowReadColIpad.json" setRowReadColIpad 1024
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 32
md="$root/regression.md"
run "$tool" gate-summary --junit "$junit" --gtest-results "$reports" --candidates "$cand" --baselines "$base" --markdown "$md" \
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

# The record's findings are the verdict: a baseline that now equals the measurement changes nothing (the summary
# does not compare again), and without candidates or baselines the regression is still one.
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 1024
run "$tool" gate-summary --junit "$junit" --gtest-results "$reports" --candidates "$cand" --baselines "$base" --json "$root/same.json"
expect_rc "the record's regression stands against a baseline equal to the measurement (exit 1)" 1
run "$tool" gate-summary --junit "$junit" --gtest-results "$reports" --json "$root/bare.json"
expect_rc "the record's regression stands without candidates or baselines (exit 1)" 1
verdict=$(python3 -B -c 'import sys; sys.path.insert(0, sys.argv[2]); from bankgate_outputs import read_summary; d=read_summary(sys.argv[1]); t={x["name"]: x for x in d["tests"]}; r=t["SquareTile.setRowReadColIpad"]; print(r["outcome"], r["changes"][0]["measured"], r["changes"][0]["baseline"])' "$root/bare.json" "$repo/tools" 2>&1)
expect_in "its changes are the record's findings" "regressed 1024 32" "$verdict"

# Every test passed: 0.
sed -n '1,/<\/testcase>/p' "$junit" | sed 's/tests="6"/tests="1"/; s/failures="4"/failures="0"/; s/skipped="1"/skipped="0"/' >"$root/passed.xml"
echo '</testsuite>' >>"$root/passed.xml"
run "$tool" gate-summary --junit "$root/passed.xml" --gtest-results "$reports"
expect_rc "an all-passed run exits 0" 0
# ctest says the test ran and passed, but it left no result record: never a pass.
mkdir -p "$root/no-records"
run "$tool" gate-summary --junit "$root/passed.xml" --gtest-results "$root/no-records"
expect_rc "a test ctest ran that left no record is not measured (exit 2), never passed" 2
expect_in "and the table says why" "left no result record" "$(tr -s ' \n' '  ' <<<"$out")"

# No test at all, and no report at all: never a pass.
printf '<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="(empty)" tests="0" failures="0" disabled="0" skipped="0">\n</testsuite>\n' >"$root/empty.xml"
run "$tool" gate-summary --junit "$root/empty.xml"
expect_rc "a run without GPU tests exits 2" 2
expect_in "it says that no GPU test ran" "no GPU test ran" "$out"
run "$tool" gate-summary --junit "$root/no-such.xml"
expect_rc "a missing JUnit report exits 2" 2
expect_in "the missing report is named" "no-such.xml" "$out"

# A report nested 200000 levels deep crashed the reader (recursion without a limit): now a clear refusal.
python3 -c 'import sys; n=200000; open(sys.argv[1], "w").write("<a>" * n + "</a>" * n)' "$root/deep.xml"
run "$tool" gate-summary --junit "$root/deep.xml"
expect_rc "a deeply nested JUnit file exits 2 instead of crashing" 2
expect_in "it says why" "nested deeper than 64 levels" "$out"
# A result record nested as deep: refused as a record, not a crash.
mkdir -p "$root/deep-records"
python3 -c 'import sys; n=200000; open(sys.argv[1], "w").write("[" * n + "]" * n)' "$root/deep-records/Deep.test.result.json"
run "$tool" gate-summary --junit "$junit" --gtest-results "$root/deep-records"
expect_rc "a deeply nested result record exits 2 instead of crashing" 2
expect_in "it names the record" "Deep.test.result.json is not a JSON object" "$out"

# ci/gate.sh on a filter that selects no GPU test: it must fail (2), whatever the machine has.
run env BANKGATE_BUILD_DIR="$build_dir" BANKGATE_CTEST_ARGS='-R ^bankgate_no_such_test$' GITHUB_STEP_SUMMARY="$root/step.md" \
  bash "$repo/ci/gate.sh" --no-build
expect_rc "ci/gate.sh refuses to pass when no GPU test ran (exit 2)" 2
expect_in "ci/gate.sh says why" "no GPU test ran" "$out"
expect_in "ci/gate.sh appends its summary to GITHUB_STEP_SUMMARY" "no GPU test ran" "$(cat "$root/step.md" 2>/dev/null)"

finish
