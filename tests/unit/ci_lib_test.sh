#!/usr/bin/env bash
# ci/lib.sh's provenance rule, bankgate_tree_dirty: BANKGATE_GIT_DIRTY answers for a copy without .git, and a
# value other than 0 or 1 stops the script with a message naming the variable (no GPU needed).
#   tests/unit/ci_lib_test.sh PROJECT_DIR
set -uo pipefail
project=${1:?usage: ci_lib_test.sh PROJECT_DIR}
passed=0
failed=0
check() {  # check NAME WANT_STATUS VALUE [WANT_TEXT]
  local out status
  out=$(cd "$project" && BANKGATE_GIT_DIRTY=$3 bash -c '. ci/lib.sh; bankgate_tree_dirty' 2>&1)
  status=$?
  if [ "$status" = "$2" ] && { [ -z "${4:-}" ] || [[ $out == *"$4"* ]]; }; then
    passed=$((passed + 1)); echo "ok   - $1"
  else
    failed=$((failed + 1)); echo "FAIL - $1: exit $status, output: $out" >&2
  fi
}
check "BANKGATE_GIT_DIRTY=1 means uncommitted changes" 0 1
check "BANKGATE_GIT_DIRTY=0 means a clean tree" 1 0
check "BANKGATE_GIT_DIRTY=yes is refused (exit 3), naming the variable" 3 yes "BANKGATE_GIT_DIRTY must be 0"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
