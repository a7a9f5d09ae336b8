#!/usr/bin/env bash
# Reports and names come from whoever wrote the pull request under test: bankgate summary and verdict must
# survive hostile input files, and the command line must say plainly what is wrong with it. Each check performs
# the attack against the built command:
#   - invalid UTF-8 in a test's result record and in a plan: every report is still written;
#   - a FIFO or /dev/zero in a report's place (a plan, a record, verdict's result, --markdown): refused
#     at once, never waited on or read until memory runs out (each run under `timeout`, so a hang fails);
#   - terminal control characters in a test's name or message: shown escaped, never sent raw to the terminal;
#   - command-line mistakes (an empty --build, --rounds 0, -j x, an unknown subcommand): exit 64, named.
# (The README's markers in a baseline's text, and README FIFOs, are readme_table_test.sh's.)
#
#   tests/unit/report_inputs_test.sh PATH/TO/bankgate FIXTURE_DIR
#
# FIXTURE_DIR is tests/unit/fixtures/gate_summary. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail

tool=${1:?usage: report_inputs_test.sh PATH/TO/bankgate FIXTURE_DIR}
fixtures=${2:?usage: report_inputs_test.sh PATH/TO/bankgate FIXTURE_DIR}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-report-inputs.XXXXXX")
trap 'rm -rf "$root"' EXIT

. "$(dirname "$0")/test_lib.sh"
run_timeout=20
# has_bytes FILE "HEX HEX...": whether FILE holds that byte sequence (grep -P would depend on the locale).
has_bytes() { case " $(od -An -v -tx1 "$1" | tr -s ' \n' '  ') " in *" $2 "*) return 0 ;; *) return 1 ;; esac; }

cand="$root/candidates"
base="$root/baselines"
suite_file "$cand/sm_90/nvidia-h200/SquareTile/setRowReadColIpad.json" setRowReadColIpad 1024
suite_file "$base/sm_90/nvidia-h200/SquareTile.json" setRowReadColIpad 32

# ---------------------------------------------------------------------------------------------------------
# 1. Invalid UTF-8 in a failure message: the JSON dump threw, the JSON, JUnit and HTML reports were lost, the
#    run exited 2 claiming "nothing was written". The suite process now writes a message's bad bytes as U+FFFD
#    (test_result_test.cpp); a record that still holds some is no JSON, and is named as a problem of the run,
#    while every report is written and bankgate still judges the test's measurement itself.
reports="$root/utf8-reports"
cp -r "$fixtures/gtest-results" "$reports"
result_record "$reports/SquareTile.setRowReadColIpad.result.json" SquareTile setRowReadColIpad regressed \
  $'shared load transactions CHANGED \xff\xfe and cut short \xe2\x82'
out_dir="$root/utf8-out"
mkdir -p "$out_dir"
run "$tool" summary --gtest-results "$reports" --candidates "$cand" --baselines "$base" \
  --markdown "$out_dir/summary.md" --json "$out_dir/summary.json" --junit-out "$out_dir/junit.xml" --html "$out_dir/report.html"
expect_rc "invalid UTF-8 in a result record: the record is refused, bankgate's own comparison finds the regression (exit 1)" 1
expect_not_in "invalid UTF-8: no claim that nothing was written" "nothing was written" "$out"
for f in summary.md summary.json junit.xml report.html; do
  [ -s "$out_dir/$f" ] && pass "invalid UTF-8: $f is written" || fail "invalid UTF-8: $f is written" "$(ls -l "$out_dir")"
done
message=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); print(d["exit_code"], d["problems"])' \
  "$out_dir/summary.json" 2>&1)
expect_in "invalid UTF-8: the JSON names the record that was not read" "SquareTile.setRowReadColIpad.result.json is not a JSON object" "$message"
xml_ok=$(python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1]); print("parsed")' "$out_dir/junit.xml" 2>&1)
expect_in "invalid UTF-8: the JUnit report is well-formed XML" "parsed" "$xml_ok"
html_ok=$(python3 -c 'import sys; open(sys.argv[1], encoding="utf-8").read(); print("decoded")' "$out_dir/report.html" 2>&1)
expect_in "invalid UTF-8: the HTML report is UTF-8" "decoded" "$html_ok"

# The same in a plan: it is refused, named, and every report is still written.
utf8_plan="$root/utf8-plan"
mkdir -p "$utf8_plan"
printf '{"schema": "bankgate-test-plan", "schema_version": 1, "program": "p", "shard": 0, "filter": "", "tests": ["Bad\xffSuite.t\xc0\xafest"], "problem": ""}' \
  >"$utf8_plan/p.0.plan.json"
run "$tool" summary --gtest-results "$utf8_plan" --json "$root/utf8-plan.json" --junit-out "$root/utf8-plan-out.xml"
expect_rc "invalid UTF-8 in a plan: the run could not be measured (exit 2)" 2
expect_not_in "invalid UTF-8 in a plan: no claim that nothing was written" "nothing was written" "$out"
expect_in "invalid UTF-8 in a plan: the plan is named" "p.0.plan.json is not a JSON object" "$out"
[ -s "$root/utf8-plan-out.xml" ] && pass "invalid UTF-8 in a plan: the JUnit report is written" ||
  fail "invalid UTF-8 in a plan: the JUnit report is written"

# ---------------------------------------------------------------------------------------------------------
# 2. A FIFO or a device in a report's place: the readers waited on the FIFO forever and read /dev/zero until
#    memory ran out. Now each is refused at once and named.
mkfifo "$root/fifo.xml"
plans="$root/fifo-plans"
mkdir -p "$plans" && ln -s "$root/fifo.xml" "$plans/fifo.0.plan.json" && ln -s /dev/zero "$plans/zero.0.plan.json"
run "$tool" summary --gtest-results "$plans"
expect_rc "plans that are a FIFO and /dev/zero: refused at once, could not read (exit 2)" 2
expect_in "a FIFO plan: named" "fifo.0.plan.json" "$out"
expect_in "a /dev/zero plan: named" "zero.0.plan.json" "$out"

# Result records: a FIFO, a link to a FIFO and a link to /dev/zero among them are named, never waited on.
hostile="$root/hostile-reports"
cp -r "$fixtures/gtest-results" "$hostile"
mkfifo "$hostile/SquareTile.setRowReadRow.result.json.fifo"
rm "$hostile/Reverse.reverseShared.result.json" && mkfifo "$hostile/Reverse.reverseShared.result.json"
ln -s "$root/fifo.xml" "$hostile/Linked.fifo.result.json"
ln -s /dev/zero "$hostile/Linked.zero.result.json"
run "$tool" summary --gtest-results "$hostile"
expect_rc "--gtest-results with FIFOs and devices: the summary ends with the regression a record holds (exit 1)" 1
expect_in "--gtest-results with FIFOs and devices: the other records are still read" "1 (0000:3B:00.0)" "$out"
expect_in "--gtest-results with FIFOs and devices: the FIFO is named" "Reverse.reverseShared.result.json is not a regular file" "$out"

# verdict reads one test's result record: a FIFO or a link to /dev/zero there is an unreadable result.
results="$root/results"
mkdir -p "$results"
mkfifo "$results/Fifo.test.result.json"
ln -s /dev/zero "$results/Zero.test.result.json"
run "$tool" verdict --results "$results" --test Fifo.test
expect_rc "verdict on a FIFO result: fails at once (exit 1)" 1
expect_in "verdict on a FIFO result: says it is no regular file" "unreadable result: $results/Fifo.test.result.json: is not a regular file" "$out"
run "$tool" verdict --results "$results" --test Zero.test
expect_rc "verdict on a link to /dev/zero: fails at once (exit 1)" 1
expect_in "verdict on a link to /dev/zero: says it leads out of the results folder, unread" "leads outside the results folder" "$out"

# --markdown is appended to: opening a FIFO for writing waited for a reader. Now refused, the rest written.
mkfifo "$root/summary-fifo.md"
run "$tool" summary --gtest-results "$fixtures/gtest-results" --markdown "$root/summary-fifo.md" \
  --json "$root/fifo-run.json"
expect_rc "--markdown FIFO: refused at once (exit 1, the run's regression)" 1
expect_in "--markdown FIFO: the message says the markdown was not written and why" \
  "the markdown summary was not written: $root/summary-fifo.md: is not a regular file" "$out"
[ -s "$root/fifo-run.json" ] && pass "--markdown FIFO: the JSON summary is still written" ||
  fail "--markdown FIFO: the JSON summary is still written"
[ -p "$root/summary-fifo.md" ] && pass "--markdown FIFO: the FIFO is left in place" || fail "--markdown FIFO: the FIFO is left in place"
# With a reader on the FIFO the open succeeds; the file is still refused before a byte is written.
exec 3<>"$root/summary-fifo.md"
run "$tool" summary --gtest-results "$fixtures/gtest-results" --markdown "$root/summary-fifo.md"
expect_in "--markdown FIFO with a reader: refused as well" "is not a regular file" "$out"
exec 3>&-
run "$tool" summary --gtest-results "$fixtures/gtest-results" --markdown /dev/null
expect_in "--markdown on a device: refused" "/dev/null: is not a regular file" "$out"
# A passing run whose markdown cannot be written does not pass.
pass_run="$root/passed-run"
test_plan "$pass_run" fixture_suite SquareTile.setRowReadRow && cp "$fixtures/gtest-results/SquareTile.setRowReadRow.result.json" "$pass_run"
judged=(--candidates "$fixtures/candidates" --baselines "$fixtures/baselines")
run "$tool" summary --gtest-results "$pass_run" "${judged[@]}" --markdown "$root/summary-fifo.md"
expect_rc "--markdown FIFO on an all-passed run: exit 2, a report asked for is missing" 2
run "$tool" summary --gtest-results "$pass_run" "${judged[@]}" --markdown "$root/passed.md"
expect_rc "an all-passed run with a writable --markdown: exit 0" 0
expect_in "the markdown is written" "bankgate gate passed" "$(cat "$root/passed.md" 2>/dev/null)"

# ---------------------------------------------------------------------------------------------------------
# 3. Control characters in a name or message reached the terminal raw (ESC [2J clears it; CR overwrites a
#    line; U+009B is a one-character CSI). Now they are shown escaped, in the console and in the markdown.
# Raw bytes where JSON allows them (U+009B, DEL) and escapes where it does not (ESC, BEL, CR).
control="$root/control-reports"
result_record "$control/"$'Evil.test\x1b]0;title\x07'".result.json" Evil 'test\u001b]0;title\u0007' not_measured \
  $'\\u001b[2Jwiped\xc2\x9b31mred\\rover\x7fdel'
test_plan "$control" evil $'Evil.test\x1b]0;title\x07'
timeout 20 "$tool" summary --gtest-results "$control" --markdown "$root/control.md" \
  >"$root/control.out" 2>&1
rc=$?
out=$(cat "$root/control.out")
expect_rc "control characters: the summary runs (exit 2, not measured)" 2
has_bytes "$root/control.out" 1b && fail "control characters: no raw ESC in the console output" "$(od -c "$root/control.out" | head -20)" ||
  pass "control characters: no raw ESC in the console output"
has_bytes "$root/control.out" 07 && fail "control characters: no raw BEL in the console output" || pass "control characters: no raw BEL in the console output"
has_bytes "$root/control.out" 0d && fail "control characters: no raw CR in the console output" || pass "control characters: no raw CR in the console output"
has_bytes "$root/control.out" "c2 9b" && fail "control characters: no C1 CSI in the console output" || pass "control characters: no C1 CSI in the console output"
expect_in "control characters: the name is shown with the escape visible" 'Evil.test\x1b]0;title\x07' "$out"
expect_in "control characters: the message is shown with the escapes visible" '\x1b[2Jwiped\x9b31mred\x0dover\x7fdel' "$out"
has_bytes "$root/control.md" 1b && fail "control characters: no raw ESC in the markdown" || pass "control characters: no raw ESC in the markdown"

# ---------------------------------------------------------------------------------------------------------
# 4. The command line: mistakes are usage errors (exit 64) that name the option and what it takes.
run "$tool" gate --build ''
expect_rc "gate --build '': a usage error (exit 64)" 64
expect_in "gate --build '': names the option" "--build: must name a folder, got an empty string" "$out"
run "$tool" review --build ''
expect_rc "review --build '': a usage error (exit 64)" 64
run "$tool" summary --gtest-results "$fixtures/gtest-results" --build ''
expect_rc "summary --build '': a usage error (exit 64)" 64
expect_in "summary --build '': names the option" "--build: must name a folder" "$out"
run "$tool" compare --base "$root" --head "$root" --rounds 0
expect_rc "compare --rounds 0: a usage error (exit 64)" 64
expect_in "compare --rounds 0: says what it takes" "--rounds: must be a whole number of at least 1, got '0'" "$out"
expect_not_in "compare --rounds 0: no 309-digit range" "179769313486231570" "$out"
run "$tool" compare --base "$root" --head "$root" --rounds 1.5
expect_rc "compare --rounds 1.5: a usage error (exit 64)" 64
expect_in "compare --rounds 1.5: says what it takes" "must be a whole number of at least 1, got '1.5'" "$out"
run "$tool" gate -j x
expect_rc "gate -j x: a usage error (exit 64)" 64
expect_in "gate -j x: says what it takes" "--parallel: must be a whole number of at least 0, got 'x'" "$out"
expect_not_in "gate -j x: no 309-digit range" "179769313486231570" "$out"
run "$tool" run-suite --binary x --results y --shards 0
expect_rc "run-suite --shards 0: a usage error (exit 64)" 64
expect_in "run-suite --shards 0: gives the range" "--shards: must be a whole number from 1 to 1024, got '0'" "$out"
run "$tool" frobnicate
expect_rc "an unknown subcommand: a usage error (exit 64)" 64
expect_in "an unknown subcommand is named" "unknown subcommand 'frobnicate'" "$out"
expect_in "an unknown subcommand: the subcommands are listed" "gate, record, review, promote, refresh, compare, compare-commits, summary" "$out"
run "$tool" table --help
expect_rc "an alias is a known subcommand (table: review)" 0
run "$tool"
expect_rc "no subcommand: a usage error (exit 64)" 64

finish
