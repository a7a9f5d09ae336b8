# Shared by the bash tests of tests/unit (sourced, not run): counting checks, running the command under test,
# and suite files as GPU runs write them. Each test ends with `finish`, which prints "N passed, M failed".

passed=0 failed=0
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
