#!/usr/bin/env bash
# `bankgate compare --extra-time` on two configured builds of a made-up project (no GPU): its "GPU suites" are
# ctest entries labelled gpu whose script writes a candidate file with a median chosen by side and round, as a
# measuring run would. Three tests: Quiet.steady (the same every round: ok), Noisy.wobbly (1% noise and no
# change: INCONCLUSIVE after 2 rounds, decided by a few more) and Loud.slower (0.48% slower at 3% noise: no
# number of rounds the budget allows decides it, even with its change one standard error nearer to none).
#   - --extra-time 0: today's comparison, no extra rounds, the INCONCLUSIVE verdicts as they were;
#   - a budget: Noisy.wobbly alone gets extra rounds (ctest runs only it; their candidates go into the sides'
#     round folders and are pooled with the others) until decided; Loud.slower gets none and says why; the
#     console and result.json say each test's rounds and what the extra time did;
#   - the default budget, the rounds' time;
#   - a budget that rounds slower than forecast spend: the tests stay INCONCLUSIVE, "budget of X s spent";
#   - a malformed --extra-time: a usage error naming the option (exit 64).
#
#   tests/unit/compare_extra_rounds_test.sh PATH/TO/bankgate CMAKE
#
# Exits 77 (Skipped) where jq is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
tool=${1:?usage: compare_extra_rounds_test.sh PATH/TO/bankgate CMAKE}
cmake=${2:?usage: compare_extra_rounds_test.sh PATH/TO/bankgate CMAKE}
command -v jq >/dev/null 2>&1 || { echo "SKIPPED: no jq here; the checks read result.json with it"; exit 77; }
export PATH="$(dirname "$cmake"):$PATH"  # the ctest of this cmake is the one the command runs

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-extra-rounds.XXXXXX")
trap 'rm -rf "$root"' EXIT
. "$(dirname "$0")/test_lib.sh"
unset NO_COLOR
export BANKGATE_FAKE_SLOW_FROM=1000000 BANKGATE_FAKE_SLEEP=0

# The measuring run of one test: its median from the round folder it writes into (.../base/round-3), slow from
# round BANKGATE_FAKE_SLOW_FROM on.
cat >"$root/fake_suite.sh" <<'SUITE'
#!/usr/bin/env bash
set -eu
suite=$1 test=$2
# Its test only where the command's filter (in the run manifest) selects it, as run-suite plans a suite's tests.
python3 -c 'import fnmatch, json, os, sys
wanted, _, unwanted = json.load(open(os.environ["BANKGATE_RUN_MANIFEST"])).get("suite_filter", "").partition("-")
match = lambda ps: any(fnmatch.fnmatchcase(sys.argv[1], p) for p in ps.split(":") if p)
sys.exit(0 if (not wanted or match(wanted)) and not match(unwanted) else 1)' "$suite.$test" || exit 0
# Where candidates go, as the command's run manifest says.
dir=$(python3 -c 'import json, os; print(json.load(open(os.environ["BANKGATE_RUN_MANIFEST"]))["candidate_dir"])')
round=${dir##*/round-}
side=$(basename "$(dirname "$dir")")
[ "$round" -ge "$BANKGATE_FAKE_SLOW_FROM" ] && sleep "$BANKGATE_FAKE_SLEEP"
wobble=(30000 30300 29700)
case $suite.$test in
  Quiet.steady) median=30000 ;;
  Noisy.wobbly) median=${wobble[$((round % 3))]} ;;
  Loud.slower)
    base=(30000 30900 29100) head=(30144 31048.32 29239.68)
    if [ "$side" = head ]; then median=${head[$((round % 3))]}; else median=${base[$((round % 3))]}; fi ;;
esac
samples=$(printf "$median,%.0s" $(seq 40)); samples=${samples%,}
out="$dir/sm_90/nvidia-h200/$suite/$test.json"
mkdir -p "$(dirname "$out")"
cat >"$out" <<JSON
{"schema_version": 4, "suite": "$suite", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
 "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
                "cupti_version": 130000, "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z",
                "command": "fake suite"},
 "tests": {"$test": {"kernel": "$test", "correct": true, "counters": {},
   "timing": {"median_ns": $median, "mad_ns": 0, "p10_ns": $median, "p90_ns": $median, "min_ns": $median, "samples": 40,
              "median_se_ns": 0, "tolerance": {"relative": 0.03, "absolute_ns": 64}, "l2": "warm",
              "launches_per_sample": 1, "warmup_launches": 2, "dropped_samples": 0, "sm_clock_mhz": 1980},
   "samples_ns": [$samples]}}}
JSON
SUITE

# build NAME: a configured project whose three GPU entries run the fake suite.
build() {
  mkdir -p "$root/$1"
  {
    printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(fake NONE)' 'enable_testing()'
    for t in Quiet.steady Noisy.wobbly Loud.slower; do
      echo "add_test(NAME bankgate.measure.$t COMMAND bash $root/fake_suite.sh ${t%%.*} ${t#*.})"
      echo "set_tests_properties(bankgate.measure.$t PROPERTIES LABELS gpu)"
    done
  } >"$root/$1/CMakeLists.txt"
  "$cmake" -S "$root/$1" -B "$root/$1/build" >"$root/$1.configure.log" 2>&1 || { cat "$root/$1.configure.log"; exit 1; }
}
build base
build head
base="$root/base/build" head="$root/head/build"
work="$head/bankgate/compare"
result="$work/result.json"
verdict() { jq -r --arg t "$1" '.tests[] | select(.name == $t) | .findings[] | select(.timing) | .verdict' "$result"; }
rounds() { jq -r --arg t "$1" '.tests[] | select(.name == $t) | "\(.rounds.base)+\(.rounds.head)"' "$result"; }

# ---------------------------------------------------------------------------------------------------------
# 1. Usage errors, before anything is measured.
run "$tool" compare --base "$base" --head "$head" --extra-time 10x
expect_rc "--extra-time 10x: a usage error (exit 64)" 64
expect_in "--extra-time 10x: the option and the forms it takes are named" "--extra-time: must be a duration" "$out"
run "$tool" compare --base "$base" --head "$head" --extra-time=-5
expect_rc "--extra-time=-5: a usage error (exit 64)" 64
check "a refused --extra-time measured nothing" "[ ! -d '$work' ]"

# ---------------------------------------------------------------------------------------------------------
# 2. --extra-time 0: today's comparison.
run "$tool" compare --base "$base" --head "$head" --rounds 2 --extra-time 0
expect_rc "--extra-time 0: INCONCLUSIVE as before (exit 5)" 5
expect_not_in "--extra-time 0: no extra time line" "extra time:" "$out"
check "--extra-time 0: no third round" "[ ! -e '$work/logs/base-round3.log' ] && [ ! -e '$work/logs/head-round3.log' ]"
check "--extra-time 0: result.json says nothing of extra time" "[ \"\$(jq 'has(\"extra_time\")' '$result')\" = false ]"
check "--extra-time 0: Noisy.wobbly INCONCLUSIVE" "[ \"\$(verdict Noisy.wobbly)\" = inconclusive ]"
check "--extra-time 0: each test's rounds in result.json" \
  "[ \"\$(rounds Noisy.wobbly) \$(rounds Quiet.steady) \$(rounds Loud.slower)\" = '2+2 2+2 2+2' ]"
expect_not_in "--extra-time 0: no budget in the verdicts" "budget of" "$out"

# ---------------------------------------------------------------------------------------------------------
# 3. A budget: the noisy test gets rounds until decided, alone; the loud one gets none.
run "$tool" compare --base "$base" --head "$head" --rounds 2 --extra-time 2m
expect_rc "a budget: Loud.slower is still INCONCLUSIVE (exit 5)" 5
check "a budget: Noisy.wobbly decided ok" "[ \"\$(verdict Noisy.wobbly)\" = pass ]" "$out"
check "a budget: Loud.slower stays INCONCLUSIVE" "[ \"\$(verdict Loud.slower)\" = inconclusive ]"
extra=$(jq -r '.extra_time.tests["Noisy.wobbly"]' "$result")
check "a budget: Noisy.wobbly got extra rounds" "[ '$extra' -ge 1 ]" "$(jq .extra_time "$result")"
check "a budget: its rounds a side count them" "[ \"\$(rounds Noisy.wobbly)\" = '$((2 + extra))+$((2 + extra))' ]"
check "a budget: only Noisy.wobbly got any" "[ \"\$(jq -c '.extra_time.tests | keys' '$result')\" = '[\"Noisy.wobbly\"]' ]"
check "a budget: the others kept their 2 rounds" "[ \"\$(rounds Quiet.steady) \$(rounds Loud.slower)\" = '2+2 2+2' ]"
check "a budget: result.json's extra time" \
  "[ \"\$(jq -c '.extra_time | [.budget_s, .rounds, .budget_spent, (.spent_s < .budget_s)]' '$result')\" = '[120,$extra,false,true]' ]"
check "an extra round measured Noisy.wobbly alone, on the base side too" \
  "[ \"\$(cd '$work/candidates/base/round-3' && find . -name '*.json' | sort)\" = './sm_90/nvidia-h200/Noisy/wobbly.json' ]"
check "an extra round's candidates are in the sides' round folders, its test's only" \
  "[ \"\$(cd '$work/candidates/head/round-3' && find . -name '*.json' | sort)\" = './sm_90/nvidia-h200/Noisy/wobbly.json' ]"
check "extra rounds keep alternating: base first in odd rounds" \
  "[ '$work/logs/head-round4.log' -ot '$work/logs/base-round4.log' ] || [ $extra -lt 2 ]"
expect_in "a budget: the console names each test's extra rounds" "extra time: $extra round" "$out"
expect_in "a budget: ... and Noisy.wobbly's" "Noisy.wobbly +$extra" "$out"
expect_in "a budget: the undecided test says why it got none" \
  "INCONCLUSIVE after 2 rounds; deciding it needs more rounds than the budget of 120 s allows" "$out"
check "a budget: result.json's detail says so too" \
  "jq -r '.tests[] | select(.name == \"Loud.slower\") | .findings[].detail' '$result' | grep -q 'budget of 120 s allows'"
check "a budget: the markdown summary says what the extra time did" "grep -q 'extra time: $extra round' '$work/summary.md'"
expect_in "a budget: every verdict still states the smallest detectable change" "smallest detectable change" "$out"
check "result.json validates against its schema" \
  "python3 '$(dirname "$0")/validate_output.py' compare.schema.json '$result' >/dev/null 2>&1 || ! python3 -c 'import jsonschema' 2>/dev/null"

# ---------------------------------------------------------------------------------------------------------
# 3b. No --extra-time: the rounds' time, which is 6 test-rounds here (2 rounds of 3 tests): too
# few for Noisy.wobbly, which says so.
run "$tool" compare --base "$base" --head "$head" --rounds 2
expect_rc "the default budget: INCONCLUSIVE (exit 5)" 5
check "the default budget: the rounds' time, none of it spent" \
  "jq -e '.extra_time | .budget_s > 0 and .rounds == 0 and .tests == {}' '$result' >/dev/null" "$(jq .extra_time "$result")"
expect_in "the default budget: the verdict says it was too small" "INCONCLUSIVE after 2 rounds; deciding it needs more rounds than the budget of" "$out"

# ---------------------------------------------------------------------------------------------------------
# 4. Extra rounds slower than forecast: the budget runs out, INCONCLUSIVE stays the answer and says so.
# The default rounds forecast well under a second a test (the test runs alone: RUN_SERIAL); the first extra round
# takes over 60 s.
BANKGATE_FAKE_SLOW_FROM=3 BANKGATE_FAKE_SLEEP=31 run "$tool" compare --base "$base" --head "$head" --rounds 2 --extra-time 60
expect_rc "budget spent: still INCONCLUSIVE (exit 5)" 5
check "budget spent: one extra round, then none" "[ -e '$work/logs/base-round3.log' ] && [ ! -e '$work/logs/base-round4.log' ]"
check "budget spent: Noisy.wobbly undecided after its 3 rounds" "[ \"\$(verdict Noisy.wobbly) \$(rounds Noisy.wobbly)\" = 'inconclusive 3+3' ]"
expect_in "budget spent: the verdict says so" "INCONCLUSIVE after 3 rounds; budget of 60 s spent" "$out"
check "budget spent: result.json says so" "[ \"\$(jq '.extra_time.budget_spent' '$result')\" = true ]"

# ---------------------------------------------------------------------------------------------------------
# 5. Candidate folders: measured earlier, nothing to add; --extra-time changes nothing.
cp -r "$work/candidates" "$root/kept"
run "$tool" compare --base "$root/kept/base" --head "$root/kept/head" --extra-time 1h
expect_rc "candidate folders: judged as they are (exit 5)" 5
expect_not_in "candidate folders: no extra time" "extra time:" "$out"

finish
