#!/usr/bin/env bash
# The performance gate: builds, runs the GPU suites in strict mode against the committed baselines, prints
# the result table and exits
#   0  every GPU test passed
#   1  a regression: a counter changed, a kernel got slower, or an output is wrong
#   2  nothing regressed, but something could not be measured: no GPU, no counter permission, a missing or
#      unreadable baseline, a skipped or crashed test, or no GPU test ran at all
#   3  the build or the setup failed
#
#   ci/gate.sh [--no-build]      (--no-build: use the existing build in BANKGATE_BUILD_DIR as it is)
#
# On a machine with several GPUs, the GPU tests are spread over all of them, one test per GPU at a time
# (a CTest resource spec from ci/write-resource-spec.sh). Results in <build>/gate-results/: junit.xml,
# candidates/ (what was measured) and summary.md; where $GITHUB_STEP_SUMMARY is set, the markdown summary
# (failures first, measured against baseline, refresh commands) is appended to it as well.
# BANKGATE_CTEST_ARGS adds ctest options (e.g. "-R ^SquareTile\."); BANKGATE_BASELINE_DIR another baselines root.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
build=1
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    *) bankgate_die "unknown option '$arg' (ci/gate.sh [--no-build])" ;;
  esac
done
build_dir=${BANKGATE_BUILD_DIR:-build/gate}
if [ "$build" = 1 ]; then
  bankgate_ensure_dependencies
  mkdir -p "$(dirname "$build_dir")"
  bankgate_build "$build_dir"
else
  [ -x "$build_dir/tools/bankgate-baselines" ] || bankgate_die "--no-build: $build_dir holds no build; run ci/gate.sh without it first"
fi
build_dir=$(cd "$build_dir" && pwd)
results="$build_dir/gate-results"
rm -rf "$results" "$build_dir/gtest-results"  # no report of an earlier run may explain this one
mkdir -p "$results"
baselines=${BANKGATE_BASELINE_DIR:-$PWD/baselines}

# One GPU test per GPU at a time, on every GPU CUDA shows; without a GPU the tests run unassigned and, in
# strict mode, fail with the reason.
resource_args=()
if gpus=$(bash ci/write-resource-spec.sh "$results/resources.json" 2>&1); then
  count=$(grep -o '"id"' "$results/resources.json" | wc -l)
  resource_args=(--resource-spec-file "$results/resources.json" --parallel "$count")
  echo "$gpus"
else
  echo "$gpus (the GPU tests will say why they cannot measure)"
fi

export BANKGATE_REQUIRE_GPU=1  # a GPU test that cannot measure fails instead of skipping
export BANKGATE_CANDIDATE_DIR="$results/candidates"
# shellcheck disable=SC2086  # BANKGATE_CTEST_ARGS holds several words on purpose
ctest --test-dir "$build_dir" -L '^gpu$' --no-tests=error --output-on-failure \
  --output-junit "$results/junit.xml" "${resource_args[@]}" ${BANKGATE_CTEST_ARGS:-}
echo

# The verdict and tables come from the files the run left (JUnit, GoogleTest reports, candidates), not from
# ctest's exit status alone, so a regression is told apart from a run that could not measure.
summary_args=(--junit "$results/junit.xml" --gtest-results "$build_dir/gtest-results"
  --candidates "$results/candidates" --baselines "$baselines" --markdown "$results/summary.md")
"$build_dir/tools/bankgate-baselines" gate-summary "${summary_args[@]}"
status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$results/summary.md" ]; then
  cat "$results/summary.md" >>"$GITHUB_STEP_SUMMARY" ||
    echo "bankgate: could not append the summary to GITHUB_STEP_SUMMARY=$GITHUB_STEP_SUMMARY" >&2
fi
case $status in
  0) echo "bankgate gate: PASSED" ;;
  1) echo "bankgate gate: FAILED - regression (details above; each failure names its refresh command)" ;;
  *) status=2; echo "bankgate gate: FAILED - could not measure (reasons above)" ;;
esac
exit "$status"
