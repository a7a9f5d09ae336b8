#!/usr/bin/env bash
# cmake/bankgateSuite.cmake against the run protocol (gate/include/bankgate/gate/protocol/run_protocol.hpp), no GPU needed.
# bankgate_add_gpu_suite() writes names into every project's build that the command and the suites use too: the
# results folder, in it the per-test reports and the suites' own measurements, and the measuring tests' names.
# CMake cannot include the header, so the file keeps copies, all in its macro _bankgate_run_protocol(). This
# test runs that macro with cmake -P and compares what it sets with what the command says (`bankgate
# protocol`), and fails when one of the names is spelt out anywhere else in the file (outside comments).
#   tests/unit/suite_protocol_test.sh BANKGATE CMAKE PROJECT_DIR
set -uo pipefail
tool=${1:?usage: suite_protocol_test.sh BANKGATE CMAKE PROJECT_DIR}
cmake=${2:?usage: suite_protocol_test.sh BANKGATE CMAKE PROJECT_DIR}
project=${3:?usage: suite_protocol_test.sh BANKGATE CMAKE PROJECT_DIR}
. "$(dirname "$0")/test_lib.sh"
suite_cmake="$project/cmake/bankgateSuite.cmake"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# What the macro sets, one NAME=VALUE line each.
cat >"$work/print.cmake" <<'CMAKE'
include("${suite_cmake}")
_bankgate_run_protocol()
foreach(name results_root gtest_results suite_candidates measure_test_prefix measuring_tests)
  message(NOTICE "${name}=${_bankgate_${name}}")
endforeach()
CMAKE
run "$cmake" -Dsuite_cmake="$suite_cmake" -P "$work/print.cmake"
expect_rc "cmake -P runs _bankgate_run_protocol()" 0
macro_output=$out
from_cmake() { sed -n "s/^$1=//p" <<<"$macro_output"; }
from_command() { "$tool" protocol --build /B --get "$1"; }

same() {  # same NAME CMAKE_VALUE COMMAND_VALUE
  if [ -n "$3" ] && [ "$2" = "$3" ]; then pass "$1 agrees: $3"; else fail "$1" "bankgateSuite.cmake gives '$2', the command '$3'"; fi
}
# The function builds its paths as "${CMAKE_BINARY_DIR}/<results_root>/<gtest_results>" and so on.
root="/B/$(from_cmake results_root)"
same "the results folder" "$root" "$(from_command layout.results_root)"
same "the per-test reports" "$root/$(from_cmake gtest_results)" "$(from_command layout.gtest_results)"
same "the suites' own candidates" "$root/$(from_cmake suite_candidates)" "$(from_command layout.suite_candidates)"
same "the measuring tests' folder" "$root/$(from_cmake measuring_tests)" "$(from_command layout.measuring_tests)"
same "the measuring tests' prefix" "$(from_cmake measure_test_prefix)" "$(from_command measure_test_prefix)"

# The function uses the macro, and no line but the macro's spells a name out: a quoted string or a path
# component ("gtest-results", /candidates, ${CMAKE_BINARY_DIR}/bankgate, "bankgate.measure.${name}").
code=$(grep -vE '^[[:space:]]*#' "$suite_cmake")
check "bankgate_add_gpu_suite() calls _bankgate_run_protocol()" \
  "grep -qE '^[[:space:]]*_bankgate_run_protocol\(\)' <<<\"\$code\""
spelt_out() {  # spelt_out VALUE: the lines outside the macro that spell VALUE out
  local escaped; escaped=$(sed 's/[.]/\\./g' <<<"$1")
  grep -vE '^[[:space:]]*set\(_bankgate_' <<<"$code" | grep -E "(^|[/\"])$escaped([/\"]|\\$|$)"
}
for name in results_root gtest_results suite_candidates measure_test_prefix measuring_tests; do
  value=$(from_cmake "$name")
  lines=$(spelt_out "$value")
  check "'$value' ($name) is written only in _bankgate_run_protocol()" '[ -z "$lines" ]' "$lines"
done
finish
