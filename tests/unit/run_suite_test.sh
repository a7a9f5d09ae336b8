#!/usr/bin/env bash
# bankgate run-suite and verdict on a suite whose second test kills its process (no GPU needed): the crash is
# charged to that test, every other test keeps its own verdict, and the rest run in a fresh process.
#   run_suite_test.sh BANKGATE CRASHING_SUITE
set -uo pipefail
bankgate=$1 suite=$2
unset BANKGATE_RUN_MANIFEST  # plain runs first: the command names one for its runs
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-run-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0 checks=0
check() {
  checks=$((checks + 1))
  if eval "$2"; then echo "ok   - $1"; else echo "FAIL - $1"; failures=$((failures + 1)); fi
}
verdict() { "$bankgate" verdict --results "$work/results" --test "$1" >"$work/$1.out" 2>&1; echo $?; }
# manifest NAME JSON-FIELDS: a run manifest as the command writes one for its ctest run; prints its path.
manifest() { printf '{"version": 1, %s}\n' "$2" >"$work/$1.manifest.json"; echo "$work/$1.manifest.json"; }
only_last=$(manifest only-last '"suite_filter": "Crashing.Last"')

CRASHING_SUITE_CRASH=1 "$bankgate" run-suite --binary "$suite" --results "$work/results" >"$work/run.log" 2>&1
check "run-suite completes its job (exit 0) though a test crashed" "[ $? -eq 0 ]"
check "it needed two processes and says one test crashed" "grep -q '5 tests of crashing_suite in 2 process(es), 1 crashed' '$work/run.log'"
check "run-suite wrote its plan before the tests: the suite's 5 tests" \
  "python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))[\"tests\"]) != 5)' '$work/results/crashing_suite.0.plan.json'"
check "the test before the crash kept its own record, passed" "grep -q '\"outcome\": \"passed\"' '$work/results/Crashing.First.result.json'"
# The hops docs/developing.md counts ("From a kernel to a verdict"): what crosses from run-suite and the suite
# processes to the judgement is one plan per suite and one record per test, and nothing else but their own
# (dot-named) manifests and running files.
check "the results folder holds one plan and one record per test, nothing else" \
  "[ \"\$(ls '$work/results' | sort | tr '\n' ' ')\" = 'Crashing.Crashes.result.json Crashing.Fails.result.json Crashing.First.result.json Crashing.Last.result.json Crashing.Skips.result.json crashing_suite.0.plan.json ' ]"
check "but with no measurement for bankgate to judge, its verdict is no pass" \
  "[ \$(verdict Crashing.First) -eq 1 ] && grep -q 'no measurement and baseline of it to judge' '$work/Crashing.First.out'"
check "the crashing test failed, with the signal" "[ \$(verdict Crashing.Crashes) -eq 1 ] && grep -q 'died during this test (killed by signal 11' '$work/Crashing.Crashes.out'"
check "a plain failure after it is its own" "[ \$(verdict Crashing.Fails) -eq 1 ] && grep -q 'a plain failure' '$work/Crashing.Fails.out'"
check "a skip says SKIPPED with its reason, by the skip exit code" "[ \$(verdict Crashing.Skips) -eq 77 ] && grep -q 'SKIPPED ] Crashing.Skips' '$work/Crashing.Skips.out' && grep -q 'no GPU: a reason' '$work/Crashing.Skips.out'"
check "the last test ran in the fresh process and passed" "grep -q '\"outcome\": \"passed\"' '$work/results/Crashing.Last.result.json'"
check "recorded properties reach the result file" "grep -q 'median_ns' '$work/results/Crashing.First.result.json'"
check "an unknown test has no result and fails" "[ \$(verdict Crashing.Missing) -eq 1 ] && grep -q 'no result' '$work/Crashing.Missing.out'"

# A suite process whose exit is slow (a GPU suite's driver releasing its context) has handed its result over before
# it: run-suite neither waits for the exit nor reads it as a crash, and the exit status is the one the suite gave.
start=$(date +%s%N)
CRASHING_SUITE_SLOW_EXIT_MS=4000 "$bankgate" run-suite --binary "$suite" --results "$work/slow-exit" >"$work/slow-exit.log" 2>&1
rc=$? waited_ms=$((($(date +%s%N) - start) / 1000000))
check "run-suite does not wait for a finished suite's slow exit (took ${waited_ms} ms of its 4000)" \
  "[ $rc -eq 0 ] && [ $waited_ms -lt 3000 ] && grep -q '5 tests of crashing_suite in 1 process(es)' '$work/slow-exit.log'"
check "every test kept its record, the failure its own" \
  "[ \$(ls '$work/slow-exit'/*.result.json | wc -l) -eq 5 ] && grep -q 'a plain failure' '$work/slow-exit/Crashing.Fails.result.json'"
check "no running file is left behind" "[ ! -e '$work/slow-exit/.running' ] && ! ls -A '$work/slow-exit' | grep -q running"

# A test that hangs is killed after the test timeout and charged with it; the rest go on in a fresh process.
CRASHING_SUITE_HANG=1 "$bankgate" run-suite --binary "$suite" --results "$work/hang" --test-timeout 2 >"$work/hang.log" 2>&1
check "run-suite completes its job (exit 0) though a test hung, saying so" \
  "[ $? -eq 0 ] && grep -q '5 tests of crashing_suite in 2 process(es), 1 hung' '$work/hang.log'"
check "the hung test's record says it hung, after the test timeout" \
  "grep -q 'the test hung: it ran for 2 s without ending' '$work/hang/Crashing.Crashes.result.json'"
check "and its verdict fails with that cause" \
  "[ \$(\"$bankgate\" verdict --results '$work/hang' --test Crashing.Crashes >'$work/hang.out' 2>&1; echo \$?) -eq 1 ] && grep -q 'the test hung' '$work/hang.out'"
check "the tests after it ran in a fresh process" "grep -q '\"outcome\": \"passed\"' '$work/hang/Crashing.Last.result.json'"
# The run's time (the measuring test's ctest TIMEOUT, which run-suite is told) runs out during the hang: run-suite
# ends the process before ctest would end run-suite, and every test left has a record saying why.
CRASHING_SUITE_HANG=1 "$bankgate" run-suite --binary "$suite" --results "$work/late" --timeout 8 >"$work/late.log" 2>&1
check "run-suite stops before the TIMEOUT it was given (exit 0), saying the time ran out" \
  "[ $? -eq 0 ] && grep -q \"the run's time ran out (the measuring test's ctest TIMEOUT of 8 s); 4 test(s) unfinished\" '$work/late.log'"
check "the test running then is charged with the time" \
  "grep -q \"the run's time ran out during this test\" '$work/late/Crashing.Crashes.result.json'"
check "a test never reached says so, not measured" \
  "grep -q 'never reached' '$work/late/Crashing.Last.result.json' && grep -q '\"outcome\": \"not_measured\"' '$work/late/Crashing.Last.result.json'"
check "every planned test has its record" "[ \$(ls '$work/late'/*.result.json | wc -l) -eq 5 ]"

BANKGATE_RUN_MANIFEST=$only_last "$bankgate" run-suite --binary "$suite" --results "$work/filtered" >"$work/filtered.log" 2>&1
check "the command's filter runs only the selection" "[ -f '$work/filtered/Crashing.Last.result.json' ] && [ ! -f '$work/filtered/Crashing.First.result.json' ]"
# Two tests whose names differ only where GoogleTest's filter has a meaning: the filter naming the one (as the
# refresh advice writes it, "Named.a\-b") runs it alone, never "Named.a_b" too ("Named.a?b" ran both).
named=$(manifest named '"suite_filter": "Named.a\\-b"')
CRASHING_SUITE_NAMES=1 BANKGATE_RUN_MANIFEST=$named "$bankgate" run-suite --binary "$suite" --results "$work/named" >"$work/named.log" 2>&1
check "the filter for Named.a-b runs Named.a-b and not Named.a_b" \
  "grep -q '\"ran\": \"yes\"' '$work/named/Named.a-b.result.json' && [ ! -f '$work/named/Named.a_b.result.json' ] && python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))[\"tests\"] != [\"Named.a-b\"])' '$work/named/crashing_suite.0.plan.json'"
named_b=$(manifest named-b '"suite_filter": "Named.a_b:Crashing.First"')
CRASHING_SUITE_NAMES=1 BANKGATE_RUN_MANIFEST=$named_b "$bankgate" run-suite --binary "$suite" --results "$work/named-b" >"$work/named-b.log" 2>&1
check "and the filter for Named.a_b runs it and not Named.a-b" \
  "[ -f '$work/named-b/Named.a_b.result.json' ] && [ ! -f '$work/named-b/Named.a-b.result.json' ] && [ -f '$work/named-b/Crashing.First.result.json' ]"
BANKGATE_RUN_MANIFEST=$work/none.json "$bankgate" run-suite --binary "$suite" --results "$work/nomanifest" >"$work/nomanifest.log" 2>&1
check "a manifest that cannot be read is refused (exit 3), naming it" \
  "[ $? -eq 3 ] && grep -q 'BANKGATE_RUN_MANIFEST names a run manifest that cannot be read' '$work/nomanifest.log' && [ ! -d '$work/nomanifest' ]"

# CTest gave the measuring run GPU 1 of the two this process sees (CUDA_VISIBLE_DEVICES=4,7): the suite process
# sees that GPU alone, as its device 0.
env -u CUDA_DEVICE_MAX_CONNECTIONS CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 CUDA_VISIBLE_DEVICES=4,7 \
  BANKGATE_RUN_MANIFEST=$only_last "$bankgate" run-suite --binary "$suite" --results "$work/allotted" >/dev/null 2>&1
check "the suite process sees only the GPU CTest allotted, as device 0" \
  "grep -q 'CUDA_VISIBLE_DEVICES.*\"7\"' '$work/allotted/Crashing.Last.result.json' && grep -q 'settings_device.*\"0\"' '$work/allotted/Crashing.Last.result.json'"
check "the suite process's manifest says device 0 and carries the command's filter" \
  "grep -q '\"device\": 0' '$work/allotted/.crashing_suite.0.manifest.json' && grep -q 'Crashing.Last' '$work/allotted/.crashing_suite.0.manifest.json'"
BANKGATE_DEVICE=1 CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1 CUDA_VISIBLE_DEVICES=4,7 \
  CUDA_DEVICE_MAX_CONNECTIONS=8 BANKGATE_RUN_MANIFEST=$only_last "$bankgate" run-suite --binary "$suite" --results "$work/chosen" >/dev/null 2>&1
check "a device the user chose (BANKGATE_DEVICE) is left as it is" \
  "grep -q 'CUDA_VISIBLE_DEVICES.*\"4,7\"' '$work/chosen/Crashing.Last.result.json' && grep -q 'settings_device.*\"1\"' '$work/chosen/Crashing.Last.result.json'"
check "a suite process makes one hardware queue per context unless the user chose a number" \
  "grep -q 'CUDA_DEVICE_MAX_CONNECTIONS.*\"1\"' '$work/allotted/Crashing.Last.result.json' && grep -q 'CUDA_DEVICE_MAX_CONNECTIONS.*\"8\"' '$work/chosen/Crashing.Last.result.json'"

"$bankgate" discover --binary "$suite" --results "$work/results" --out "$work/tests.cmake" --fixture bankgate.crashing --labels gpu --labels nightly >/dev/null 2>&1
check "discover writes one ctest entry per test, requiring the fixture, with every label" \
  "[ \$(grep -c '^add_test' '$work/tests.cmake') -eq 5 ] && grep -q 'FIXTURES_REQUIRED \[=\[bankgate.crashing\]=\] LABELS \[=\[gpu;nightly\]=\]' '$work/tests.cmake'"
check "a skip reaches ctest as verdict's exit code, never as text matched in its output" \
  "[ \$(grep -c 'SKIP_RETURN_CODE 77' '$work/tests.cmake') -eq 5 ] && ! grep -q SKIP_REGULAR_EXPRESSION '$work/tests.cmake'"
"$bankgate" run-suite --binary "$work/none" --results "$work/x" >/dev/null 2>&1
check "a missing suite program is a set-up error (exit 3)" "[ $? -eq 3 ]"
check "and its plan says so, so that the summary names the suite" "grep -q 'no suite program at' '$work/x/none.0.plan.json'"
"$bankgate" discover --binary /bin/false --results "$work/x" --out "$work/none.cmake" --fixture f >"$work/false.log" 2>&1
check "a program that cannot list its tests stops discovery (exit 3), never an empty list" "[ $? -eq 3 ] && [ ! -f '$work/none.cmake' ]"
# A suite split into shards (bankgate_add_gpu_suite SHARDS): as many shards measure as the run has GPUs, each
# every k-th test of the same listing, so that together they run each test once.
BANKGATE_GPUS=2 "$bankgate" run-suite --binary "$suite" --results "$work/shards" --shards 3 --shard 0 >"$work/shard0.log" 2>&1
BANKGATE_GPUS=2 "$bankgate" run-suite --binary "$suite" --results "$work/shards" --shards 3 --shard 1 >"$work/shard1.log" 2>&1
BANKGATE_GPUS=2 "$bankgate" run-suite --binary "$suite" --results "$work/shards" --shards 3 --shard 2 >"$work/shard2.log" 2>&1
check "with 2 GPUs, shard 0 of 3 runs the 1st, 3rd and 5th tests" \
  "grep -q '3 tests of crashing_suite (shard 0) in 1 process' '$work/shard0.log' && [ -f '$work/shards/Crashing.First.result.json' ] && [ -f '$work/shards/Crashing.Fails.result.json' ] && [ -f '$work/shards/Crashing.Last.result.json' ]"
check "shard 1 runs the 2nd and 4th" \
  "grep -q '2 tests of crashing_suite (shard 1)' '$work/shard1.log' && [ -f '$work/shards/Crashing.Crashes.result.json' ] && [ -f '$work/shards/Crashing.Skips.result.json' ]"
check "shard 2 has nothing to do with 2 GPUs" "grep -q 'shard 2 of crashing_suite has nothing to do: 2 GPU(s)' '$work/shard2.log'"
"$bankgate" run-suite --binary "$suite" --results "$work/one-gpu" --shards 2 --shard 1 >"$work/one-gpu.log" 2>&1
check "without BANKGATE_GPUS only shard 0 measures" "grep -q 'nothing to do: 1 GPU' '$work/one-gpu.log' && [ ! -d '$work/one-gpu' ]"
BANKGATE_GPUS=two "$bankgate" run-suite --binary "$suite" --results "$work/bad" --shards 2 --shard 0 >"$work/bad-gpus.log" 2>&1
check "a malformed BANKGATE_GPUS is refused (exit 3), naming it" "[ $? -eq 3 ] && grep -q \"BANKGATE_GPUS='two'\" '$work/bad-gpus.log'"

# Shards of one command's run (its manifest's run_id) claim tests as they go: a test another shard holds is passed by
# without a result written for it, and each test runs once, whichever shard takes it.
claims="$work/claimed/.claims/crashing_suite.run1"
mkdir -p "$claims" && echo 1 >"$claims/Crashing.Fails.claim"
run1=$(manifest run1 '"run_id": "run1", "gpus": 2')
BANKGATE_RUN_MANIFEST=$run1 CRASHING_SUITE_CRASH=1 "$bankgate" run-suite --binary "$suite" --results "$work/claimed" \
  --shards 2 --shard 0 >"$work/claim0.log" 2>&1
check "shard 0 takes every test but the one shard 1 holds, and charges the crash to its test" \
  "grep -q '4 tests of crashing_suite (shard 0) in 2 process(es), 1 crashed' '$work/claim0.log' && [ ! -f '$work/claimed/Crashing.Fails.result.json' ] && grep -q 'died during this test' '$work/claimed/Crashing.Crashes.result.json' && [ -f '$work/claimed/Crashing.Last.result.json' ]"
BANKGATE_RUN_MANIFEST=$run1 "$bankgate" run-suite --binary "$suite" --results "$work/claimed" --shards 2 --shard 1 >"$work/claim1.log" 2>&1
check "shard 1 then runs only the test it holds" \
  "grep -q '1 test of crashing_suite (shard 1) in 1 process' '$work/claim1.log' && grep -q 'a plain failure' '$work/claimed/Crashing.Fails.result.json'"
run2=$(manifest run2 '"run_id": "run2", "gpus": 2')
for shard in 0 1; do
  CRASHING_SUITE_DELAY_MS=150 BANKGATE_RUN_MANIFEST=$run2 "$bankgate" run-suite --binary "$suite" --results "$work/race" \
    --shards 2 --shard "$shard" >"$work/race$shard.log" 2>&1 &
done
wait
taken=$(( $(sed -n 's/.*run-suite: \([0-9]*\) tests of crashing_suite (shard 0).*/\1/p' "$work/race0.log") + \
          $(sed -n 's/.*run-suite: \([0-9]*\) tests of crashing_suite (shard 1).*/\1/p' "$work/race1.log") ))
check "two shards started together run each test once: 5 claims, 5 results, 5 taken in all" \
  "[ \$(ls '$work/race/.claims/crashing_suite.run2' | wc -l) -eq 5 ] && [ \$(ls '$work/race'/*.result.json | wc -l) -eq 5 ] && [ '$taken' -eq 5 ]"
BANKGATE_RUN_MANIFEST=$(manifest badrun '"run_id": "../x", "gpus": 2') "$bankgate" run-suite --binary "$suite" --results "$work/badrun" --shards 2 --shard 0 >"$work/badrun.log" 2>&1
check "a run id that is not one is refused (exit 3), naming the manifest" "[ $? -eq 3 ] && grep -q 'badrun.manifest.json has a run_id that is not' '$work/badrun.log'"

# A resource spec spreads the measuring runs over its GPUs; by default a ctest slot per GPU (the command runs the
# measuring entries alone). A spec that lists no GPU is refused before the results of the last run are cleared.
mkdir -p "$work/build/bankgate/gate" && : >"$work/build/CTestTestfile.cmake" && : >"$work/build/bankgate/gate/kept"
echo '{"version":{"major":1,"minor":0},"local":[{"gpus":[{"id":"0","slots":1},{"id":"1","slots":1}]}]}' >"$work/two.json"
echo '{"version":{"major":1,"minor":0},"local":[{"cpus":[{"id":"0","slots":1}]}]}' >"$work/nogpu.json"
"$bankgate" gate --build "$work/build" --no-build --resource-spec "$work/nogpu.json" >"$work/nogpu.log" 2>&1
check "a spec without GPUs is refused (exit 3), naming it, and the last run's files stay" \
  "[ $? -eq 3 ] && grep -q 'nogpu.json lists no \"gpus\"' '$work/nogpu.log' && [ -f '$work/build/bankgate/gate/kept' ]"
"$bankgate" gate --build "$work/build" --no-build --resource-spec "$work/two.json" >"$work/two.log" 2>&1
wanted="-R '^bankgate\\.measure\\.' --resource-spec-file $work/two.json --parallel 2"
check "with a spec of 2 GPUs ctest runs 2 measuring entries at once, and them alone" 'grep -qF -- "$wanted" "$work/two.log"'

echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
