# Shared by the bash tests of tests/unit (sourced, not run): counting checks, running the command under test,
# and suite files as GPU runs write them. Each test ends with `finish`, which prints "N passed, M failed".

passed=0 failed=0
test_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)  # tests/unit, wherever the test runs from
pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/       /'; return 0; }
check() { if eval "$2"; then pass "$1"; else fail "$1" "${3:-}"; fi; }  # check NAME CONDITION [DETAIL]
# run ARGS...: the command under a time limit (a read that blocks fails its check instead of the whole test),
# its exit code in $rc (124: it hung) and its output, stdout and stderr, in $out.
run() { out=$(timeout "${run_timeout:-120}" "$@" 2>&1); rc=$?; }
expect_rc() {  # expect_rc NAME WANT
  if [ "$rc" -eq "$2" ]; then pass "$1"; else fail "$1" "exit code $rc, expected $2 (124: it hung); output:"$'\n'"$out"; fi
}
expect_in() {  # expect_in NAME TEXT HAYSTACK
  case $3 in *"$2"*) pass "$1" ;; *) fail "$1" "no '$2' in:"$'\n'"$3" ;; esac
}
expect_not_in() {  # expect_not_in NAME TEXT HAYSTACK
  case $3 in *"$2"*) fail "$1" "'$2' in:"$'\n'"$3" ;; *) pass "$1" ;; esac
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# suite_file FILE TEST WAVEFRONTS: a SquareTile suite file (candidate or baseline) with one test.
# result_record FILE SUITE TEST OUTCOME MESSAGE: a test's result record (gate/protocol/test_result.hpp) with one
# message and no findings, as the suite process writes one; SUITE, TEST and MESSAGE go in as raw bytes between the
# JSON strings' quotes (give JSON escapes, such as \u001b, for control characters).
result_record() {
  mkdir -p "$(dirname "$1")"
  {
    printf '{"schema": "bankgate-test-result", "schema_version": 1, "suite": "%s", "test": "%s", ' "$2" "$3"
    printf '"outcome": "%s", "seconds": 0.7, "messages": ["' "$4"
    printf '%s' "$5"
    printf '"], "properties": {}, "wrong_output": false, "findings": []}\n'
  } >"$1"
}

suite_file() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<JSON
{
  "schema_version": 4, "suite": "SquareTile", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
  "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                 "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
                 "cupti_version": 130000, "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z",
                 "command": "fixture"},
  "tests": {"$2": {"kernel": "$2", "correct": true,
    "counters": {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": $3, "tolerance": {"kind": "exact"}}}}}
}
JSON
}

# passing_measurements CANDIDATES BASELINES SUITE.TEST...: for each test, a candidate and a baseline that agree (one
# counter, the same value), so that bankgate, judging the test itself, passes it; a result record alone never does.
passing_measurements() {
  python3 - "$@" <<'PY'
import json, os, sys
candidates, baselines, names = sys.argv[1], sys.argv[2], sys.argv[3:]
head = {"schema_version": 4, "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
        "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0",
                       "multiprocessor_count": 132, "driver_version": 13000, "driver_release": "580.159.04",
                       "cuda_runtime_version": 13000, "cupti_version": 130000, "git_commit": "0123abcd",
                       "git_dirty": False, "date": "2026-11-21T23:59:00Z", "command": "fixture"}}
def record(test):
    return {"kernel": test, "correct": True, "counters": {
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": 64, "tolerance": {"kind": "exact"}}}}
suites = {}
for name in names:
    suite, test = name.split(".", 1)
    suites.setdefault(suite, {})[test] = record(test)
    path = os.path.join(candidates, "sm_90", "nvidia-h200", suite, test + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump(dict(head, suite=suite, tests={test: record(test)}), open(path, "w"), indent=1)
for suite, tests in suites.items():
    path = os.path.join(baselines, "sm_90", "nvidia-h200", suite + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = json.load(open(path))["tests"] if os.path.exists(path) else {}
    json.dump(dict(head, suite=suite, tests=dict(old, **tests)), open(path, "w"), indent=1)
PY
}

# test_plan DIR PROGRAM SUITE.TEST...: the plan the measuring run of PROGRAM writes before its tests
# (gate/protocol/test_plan.hpp).
test_plan() {
  local dir=$1 program=$2
  shift 2
  mkdir -p "$dir"
  python3 -c 'import json, sys; json.dump({"schema": "bankgate-test-plan", "schema_version": 1, "program": sys.argv[2],
    "shard": 0, "filter": "", "tests": sys.argv[3:], "problem": ""}, open(sys.argv[1], "w"))' \
    "$dir/$program.0.plan.json" "$program" "$@"
}

# made_up_project NAME TOOL CMAKE PROGRAM...: the set-up of a test on a made-up git project whose GPU suite is
# fake_gpu_suite.py (history_cli_test.sh, bisect_test.sh), given the test's arguments TOOL (the bankgate command)
# and CMAKE: sets $tool and $cmake, puts CMAKE's ctest on PATH; exits 77 (Skipped) where a PROGRAM is missing;
# makes a scratch folder $root, removed at exit, and in it the empty repository $repo; gives git an identity and
# drops a caller's GIT_DIR and GIT_WORK_TREE. Then fake_suite_cmakelists writes the project, commit commits it.
made_up_project() {
  local name=$1 program
  [ -n "${2:-}" ] && [ -n "${3:-}" ] || { echo "usage: $(basename "$0") PATH/TO/bankgate CMAKE" >&2; exit 2; }
  tool=$2 cmake=$3
  export PATH="$(dirname "$cmake"):$PATH"
  shift 3
  for program in "$@"; do
    command -v "$program" >/dev/null 2>&1 || { echo "SKIPPED: no $program here (the test needs it)"; exit 77; }
  done
  root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-$name.XXXXXX")
  trap 'git -C "$root/repo" worktree prune >/dev/null 2>&1; rm -rf "$root"' EXIT
  export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
  unset GIT_DIR GIT_WORK_TREE
  repo="$root/repo"
  mkdir -p "$repo"
  git init -q "$repo"
  printf 'build/\n.bankgate/\n' >"$repo/.gitignore"
}

# fake_suite_cmakelists [--records] [LINE...]: the made-up project's CMakeLists.txt: one suite's measuring entry
# labelled gpu, bankgate.measure.fake, running fake_gpu_suite.py on the project, which measures
# SquareTile.setRowReadRow (with --records: writing its plan and result record too), then each LINE.
fake_suite_cmakelists() {
  local records=""
  [ "${1:-}" = --records ] && { records=' ${CMAKE_BINARY_DIR}/bankgate/gtest-results'; shift; }
  printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(fake NONE)' 'enable_testing()' \
    "add_test(NAME bankgate.measure.fake COMMAND python3 $test_lib_dir/fake_gpu_suite.py \${CMAKE_SOURCE_DIR} \${CMAKE_BINARY_DIR}$records)" \
    'set_tests_properties(bankgate.measure.fake PROPERTIES LABELS gpu)' "$@" >"$repo/CMakeLists.txt"
}

# commit MESSAGE: everything in $repo committed; prints the commit.
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1" && git -C "$repo" rev-parse HEAD; }
