#!/usr/bin/env bash
# This repository's refresh: builds the seed catalogue, runs `bankgate refresh` on it (record, review table,
# promote into baselines/<arch>/<model>/), then regenerates the kernel table of docs/catalogue.md from the H200
# baselines.
#   tools/refresh-baselines.sh [--filter 'Suite.test:Other.*'] [--dry-run] [--new-gpu] [--force]
# Run it on the GPU the baselines are for, review the table and `git diff baselines/ docs/catalogue.md`, then commit.
# BANKGATE_GIT_COMMIT / BANKGATE_GIT_DIRTY=0|1 give the provenance where the tree is a copy without .git.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --filter) [ $# -ge 2 ] || bankgate_usage "--filter needs a GoogleTest pattern"; args+=(--filter "$2"); shift 2 ;;
    --dry-run | --new-gpu | --force) args+=("$1"); shift ;;
    -h | --help) sed -n '2,7p' "$0"; exit 0 ;;
    *) bankgate_usage "unknown option '$1' (use --filter PATTERN, --dry-run, --new-gpu, --force)" ;;
  esac
done
# Refusals first: nothing is built when the baselines may not change here.
if bankgate_is_ci && [[ " ${args[*]} " != *" --force "* && " ${args[*]} " != *" --dry-run "* ]]; then
  bankgate_die "refusing to change baselines in CI (CI is set): refresh on a GPU machine, review, commit; --force overrides"
fi
export BANKGATE_GIT_COMMIT=${BANKGATE_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
if bankgate_tree_dirty baselines docs/catalogue.md; then export BANKGATE_GIT_DIRTY=1; else export BANKGATE_GIT_DIRTY=0; fi
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/refresh}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
"$build_dir/cli/bankgate" refresh --build "$build_dir" --no-build "${args[@]}"
status=$?
[ "$status" -eq 0 ] || exit "$status"
[[ " ${args[*]} " == *" --dry-run "* ]] && exit 0

# The catalogue's kernel table is generated from the H200 baselines; rewrite it from what was just promoted so
# both are reviewed and committed together (tests/unit's readme_kernel_table checks that they agree).
exec "$build_dir/cli/bankgate" readme-table --baselines baselines --gpu sm_90/nvidia-h200 --readme docs/catalogue.md
