#!/usr/bin/env bash
# This repository's gate: builds the seed catalogue and runs `bankgate gate` on it (the same command any
# project runs on its own build folder). Exit codes are the command's:
#   0  every GPU test passed
#   1  a regression: a counter changed, a kernel got slower, or an output is wrong
#   2  nothing regressed, but something could not be measured: no GPU, no counter permission, a missing or
#      unreadable baseline, a skipped or crashed test, or no GPU test ran at all
#   3  the build or the set-up failed
#   64 a usage error
#
#   ci/gate.sh [--no-build]      (--no-build: use the existing build in BANKGATE_BUILD_DIR as it is)
#
# On a machine with several GPUs the suites are spread over all of them, one measuring run per GPU at a time (a
# CTest resource spec from bankgate-resource-spec, built beside the command). Reports in <build>/bankgate/gate/:
# junit.xml (failure reasons in each failure's message), summary.json, summary.md, candidates/; where
# $GITHUB_STEP_SUMMARY is set, the markdown summary is appended to it. BANKGATE_CTEST_ARGS adds ctest options
# (e.g. "--timeout 900"; tests are chosen with BANKGATE_FILTER, GoogleTest's syntax, e.g. "SquareTile.*").
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
build=1
for arg in "$@"; do
  case $arg in
    --no-build) build=0 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    *) bankgate_usage "unknown option '$arg' (ci/gate.sh [--no-build])" ;;
  esac
done
build_dir=${BANKGATE_BUILD_DIR:-build/gate}
if [ "$build" = 1 ]; then
  bankgate_ensure_dependencies
  mkdir -p "$(dirname "$build_dir")"
  bankgate_build "$build_dir"
fi
tool="$build_dir/cli/bankgate"
[ -x "$tool" ] || bankgate_die "$build_dir holds no build of the bankgate command; run ci/gate.sh without --no-build first"
build_dir=$(cd "$build_dir" && pwd)
# Where `bankgate gate` writes its reports, as the command says (the CI templates upload them).
junit=$(bankgate_result_path "$tool" "$build_dir" gate_junit) || exit 3
summary_json=$(bankgate_result_path "$tool" "$build_dir" gate_summary_json) || exit 3
summary_md=$(bankgate_result_path "$tool" "$build_dir" gate_summary_markdown) || exit 3
candidates=$(bankgate_result_path "$tool" "$build_dir" gate_candidates) || exit 3
spec=$(bankgate_result_path "$tool" "$build_dir" resource_spec) || exit 3

args=(gate --build "$build_dir" --no-build)
mkdir -p "$(dirname "$spec")"
if gpus=$(bash "$build_dir/cli/bankgate-resource-spec" "$spec" 2>&1); then
  args+=(--resource-spec "$spec")  # one measuring run per GPU at a time; the command sets ctest's parallelism
  echo "$gpus"
else
  echo "$gpus (the GPU tests will say why they cannot measure)"
fi
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && args+=(--markdown "$GITHUB_STEP_SUMMARY")
[ -n "${BANKGATE_FILTER:-}" ] && args+=(--filter "$BANKGATE_FILTER")
# shellcheck disable=SC2086  # BANKGATE_CTEST_ARGS holds several words on purpose
for word in ${BANKGATE_CTEST_ARGS:-}; do args+=("--ctest-arg=$word"); done
"$tool" "${args[@]}"
status=$?
echo "reports: $junit, $summary_json, $summary_md; measurements: $candidates"
[ -f "$junit" ] && [ -f "$summary_md" ] && [ -d "$candidates" ] ||
  echo "bankgate: (some reports are missing: the run stopped before measuring)" >&2
exit "$status"
