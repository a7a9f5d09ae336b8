#!/usr/bin/env bash
# What a project's tests say on a machine without a GPU, with the catalogue's suite as `ctest -V` runs it (the
# measuring run `bankgate run-suite`, then a `bankgate verdict` per test): the reason once per suite process, in a
# user's words, never bankgate's own source file, never "driver version is insufficient" for a machine without a
# driver, the setting that turns skips into failures offered once; and the report names the build's commit, not
# "commit unknown". Exit 77 (skipped) where a GPU is present.
#   tests/unit/no_gpu_console_test.sh BANKGATE SUITE BUILD SOURCE_DIR FIXTURES
set -uo pipefail
bankgate=${1:?usage: no_gpu_console_test.sh BANKGATE SUITE BUILD SOURCE_DIR FIXTURES}
suite=${2:?} build=${3:?} source=${4:?} fixtures=${5:?}
. "$(dirname "$0")/test_lib.sh"
if nvidia-smi -L >/dev/null 2>&1; then echo "skipped: this machine has a GPU"; exit 77; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-no-gpu-console.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset BANKGATE_REQUIRE_GPU BANKGATE_RUN_MANIFEST BANKGATE_GIT_COMMIT BANKGATE_GIT_DIRTY

count() { grep -o -F -- "$1" <<<"$2" | wc -l; }  # count TEXT HAYSTACK

run "$bankgate" run-suite --binary "$suite" --results "$work/results"
expect_rc "the measuring run passes without a GPU" 0
measuring=$out
tests=$(ls "$work/results"/*.result.json 2>/dev/null | wc -l)
check "the measuring run ran the whole suite in one process" '[ "$tests" -gt 20 ]' "$tests result files"
reason="no GPU on this machine (no NVIDIA driver is installed: libcuda.so.1 cannot be loaded); GPU tests are skipped"
check "its reason is printed once for all $tests tests" '[ "$(count "$reason" "$measuring")" -eq 1 ]' "$measuring"
check "every test is still reported skipped" '[ "$(count "[  SKIPPED ]" "$measuring")" -ge "$tests" ]' "$measuring"
expect_not_in "bankgate's own source file is not named" "gate_fixture.cpp" "$measuring"
expect_not_in "a missing driver is not called an insufficient one" "driver version is insufficient" "$measuring"
check "BANKGATE_REQUIRE_GPU is offered once, as an option" \
  '[ "$(count BANKGATE_REQUIRE_GPU "$measuring")" -eq 1 ] && grep -q "set BANKGATE_REQUIRE_GPU=1" <<<"$measuring"' "$measuring"

run "$bankgate" verdict --results "$work/results" --test Reverse.staticReverse
expect_rc "a test's own entry is skipped, by the exit code ctest's SKIP_RETURN_CODE names" 77
expect_in "it says why, in the same words" "$reason" "$out"
expect_in "it says SKIPPED" "[  SKIPPED ] Reverse.staticReverse" "$out"
expect_not_in "it names no source file of bankgate" "gate_fixture.cpp" "$out"
expect_not_in "it offers no setting the user did not ask about" "BANKGATE_REQUIRE_GPU" "$out"

# Asked to measure (as bankgate gate asks), the test fails, and says why it fails rather than skips.
run env BANKGATE_REQUIRE_GPU=1 "$suite" --gtest_filter=Reverse.staticReverse
expect_rc "with BANKGATE_REQUIRE_GPU=1 the test fails" 1
expect_in "the failure says the run asked for measurements" "a failure, not a skip: BANKGATE_REQUIRE_GPU=1 asks every GPU test to measure" "$out"
expect_not_in "the failure names no source file of bankgate" "gate_fixture.cpp" "$out"

# The report of a run that measured nothing names the commit of the build's sources.
if commit=$(git -C "$source" rev-parse HEAD 2>/dev/null); then
  run "$bankgate" summary --gtest-results "$fixtures/gate_summary/gtest-results" --build "$build" --markdown "$work/summary.md"
  markdown=$(cat "$work/summary.md" 2>/dev/null)
  expect_in "the report names the build's commit" "commit ${commit:0:12}" "$markdown"
  expect_not_in "and never 'commit unknown'" "commit unknown" "$markdown"
else
  echo "note: $source is no git checkout; the commit check does not apply"
fi
finish
