#!/usr/bin/env bash
# bankgate run-suite and verdict on a suite whose second test kills its process (no GPU needed): the crash is
# charged to that test, every other test keeps its own verdict, and the rest run in a fresh process.
#   run_suite_test.sh BANKGATE CRASHING_SUITE
set -uo pipefail
bankgate=$1 suite=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-run-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0 checks=0
check() {
  checks=$((checks + 1))
  if eval "$2"; then echo "ok   - $1"; else echo "FAIL - $1"; failures=$((failures + 1)); fi
}
verdict() { "$bankgate" verdict --results "$work/results" --test "$1" >"$work/$1.out" 2>&1; echo $?; }

CRASHING_SUITE_CRASH=1 "$bankgate" run-suite --binary "$suite" --results "$work/results" >"$work/run.log" 2>&1
check "run-suite completes its job (exit 0) though a test crashed" "[ $? -eq 0 ]"
check "it needed two processes and says one test crashed" "grep -q '5 tests of crashing_suite in 2 process(es), 1 crashed' '$work/run.log'"
check "the test before the crash passed" "[ \$(verdict Crashing.First) -eq 0 ] && grep -q 'OK ] Crashing.First' '$work/Crashing.First.out'"
check "the crashing test failed, with the signal" "[ \$(verdict Crashing.Crashes) -eq 1 ] && grep -q 'died during this test (killed by signal 11' '$work/Crashing.Crashes.out'"
check "a plain failure after it is its own" "[ \$(verdict Crashing.Fails) -eq 1 ] && grep -q 'a plain failure' '$work/Crashing.Fails.out'"
check "a skip says SKIPPED with its reason" "[ \$(verdict Crashing.Skips) -eq 0 ] && grep -q 'SKIPPED ] Crashing.Skips' '$work/Crashing.Skips.out' && grep -q 'no GPU: a reason' '$work/Crashing.Skips.out'"
check "the last test ran in the fresh process and passed" "[ \$(verdict Crashing.Last) -eq 0 ]"
check "recorded properties reach the result file" "grep -q 'median_ns' '$work/results/Crashing.First.xml'"
check "an unknown test has no result and fails" "[ \$(verdict Crashing.Missing) -eq 1 ] && grep -q 'no result' '$work/Crashing.Missing.out'"

BANKGATE_SUITE_FILTER='Crashing.Last' "$bankgate" run-suite --binary "$suite" --results "$work/filtered" >"$work/filtered.log" 2>&1
check "BANKGATE_SUITE_FILTER runs only the selection" "[ -f '$work/filtered/Crashing.Last.xml' ] && [ ! -f '$work/filtered/Crashing.First.xml' ]"

"$bankgate" discover --binary "$suite" --results "$work/results" --out "$work/tests.cmake" --fixture bankgate.crashing --labels gpu --labels nightly >/dev/null 2>&1
check "discover writes one ctest entry per test, requiring the fixture, with every label" \
  "[ \$(grep -c '^add_test' '$work/tests.cmake') -eq 5 ] && grep -q 'FIXTURES_REQUIRED \[=\[bankgate.crashing\]=\] LABELS \[=\[gpu;nightly\]=\]' '$work/tests.cmake'"
"$bankgate" run-suite --binary "$work/none" --results "$work/x" >/dev/null 2>&1
check "a missing suite program is a set-up error (exit 3)" "[ $? -eq 3 ]"
"$bankgate" discover --binary /bin/false --results "$work/x" --out "$work/none.cmake" --fixture f >"$work/false.log" 2>&1
check "a program that cannot list its tests stops discovery (exit 3), never an empty list" "[ $? -eq 3 ] && [ ! -f '$work/none.cmake' ]"
echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
