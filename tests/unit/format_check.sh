#!/usr/bin/env bash
# The C++ and CUDA sources are laid out as .clang-format says (the catalogue's kernels and the test fixtures keep
# theirs: their own .clang-format disables it). Run by ctest; fix a failure with
#   clang-format -i $(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
# Layouts differ between clang-format releases, so the check runs with release 14, the one the sources were
# formatted with, and is Skipped (exit 77) with the reason elsewhere.
set -euo pipefail
repo=$1
cd "$repo"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "SKIPPED: no clang-format here (install clang-format 14 to check the layout)"; exit 77
fi
release=$(clang-format --version | sed -n 's/.*clang-format version \([0-9]*\)\..*/\1/p')
if [ "$release" != 14 ]; then
  echo "SKIPPED: clang-format $release here; the layout is checked with release 14"; exit 77
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIPPED: $repo is not a git checkout, so its sources cannot be listed"; exit 77
fi
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! clang-format --dry-run --Werror "${sources[@]}" 2>"$log"; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' "$log" | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  echo "fix: clang-format -i \$(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')"
  exit 1
fi
echo "${#sources[@]} sources formatted as .clang-format says"
