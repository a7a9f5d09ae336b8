#!/usr/bin/env bash
# Same-runner comparison: is HEAD slower than BASE on this machine, now?
#   ci/compare-commits.sh [--rounds R] [--filter 'Suite.test:Other.*'] [--fail-on-speedup] [--markdown FILE] BASE HEAD
# BASE and HEAD are commits (anything `git rev-parse` takes: a SHA, a branch, origin/main, HEAD~1) or "." (this
# working tree, uncommitted edits included). This runs `bankgate compare-commits` (docs/cli.md), the command any
# project adopting bankgate runs, with this repository's build settings: each commit is checked out in a git
# worktree and built, then the GPU suites of the two builds run in R rounds (default 5), alternating base and
# head and swapping which goes first every round, so that a drifting machine (clocks, temperature, a neighbour
# on a shared runner) weighs on both sides alike. Durations are judged by the spread of their rounds (SLOWER, ok
# or INCONCLUSIVE), counters by the gate's rule. Every other option of `bankgate compare-commits` is passed on.
#
# This is what a pre-merge gate on a shared runner should use: the committed baselines were measured on
# another machine, at another time; BASE measured here and now has the same machine and the same drift.
#
# Exit codes are the command's: 0 no regression, 1 a regression (slower, a counter changed, a wrong output),
# 2 nothing to compare (no GPU, no candidates), 3 when git, a checkout, a configure or a build failed, 5 when
# no regression was found but a test's rounds were too noisy to decide, 64 a usage error.
# Scratch: $BANKGATE_COMPARE_DIR (default build/compare): worktrees and builds are reused by later runs
# (remove the folder and run `git worktree prune` to reclaim the space); the last run's build logs, round logs,
# result.json, summary.md and report.html are in $BANKGATE_COMPARE_DIR/run/. BANKGATE_CMAKE_ARGS reaches both
# configures; BANKGATE_FAIL_ON_SPEEDUP=1 adds --fail-on-speedup.
#
# Why the command and not lib.sh's bankgate_build for the two commits: the checkouts, their builds and logs, and
# the verdict are the command's, kept in one place for every project; this script only adds what builds of
# this repository need (the dependencies, the nvcc lib.sh finds, BANKGATE_CMAKE_ARGS) and builds the command
# itself from this tree, in the folder where compare-commits builds "." with the same settings.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
. ci/lib.sh

for arg in "$@"; do
  case $arg in -h | --help) sed -n '2,27p' "$0"; exit 0 ;; esac
done
bankgate_ensure_dependencies
scratch=${BANKGATE_COMPARE_DIR:-build/compare}
mkdir -p "$scratch/build"
scratch=$(cd "$scratch" && pwd)

# The same configure as bankgate_configure's, for each commit.
args=(--source "$repo" --work "$scratch" "--cmake-arg=-DCMAKE_CUDA_COMPILER=$BANKGATE_NVCC")
# shellcheck disable=SC2086  # BANKGATE_CMAKE_ARGS holds several words on purpose
for word in ${BANKGATE_CMAKE_ARGS:-}; do args+=("--cmake-arg=$word"); done
[ "${BANKGATE_FAIL_ON_SPEEDUP:-0}" = 1 ] && args+=(--fail-on-speedup)

tool_build=$scratch/build/working-tree
bankgate_configure "$tool_build"
cmake --build "$tool_build" --target bankgate >"$tool_build.command.log" 2>&1 ||
  { tail -n 30 "$tool_build.command.log" >&2; bankgate_die "building the bankgate command in $tool_build failed (log: $tool_build.command.log)"; }
exec "$tool_build/cli/bankgate" compare-commits "${args[@]}" "$@"
