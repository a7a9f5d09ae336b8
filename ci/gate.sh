#!/usr/bin/env bash
# The performance gate: builds, runs the GPU suites in strict mode against the committed baselines, prints
# the result table and exits
#   0  every GPU test passed
#   1  a regression: a counter changed, a kernel got slower, or an output is wrong
#   2  nothing could be measured: no GPU, no counter permission, a missing baseline, or no GPU test ran
#   3  the build or the setup failed
# JUnit XML lands in <build>/gate-junit.xml, measurements in <build>/candidates/.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/gate}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
rm -rf "$build_dir/candidates"

export BANKGATE_REQUIRE_GPU=1  # a skipped GPU test is a failure here
ctest --test-dir "$build_dir" -L '^gpu$' --no-tests=error --output-on-failure \
  --output-junit "$PWD/$build_dir/gate-junit.xml" ${BANKGATE_CTEST_ARGS:-}
ctest_status=$?

echo
"$build_dir/tools/bankgate-baselines" table --candidates "$build_dir/candidates" --baselines "${BANKGATE_BASELINE_DIR:-baselines}"
table_status=$?

if [ "$ctest_status" -eq 0 ] && [ "$table_status" -eq 0 ]; then
  echo "bankgate gate: PASSED"; exit 0
fi
if [ "$table_status" -eq 1 ]; then
  echo "bankgate gate: FAILED - regression (details above; each failure names its refresh command)"; exit 1
fi
echo "bankgate gate: FAILED - could not measure (see the test output above for the reason)"; exit 2
