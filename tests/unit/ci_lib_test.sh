#!/usr/bin/env bash
# ci/lib.sh's rules, no GPU needed.
#   Provenance, bankgate_tree_dirty: BANKGATE_GIT_DIRTY answers for a copy without .git, and a value other than
#   0 or 1 stops the script with a message naming the variable.
#   CI, bankgate_is_ci: every spelling of CI in the table below means what the table says: CI, not CI, or a
#   value refused (exit 3, naming it) rather than guessed. Given the command, `bankgate promote` is run over
#   the same table: a script decides before minutes of building, the command after them, and they must agree.
#   Given the command, lib.sh's exit codes are checked against the command's too.
#   Dependencies: what building and gating need never includes the tests' own Python modules (PyYAML,
#   jsonschema); bankgate_ensure_test_dependencies asks for both, and only the scripts that run tests call it.
#   tests/unit/ci_lib_test.sh PROJECT_DIR [BANKGATE]
set -uo pipefail
project=${1:?usage: ci_lib_test.sh PROJECT_DIR [BANKGATE]}
tool=${2:-}
. "$(dirname "$0")/test_lib.sh"

dirty() {  # dirty NAME WANT_STATUS VALUE [WANT_TEXT]
  local out status
  out=$(cd "$project" && BANKGATE_GIT_DIRTY=$3 bash -c '. ci/lib.sh; bankgate_tree_dirty' 2>&1)
  status=$?
  if [ "$status" = "$2" ] && { [ -z "${4:-}" ] || [[ $out == *"$4"* ]]; }; then pass "$1"; else fail "$1" "exit $status, output: $out"; fi
}
dirty "BANKGATE_GIT_DIRTY=1 means uncommitted changes" 0 1
dirty "BANKGATE_GIT_DIRTY=0 means a clean tree" 1 0
dirty "BANKGATE_GIT_DIRTY=yes is refused (exit 3), naming the variable" 3 yes "BANKGATE_GIT_DIRTY must be 0"

# What bankgate_is_ci makes of CI=$1 ("<unset>": no CI at all): ci, not-ci, refused, or what went wrong.
script_says() {
  local out status
  if [ "$1" = "<unset>" ]; then
    out=$(cd "$project" && env -u CI bash -c '. ci/lib.sh; bankgate_is_ci' 2>&1)
  else
    out=$(cd "$project" && CI=$1 bash -c '. ci/lib.sh; bankgate_is_ci' 2>&1)
  fi
  status=$?
  case $status:$out in
    0:) echo ci ;;
    1:) echo not-ci ;;
    3:*"CI='$1' is not a yes/no value"*"refusing to guess"*) echo refused ;;
    *) echo "exit $status: $out" ;;
  esac
}

# What `bankgate promote` makes of CI=$1: it refuses in CI before it looks for candidates, and there are none.
empty=$(mktemp -d)
trap 'rm -rf "$empty"' EXIT
command_says() {
  local out status
  if [ "$1" = "<unset>" ]; then
    out=$(env -u CI "$tool" promote --candidates "$empty" --baselines "$empty" 2>&1)
  else
    out=$(CI=$1 "$tool" promote --candidates "$empty" --baselines "$empty" 2>&1)
  fi
  status=$?
  case $status:$out in
    3:*"refusing to change baselines in CI"*) echo ci ;;
    3:*"no candidates in"*) echo not-ci ;;
    3:*"CI='$1' is not a yes/no value"*"refusing to guess"*) echo refused ;;
    *) echo "exit $status: $out" ;;
  esac
}

agrees() {  # agrees VALUE WANT
  local script; script=$(script_says "$1")
  if [ "$script" = "$2" ]; then pass "CI='$1': ci/lib.sh says $2"; else fail "CI='$1': ci/lib.sh" "wanted $2, got: $script"; fi
  [ -n "$tool" ] || return 0
  local command; command=$(command_says "$1")
  if [ "$command" = "$2" ]; then pass "CI='$1': the command says $2"; else fail "CI='$1': the command" "wanted $2, got: $command"; fi
}
for value in 1 true TRUE True tRuE yes YES Yes on ON On; do agrees "$value" ci; done
for value in "<unset>" "" 0 false FALSE False no NO No off OFF Off; do agrees "$value" not-ci; done
for value in 2 01 y n t maybe enabled " 1" "1 " "true " "yes please" "ja" "on/off"; do agrees "$value" refused; done

# The packages each kind of script asks for, on a machine where no Python module is found (a python3 that fails
# on every import) and with installing replaced by a line naming the packages: a stand-in toolkit (nvcc, cupti.h)
# keeps the check off the real one.
stand_ins="$empty/stand-ins"
mkdir -p "$stand_ins/bin" "$stand_ins/cuda/bin" "$stand_ins/cuda/include"
printf '#!/bin/sh\nexit 1\n' >"$stand_ins/bin/python3"
printf '#!/bin/sh\nexit 0\n' >"$stand_ins/cuda/bin/nvcc"
chmod +x "$stand_ins/bin/python3" "$stand_ins/cuda/bin/nvcc"
: >"$stand_ins/cuda/include/cupti.h"
asks_for() {  # asks_for FUNCTION: the packages FUNCTION would install, or what went wrong
  (cd "$project" && PATH="$stand_ins/bin:$PATH" CUDA_HOME="$stand_ins/cuda" bash -c \
    ". ci/lib.sh; bankgate_install_packages() { echo \"install: \$*\"; }; $1; echo done" 2>&1)
}
gate_needs=$(asks_for bankgate_ensure_dependencies)
expect_in "building and gating: the dependencies are checked" "done" "$gate_needs"
expect_not_in "building and gating: no PyYAML asked for" "python3-yaml" "$gate_needs"
expect_not_in "building and gating: no jsonschema asked for" "python3-jsonschema" "$gate_needs"
test_needs=$(asks_for bankgate_ensure_test_dependencies)
expect_in "the tests: PyYAML asked for" "python3-yaml" "$test_needs"
expect_in "the tests: jsonschema asked for" "python3-jsonschema" "$test_needs"
expect_in "the tests: asked for in one go" "python3-yaml python3-jsonschema" "$test_needs"
check "ci/test.sh asks for the tests' dependencies" "grep -q '^bankgate_ensure_test_dependencies' '$project/ci/test.sh'"
for script in "$project"/ci/gate.sh "$project"/ci/compare-commits.sh "$project"/bench/*.sh; do
  check "${script#"$project"/} asks for nothing only tests need" "! grep -q 'bankgate_ensure_test_dependencies' '$script'"
done

# lib.sh's bankgate_die and bankgate_usage exit with the command's codes for a failed set-up and a usage error.
exit_of() { (cd "$project" && bash -c ". ci/lib.sh; $1 message" >/dev/null 2>&1); echo $?; }
if [ -n "$tool" ]; then
  check "bankgate_die exits with the command's set-up code" '[ "$(exit_of bankgate_die)" = "$("$tool" protocol --get exit_codes.setup)" ]'
  check "bankgate_usage exits with the command's usage code" '[ "$(exit_of bankgate_usage)" = "$("$tool" protocol --get exit_codes.usage)" ]'
fi
finish
