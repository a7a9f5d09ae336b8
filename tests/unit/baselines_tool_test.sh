#!/usr/bin/env bash
# bankgate promote/review against fixture folders: the refusals (CI, no candidates, a new GPU), the
# dry run, subset refresh with --filter, wrong-output candidates, a corrupt baseline, and table's exit code.
#
#   tests/unit/baselines_tool_test.sh PATH/TO/bankgate
#
# Candidate files are written here as JSON text (the schema of tests/unit/baseline_io_test.cpp). Prints
# "N passed, M failed" and exits non-zero if any check failed.
set -uo pipefail

tool=${1:?usage: baselines_tool_test.sh PATH/TO/bankgate}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-baselines-tool.XXXXXX")
trap 'rm -rf "$root"' EXIT
unset CI

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1" >&2; [ -n "${2:-}" ] && printf '       %s\n' "$2" >&2; return 0; }

gpu_dir=sm_90/nvidia-h200
wavefronts=smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
requests=smsp__sass_inst_executed_op_shared_ld.sum

# candidate DIR SUITE TEST WAVEFRONTS [CORRECT [TOLERANCE]]: one candidate file, as a GPU suite run writes it;
# TOLERANCE is the wavefront counter's tolerance as JSON (default exact).
candidate() {
  local dir=$1 suite=$2 test=$3 value=$4 correct=${5:-true} tolerance=${6:-'{"kind": "exact"}'}
  mkdir -p "$dir/$gpu_dir/$suite"
  cat >"$dir/$gpu_dir/$suite/$test.json" <<JSON
{
  "schema_version": 4,
  "suite": "$suite",
  "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
  "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                 "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000, "cupti_version": 130000,
                 "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z",
                 "command": "GPU suite run of $suite.$test"},
  "tests": {
    "$test": {
      "kernel": "kernel_$test",
      "correct": $correct,
      "counters": {
        "$wavefronts": {"value": $value, "tolerance": $tolerance},
        "$requests": {"value": 1024, "tolerance": {"kind": "exact"}}
      },
      "samples_ns": [2016, 2048, 2080]
    }
  }
}
JSON
}

# A fresh case folder: candidates for Suite.a and Suite.b under cand/, an empty baselines/ beside it.
case_no=0
new_case() {
  case_no=$((case_no + 1))
  dir="$root/case$case_no"
  cand="$dir/cand"
  base="$dir/baselines"
  mkdir -p "$cand" "$base"
  candidate "$cand" Suite a 1024
  candidate "$cand" Suite b 2048
}

# run ARGS...: runs the tool, keeping its exit code in $rc and its output in $out.
run() {
  out=$("$tool" "$@" 2>&1)
  rc=$?
}

# Recursive listing with checksums: "nothing written" means this does not change.
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum); }

expect_rc() {  # expect_rc NAME WANT
  if [ "$rc" -eq "$2" ]; then pass "$1"; else fail "$1" "exit code $rc, expected $2; output:"$'\n'"$out"; fi
}

# promote --new-gpu into an empty baselines folder: the starting point of several checks.
seed_baselines() {
  run promote --candidates "$cand" --baselines "$base" --new-gpu --command "fixture"
  [ "$rc" -eq 0 ] || fail "seeding baselines in case $case_no" "exit code $rc; output:"$'\n'"$out"
}

# ---------------------------------------------------------------------------------------------------------
# CI=true without --force: refused, nothing written.
new_case
mkdir -p "$base/$gpu_dir"
before=$(snapshot "$base")
out=$(CI=true "$tool" promote --candidates "$cand" --baselines "$base" 2>&1); rc=$?
expect_rc "promote with CI=true is refused (exit 3)" 3
[ "$(snapshot "$base")" = "$before" ] && pass "promote with CI=true writes nothing" ||
  fail "promote with CI=true writes nothing" "baselines changed: $(find "$base" -type f)"

# CI=true --force: writes.
out=$(CI=true "$tool" promote --candidates "$cand" --baselines "$base" --force 2>&1); rc=$?
expect_rc "promote with CI=true --force succeeds" 0
[ -f "$base/$gpu_dir/Suite.json" ] && pass "promote with CI=true --force writes Suite.json" ||
  fail "promote with CI=true --force writes Suite.json" "missing $base/$gpu_dir/Suite.json; output:"$'\n'"$out"

# ---------------------------------------------------------------------------------------------------------
# No candidates at all: refused.
case_no=$((case_no + 1))
dir="$root/case$case_no"; mkdir -p "$dir/cand" "$dir/baselines/$gpu_dir"
run promote --candidates "$dir/cand" --baselines "$dir/baselines"
expect_rc "promote with an empty candidates folder is refused (exit 3)" 3
run promote --candidates "$dir/missing" --baselines "$dir/baselines"
expect_rc "promote with no candidates folder is refused (exit 3)" 3
# A GPU folder with no candidate file in it.
mkdir -p "$dir/cand/$gpu_dir"
run promote --candidates "$dir/cand" --baselines "$dir/baselines"
expect_rc "promote with an empty GPU candidates folder is refused (exit 3)" 3

# ---------------------------------------------------------------------------------------------------------
# A GPU without baselines: refused without --new-gpu, nothing written; written with it.
new_case
run promote --candidates "$cand" --baselines "$base"
expect_rc "promote for a GPU without baselines is refused without --new-gpu (exit 3)" 3
[ -z "$(find "$base" -mindepth 1 -print -quit)" ] && pass "the refused new-GPU promote writes nothing" ||
  fail "the refused new-GPU promote writes nothing" "found: $(find "$base" -mindepth 1)"
seed_baselines
[ -f "$base/$gpu_dir/Suite.json" ] && pass "promote --new-gpu writes Suite.json" ||
  fail "promote --new-gpu writes Suite.json" "output:"$'\n'"$out"
grep -q samples_ns "$base/$gpu_dir/Suite.json" && fail "baselines drop the raw samples" "samples_ns in Suite.json" ||
  pass "baselines drop the raw samples"

# ---------------------------------------------------------------------------------------------------------
# --dry-run prints the table and writes nothing (a new GPU, and then over existing baselines).
new_case
run promote --candidates "$cand" --baselines "$base" --dry-run
expect_rc "promote --dry-run on a GPU without baselines refuses as the real run does (--new-gpu)" 3
expect_in "promote --dry-run names --new-gpu" "pass --new-gpu" "$out"
run promote --candidates "$cand" --baselines "$base" --new-gpu --dry-run
expect_rc "promote --dry-run succeeds" 0
case $out in *"$wavefronts"* | *"Suite"*) pass "promote --dry-run prints the table" ;;
  *) fail "promote --dry-run prints the table" "output:"$'\n'"$out" ;; esac
case $out in *"dry run"*) pass "promote --dry-run says nothing was written" ;;
  *) fail "promote --dry-run says nothing was written" "output:"$'\n'"$out" ;; esac
[ -z "$(find "$base" -mindepth 1 -print -quit)" ] && pass "promote --dry-run writes nothing (new GPU)" ||
  fail "promote --dry-run writes nothing (new GPU)" "found: $(find "$base" -mindepth 1)"
seed_baselines
candidate "$cand" Suite a 4096
before=$(snapshot "$base")
run promote --candidates "$cand" --baselines "$base" --dry-run
expect_rc "promote --dry-run over existing baselines succeeds" 0
[ "$(snapshot "$base")" = "$before" ] && pass "promote --dry-run leaves existing baselines unchanged" ||
  fail "promote --dry-run leaves existing baselines unchanged" "Suite.json changed"

# ---------------------------------------------------------------------------------------------------------
# --filter 'Suite.a': only a is promoted; b stays absent (new GPU) or unchanged (existing baselines).
new_case
run promote --candidates "$cand" --baselines "$base" --new-gpu --filter 'Suite.a'
expect_rc "promote --filter Suite.a succeeds" 0
file="$base/$gpu_dir/Suite.json"
grep -q '"a"' "$file" 2>/dev/null && pass "--filter Suite.a promotes a" || fail "--filter Suite.a promotes a" "$(cat "$file" 2>&1)"
grep -q '"b"' "$file" 2>/dev/null && fail "--filter Suite.a leaves b out" "$(cat "$file")" || pass "--filter Suite.a leaves b out"
# Now with both in the baselines: change both candidates, promote a only; b keeps its old value.
new_case
seed_baselines
candidate "$cand" Suite a 1111
candidate "$cand" Suite b 2222
run promote --candidates "$cand" --baselines "$base" --filter 'Suite.a'
expect_rc "promote --filter Suite.a over existing baselines succeeds" 0
file="$base/$gpu_dir/Suite.json"
grep -q 1111 "$file" && pass "--filter Suite.a refreshes a" || fail "--filter Suite.a refreshes a" "$(cat "$file")"
if grep -q 2222 "$file" || ! grep -q 2048 "$file"; then fail "--filter Suite.a leaves b unchanged" "$(cat "$file")"
else pass "--filter Suite.a leaves b unchanged"; fi

# ---------------------------------------------------------------------------------------------------------
# Tolerances come from the tests' code (through the candidates), not from the old baseline: a refresh after a
# test widened or narrowed one writes the new one.
new_case
seed_baselines
candidate "$cand" Suite a 1024 true '{"kind": "relative", "amount": 0.05, "reason": "fixture contention"}'
run promote --candidates "$cand" --baselines "$base" --filter 'Suite.a'
expect_rc "promote of a candidate with a new tolerance succeeds" 0
grep -q '"fixture contention"' "$base/$gpu_dir/Suite.json" && pass "the candidate's new tolerance replaces the baseline's" ||
  fail "the candidate's new tolerance replaces the baseline's" "$(cat "$base/$gpu_dir/Suite.json")"
candidate "$cand" Suite a 1024
run promote --candidates "$cand" --baselines "$base" --filter 'Suite.a'
grep -q '"fixture contention"' "$base/$gpu_dir/Suite.json" && fail "a tolerance the test no longer asks for is dropped" "$(cat "$base/$gpu_dir/Suite.json")" ||
  pass "a tolerance the test no longer asks for is dropped"

# ---------------------------------------------------------------------------------------------------------
# A candidate whose output was wrong ("correct": false) is not promoted.
new_case
candidate "$cand" Suite b 2048 false
run promote --candidates "$cand" --baselines "$base" --new-gpu
expect_rc "promote with one wrong-output candidate promotes the rest" 0
file="$base/$gpu_dir/Suite.json"
grep -q '"a"' "$file" && pass "the correct candidate a is promoted" || fail "the correct candidate a is promoted" "$(cat "$file")"
grep -q '"b"' "$file" && fail "the wrong-output candidate b is not promoted" "$(cat "$file")" ||
  pass "the wrong-output candidate b is not promoted"
case $out in *"not promoted"*"Suite.b"*) pass "the wrong-output candidate is named" ;;
  *) fail "the wrong-output candidate is named" "output:"$'\n'"$out" ;; esac
# Only wrong-output candidates: nothing to promote, refused, nothing written.
new_case
candidate "$cand" Suite a 1024 false
candidate "$cand" Suite b 2048 false
run promote --candidates "$cand" --baselines "$base" --new-gpu
expect_rc "promote with only wrong-output candidates is refused (exit 3)" 3
[ -z "$(find "$base" -mindepth 1 -type f -print -quit)" ] && pass "only wrong-output candidates: nothing written" ||
  fail "only wrong-output candidates: nothing written" "found: $(find "$base" -type f)"

# ---------------------------------------------------------------------------------------------------------
# An existing corrupt baseline: promote fails with exit 2 and leaves it byte-for-byte unchanged.
new_case
mkdir -p "$base/$gpu_dir"
printf '{"schema_version": 1, "suite": "Suite", "tests": {' >"$base/$gpu_dir/Suite.json"
before=$(snapshot "$base")
run promote --candidates "$cand" --baselines "$base"
expect_rc "promote over a corrupt baseline fails (exit 2)" 2
[ "$(snapshot "$base")" = "$before" ] && pass "the corrupt baseline is left byte-for-byte unchanged" ||
  fail "the corrupt baseline is left byte-for-byte unchanged" "$(snapshot "$base")"
run promote --candidates "$cand" --baselines "$base" --new-gpu
expect_rc "promote --new-gpu over a corrupt baseline fails too (exit 2)" 2
[ "$(snapshot "$base")" = "$before" ] && pass "promote --new-gpu leaves the corrupt baseline unchanged" ||
  fail "promote --new-gpu leaves the corrupt baseline unchanged" "$(snapshot "$base")"

# ---------------------------------------------------------------------------------------------------------
# table: 0 when every counter equals its baseline, 1 when one differs.
new_case
seed_baselines
run table --candidates "$cand" --baselines "$base"
expect_rc "table exits 0 when the candidates equal the baselines" 0
candidate "$cand" Suite b 2049
run table --candidates "$cand" --baselines "$base"
expect_rc "table exits 1 when a counter differs" 1
case $out in *"Suite.b "*CHANGED*) pass "table marks the changed counter of Suite.b" ;;
  *) fail "table marks the changed counter of Suite.b" "output:"$'\n'"$out" ;; esac

# ---------------------------------------------------------------------------------------------------------
# compare: same-runner comparison of two builds' candidates, rounds pooled per side.

# timed DIR TEST MEDIAN [CORRECT]: a candidate with 40 durations spread evenly around MEDIAN (+-2%).
timed() {
  local dir=$1 test=$2 median=$3 correct=${4:-true} samples="" i
  for i in $(seq -20 19); do samples+="${samples:+, }$((median + median * i / 1000))"; done
  mkdir -p "$dir/$gpu_dir/Suite"
  cat >"$dir/$gpu_dir/Suite/$test.json" <<JSON
{
  "schema_version": 4, "suite": "Suite", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
  "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                 "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
                 "cupti_version": 130000, "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z",
                 "command": "GPU suite run of Suite.$test"},
  "tests": {"$test": {
    "kernel": "kernel_$test", "correct": $correct,
    "counters": {"$requests": {"value": 1024, "tolerance": {"kind": "exact"}}},
    "timing": {"median_ns": $median, "mad_ns": 0, "p10_ns": $median, "p90_ns": $median, "min_ns": $median, "samples": 40,
               "median_se_ns": 0, "l2": "warm", "launches_per_sample": 1, "warmup_launches": 10, "dropped_samples": 0,
               "sm_clock_mhz": 1980, "tolerance": {"relative": 0.03, "absolute_ns": 64}},
    "samples_ns": [$samples]}}
}
JSON
  # The summary a GPU run writes beside its samples (statistics.cpp): a candidate's must be its samples'.
  python3 - "$dir/$gpu_dir/Suite/$test.json" <<'PY'
import json, math, sys
path = sys.argv[1]
d = json.load(open(path))
t = next(iter(d["tests"].values()))
v = sorted(t["samples_ns"])
def q(p):
    pos = p * (len(v) - 1); lo = math.floor(pos); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (pos - lo) * (v[hi] - v[lo])
dev = sorted(abs(x - q(0.5)) for x in v)
t["timing"].update(median_ns=q(0.5), min_ns=v[0], p10_ns=q(0.1), p90_ns=q(0.9), mad_ns=(dev[19] + dev[20]) / 2)
json.dump(d, open(path, "w"))
PY
}

cmp_dir="$root/compare"
for round in 1 2; do
  timed "$cmp_dir/base/round$round" a 50000
  timed "$cmp_dir/head/round$round" a 50000
  timed "$cmp_dir/base/round$round" b 20000
  timed "$cmp_dir/head/round$round" b 20000
done
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "compare exits 0 when head equals base" 0
case $out in *"Suite.a "*ok*) pass "compare lists each test with its verdict" ;;
  *) fail "compare lists each test with its verdict" "output:"$'\n'"$out" ;; esac
# --json -: the JSON alone on standard output, the table on standard error, no file named '-'.
had_dash=false; [ -e ./- ] && had_dash=true
data=$("$tool" compare --base "$cmp_dir/base" --head "$cmp_dir/head" --json - 2>/dev/null)
if python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["exit_code"] == 0 and d["tests"]' "$data" 2>/dev/null &&
  { $had_dash || [ ! -e ./- ]; }; then pass "compare --json - writes the JSON alone to standard output"
else fail "compare --json - writes the JSON alone to standard output" "$data"; fi

timed "$cmp_dir/head/round1" b 22000
timed "$cmp_dir/head/round2" b 22000
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "compare exits 1 when head is 10% slower" 1
case $out in *"Suite.b "*"+10.0%"*SLOWER*) pass "compare names the slower test and its change" ;;
  *) fail "compare names the slower test and its change" "output:"$'\n'"$out" ;; esac
run compare --base "$cmp_dir/base" --head "$cmp_dir/head" --filter 'Suite.a'
expect_rc "compare --filter leaves the slower test out" 0

timed "$cmp_dir/head/round1" b 18000
timed "$cmp_dir/head/round2" b 18000
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "a faster head passes" 0
case $out in *faster*) pass "compare reports the speedup" ;; *) fail "compare reports the speedup" "output:"$'\n'"$out" ;; esac
run compare --base "$cmp_dir/base" --head "$cmp_dir/head" --fail-on-speedup
expect_rc "a faster head fails with --fail-on-speedup" 1

# Rounds that disagree by 2% cannot tell a 1% slowdown from none: INCONCLUSIVE, with its own exit code.
timed "$cmp_dir/base/round1" b 20000
timed "$cmp_dir/base/round2" b 20400
timed "$cmp_dir/head/round1" b 20400
timed "$cmp_dir/head/round2" b 20200
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "noisy rounds give INCONCLUSIVE (exit 5)" 5
case $out in *"Suite.b "*INCONCLUSIVE*"round-to-round noise"*) pass "compare says which test was inconclusive and its noise" ;;
  *) fail "compare says which test was inconclusive and its noise" "output:"$'\n'"$out" ;; esac
timed "$cmp_dir/base/round2" b 20000

# A base built before the current schema: refused with what to do, not with a refresh that cannot help.
sed -i 's/"schema_version": 4/"schema_version": 3/' "$cmp_dir/base/round1/"*/*/Suite/b.json
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "a base of the previous schema is refused (exit 2)" 2
case $out in *"a candidate of schema 3, written by an older bankgate"*) pass "the refusal says the builds measure with different schemas" ;;
  *) fail "the refusal says the builds measure with different schemas" "output:"$'\n'"$out" ;; esac
sed -i 's/"schema_version": 3/"schema_version": 4/' "$cmp_dir/base/round1/"*/*/Suite/b.json

timed "$cmp_dir/head/round1" b 20000 false
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "rounds of one build that disagree on correctness are an error (exit 2)" 2
timed "$cmp_dir/head/round2" b 20000 false
run compare --base "$cmp_dir/base" --head "$cmp_dir/head"
expect_rc "wrong output in head fails the comparison (exit 1)" 1
case $out in *"WRONG OUTPUT"*) pass "compare marks the wrong output" ;; *) fail "compare marks the wrong output" "$out" ;; esac

run compare --base "$cmp_dir/base" --head "$root/no-such-folder"
expect_rc "compare with a missing folder is a usage error (exit 64)" 64
case $out in *"no-such-folder"*) pass "the missing folder is named" ;; *) fail "the missing folder is named" "$out" ;; esac

# Every subcommand explains itself; usage errors have their own exit code, apart from refusals and failures.
for sub in gate record review promote refresh compare summary metrics readme-table; do
  run "$sub" --help
  expect_rc "$sub --help exits 0" 0
  case $out in *"Exit codes:"*) pass "$sub --help lists the exit codes" ;; *) fail "$sub --help lists the exit codes" "$out" ;; esac
done
# ---------------------------------------------------------------------------------------------------------
# A baseline of the previous schema (3): the gate-side readers refuse it naming the refresh; a promotion of
# every test it held replaces it, one that would drop a test is refused and leaves it as it was.
new_case
seed_baselines
sed -i 's/"schema_version": 4/"schema_version": 3/' "$base/$gpu_dir/Suite.json"
old=$(cat "$base/$gpu_dir/Suite.json")
run check-baselines --baselines "$base"
case $out in *"schema_version' is 3; this bankgate reads version 4"*"bankgate refresh --build"*) pass "check-baselines names the refresh for a schema 3 file" ;;
  *) fail "check-baselines names the refresh for a schema 3 file" "exit $rc: $out" ;; esac
rm "$cand/$gpu_dir/Suite/b.json"
run promote --candidates "$cand" --baselines "$base"
expect_rc "a promotion that would drop a test of a schema 3 file is refused (exit 3)" 3
case $out in *"holds tests this recording lacks (b)"*) pass "the refusal names the test it would drop" ;; *) fail "the refusal names the test it would drop" "$out" ;; esac
[ "$(cat "$base/$gpu_dir/Suite.json")" = "$old" ] && pass "the refused promotion leaves the schema 3 file as it was" ||
  fail "the refused promotion leaves the schema 3 file as it was"
candidate "$cand" Suite b 2048
run promote --candidates "$cand" --baselines "$base"
expect_rc "a promotion of every test replaces a schema 3 file (exit 0)" 0
grep -q '"schema_version": 4' "$base/$gpu_dir/Suite.json" && pass "the replaced file is schema 4" ||
  fail "the replaced file is schema 4" "$(head -c 300 "$base/$gpu_dir/Suite.json")"

run --version
expect_rc "--version exits 0" 0
[[ $out =~ ^bankgate\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{40}(-dirty)?|unknown)\)$ ]] &&
  pass "--version prints 'bankgate MAJOR.MINOR.PATCH (commit HASH)'" ||
  fail "--version prints 'bankgate MAJOR.MINOR.PATCH (commit HASH)'" "$out"
run --help
case $out in *"Plumbing (run by ctest, CMake and scripts):"*run-suite*) pass "--help lists the plumbing apart" ;;
  *) fail "--help lists the plumbing apart" "$out" ;; esac

run
expect_rc "no subcommand is a usage error (exit 64)" 64
run frobnicate
expect_rc "an unknown subcommand is a usage error (exit 64)" 64
run promote --bogus
expect_rc "an unknown option is a usage error (exit 64)" 64
run gate --build "$root/no-such-build"
expect_rc "gate on a folder that is no configured build is refused (exit 3)" 3
case $out in *"not a configured build folder"*) pass "the refusal says what --build must be" ;; *) fail "the refusal says what --build must be" "$out" ;; esac
CI=true run refresh --build "$root/no-such-build"
expect_rc "refresh in CI is refused before anything is built or run (exit 3)" 3
case $out in *"refusing to change baselines in CI"*) pass "the CI refusal comes first" ;; *) fail "the CI refusal comes first" "$out" ;; esac

# Several runners merged by promote --runner: equal counters merge; a runner whose counters differ is refused
# with the test and the runners named, and the baselines stay as they were.
new_case
mkdir -p "$dir/runner-b" "$dir/runner-c"
candidate "$dir/runner-b" Suite a 1024
candidate "$dir/runner-b" Suite b 2048
run promote --candidates "$cand" --runner "$dir/runner-b" --baselines "$base" --new-gpu
expect_rc "promote --runner merges two runners' equal recordings" 0
[ -f "$base/$gpu_dir/Suite.json" ] && pass "the merged baseline is written" || fail "the merged baseline is written" "$out"
candidate "$dir/runner-c" Suite a 1056
candidate "$dir/runner-c" Suite b 2048
before=$(snapshot "$base")
run promote --candidates "$cand" --runner "$dir/runner-c" --baselines "$base"
expect_rc "promote --runner with a runner whose counters differ is refused (exit 3)" 3
case $out in *"cannot be merged"*"Suite.a"*"runner-c"*) pass "the refusal names the test and the runner" ;;
  *) fail "the refusal names the test and the runner" "$out" ;; esac
[ "$(snapshot "$base")" = "$before" ] && pass "a refused merge leaves the baselines as they were" ||
  fail "a refused merge leaves the baselines as they were"
run promote --candidates "$cand" --runner "$dir/no-such-runner" --baselines "$base"
expect_rc "promote --runner with a folder that does not exist is refused (exit 3)" 3
case $out in *"no candidates"*"no-such-runner"*) pass "the refusal names the missing runner's folder" ;;
  *) fail "the refusal names the missing runner's folder" "$out" ;; esac

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
