#!/usr/bin/env bash
# Re-measures the GPU suites and promotes the results into baselines/ after showing old / new / change.
#   ci/refresh-baselines.sh [--filter 'Suite.test:Other.*'] [--dry-run] [--new-gpu] [--force]
# Only tests whose output matched the CPU reference are promoted. Run it on the GPU the baselines are for,
# review the table and `git diff baselines/ README.md`, then commit. After a promotion the README's kernel
# table is regenerated from the H200 baselines (bankgate-baselines readme-table).
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
filter=""
promote_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) [ $# -ge 2 ] || bankgate_die "--filter needs a GoogleTest pattern"; filter=$2; promote_args+=(--filter "$2"); shift 2 ;;
    --dry-run|--new-gpu|--force) promote_args+=("$1"); shift ;;
    *) bankgate_die "unknown option '$1' (use --filter PATTERN, --dry-run, --new-gpu, --force)" ;;
  esac
done
invocation="ci/refresh-baselines.sh${filter:+ --filter '$filter'}"
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/refresh}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
rm -rf "$build_dir/candidates"
# Tests may fail here (that is why a refresh is wanted); their measurements are still written as candidates.
ctest --test-dir "$build_dir" -L '^gpu$' -R "$(bankgate_filter_regex "$filter")" --output-on-failure >"$build_dir/refresh-run.log" 2>&1 ||
  echo "bankgate: some GPU tests failed against the old baselines (expected after a change); log: $build_dir/refresh-run.log"

# Provenance. BANKGATE_GIT_COMMIT / BANKGATE_GIT_DIRTY=0|1 stand in where the tree is a copy without .git.
commit=${BANKGATE_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
dirty=()
bankgate_tree_dirty baselines README.md && dirty=(--git-dirty)  # both written here
"$build_dir/tools/bankgate-baselines" promote --candidates "$build_dir/candidates" --baselines baselines \
  --git-commit "$commit" "${dirty[@]}" --command "$invocation" "${promote_args[@]}"
status=$?
[ "$status" -eq 0 ] || exit "$status"
case " ${promote_args[*]} " in *" --dry-run "*) exit 0 ;; esac

# The README's kernel table is generated from the H200 baselines; rewrite it from what was just promoted so
# both are reviewed and committed together (tests/unit's readme_kernel_table checks that they agree).
"$build_dir/tools/bankgate-baselines" readme-table --baselines baselines --gpu sm_90/nvidia-h200 --readme README.md
status=$?
if [ "$status" -ne 0 ]; then
  echo "bankgate: the baselines were written, but README.md's kernel table could not be regenerated (see above)" >&2
  exit "$status"
fi
