#!/usr/bin/env bash
# Same-runner comparison: is HEAD slower than BASE on this machine, now?
#   ci/compare-commits.sh [--rounds R] [--filter 'Suite.test:Other.*'] [--fail-on-speedup] BASE HEAD
# BASE and HEAD are commits (anything `git rev-parse` takes: a SHA, a branch, origin/main, HEAD~1) or source
# folders ("." is this working tree, uncommitted edits included). Both are built (commits in git worktrees
# under the scratch folder), then the GPU suite binaries of the two builds run in R rounds (default 5),
# alternating base and head suite by suite and swapping which goes first every round, so that a drifting
# machine (clocks, temperature, a neighbour on a shared runner) weighs on both sides alike. `bankgate compare`
# on the two build folders judges each duration by the spread of its rounds (SLOWER, ok or INCONCLUSIVE, exit
# 5) and counters by the gate's rule, and prints test, base, head, change and verdict.
#
# This is what a pre-merge gate on a shared runner should use: the committed baselines were measured on
# another machine, at another time; BASE measured here and now has the same machine and the same drift.
#
# Before the rounds, a round 0 of the base build (not pooled) warms the machine up and fixes each test's
# launches per sample: its results become the baselines both builds read during the rounds (never the
# committed ones), so both sides sample every test alike even where no committed baseline says how.
# Exit codes are the tool's: 0 no regression, 1 a regression (slower, a counter changed, a wrong output),
# 2 nothing to compare (no GPU, no candidates) or bad arguments; 3 when a build or the setup failed.
# Scratch: $BANKGATE_COMPARE_DIR (default build/compare): worktrees and builds are reused by later runs
# (remove the folder and run `git worktree prune` to reclaim the space); logs and candidates of the last run
# are in <head build>/bankgate/compare/ (copied to $BANKGATE_COMPARE_DIR/run: logs/, result.json, report.html).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
. ci/lib.sh

rounds=5
filter=""
tool_args=()
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) [ $# -ge 2 ] || bankgate_die "--rounds needs a number"; rounds=$2; shift 2 ;;
    --filter) [ $# -ge 2 ] || bankgate_die "--filter needs a GoogleTest pattern"; filter=$2; shift 2 ;;
    --fail-on-speedup) tool_args+=(--fail-on-speedup); shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    -*) bankgate_usage "unknown option '$1'" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || bankgate_usage "usage: ci/compare-commits.sh [--rounds R] [--filter PATTERN] [--fail-on-speedup] BASE HEAD"
case "$rounds" in ''|*[!0-9]*|0) bankgate_usage "--rounds takes a positive whole number, not '$rounds'" ;; esac
[ "${BANKGATE_FAIL_ON_SPEEDUP:-0}" = 1 ] && tool_args+=(--fail-on-speedup)

bankgate_ensure_dependencies
scratch=${BANKGATE_COMPARE_DIR:-build/compare}
mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)

# resolve SPEC -> "KEY SOURCE_DIR": a folder is used as it is; a commit gets a worktree of its own.
resolve() {
  local spec=$1
  if [ -d "$spec" ]; then
    local dir; dir=$(cd "$spec" && pwd)
    [ -f "$dir/CMakeLists.txt" ] && [ -f "$dir/ci/lib.sh" ] || bankgate_die "$spec is a folder but not a checkout of this repository"
    echo "$(bankgate_folder_key "$dir") $dir"
    return
  fi
  git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 ||
    bankgate_die "'$spec' is not a folder and $repo has no git repository to find it in (pass source folders instead)"
  local sha
  sha=$(git -C "$repo" rev-parse --verify --quiet "$spec^{commit}") || bankgate_die "'$spec' is neither a folder nor a commit of this repository"
  local tree="$scratch/src/${sha:0:12}"
  if [ ! -f "$tree/CMakeLists.txt" ] || [ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" != "$sha" ]; then
    rm -rf "$tree"
    git -C "$repo" worktree prune
    git -C "$repo" worktree add --detach --force "$tree" "$sha" >/dev/null 2>&1 ||
      bankgate_die "could not check out $spec ($sha) into $tree"
  fi
  echo "${sha:0:12} $tree"
}

read -r base_key base_src < <(resolve "${positional[0]}") || exit 3
read -r head_key head_src < <(resolve "${positional[1]}") || exit 3
[ -n "${base_src:-}" ] && [ -n "${head_src:-}" ] || exit 3
echo "bankgate compare: base ${positional[0]} ($base_key), head ${positional[1]} ($head_key), $rounds round(s)"

build() {  # build KEY SOURCE_DIR: one build per distinct source; the same commit twice is built once
  local dir="$scratch/build/$1"
  mkdir -p "$scratch/build"
  echo "bankgate compare: building $2 in $dir"
  (cd "$2" && bankgate_build "$dir") || exit 3
}
build "$base_key" "$base_src"
[ "$head_key" = "$base_key" ] || build "$head_key" "$head_src"
base_build="$scratch/build/$base_key"
head_build="$scratch/build/$head_key"
tool="$head_build/cli/bankgate"
[ -x "$tool" ] || bankgate_die "the head build has no cli/bankgate"
work=$(bankgate_result_path "$tool" "$head_build" compare) || exit 3
logs=$(bankgate_result_path "$tool" "$head_build" compare_logs) || exit 3

# The rounds, the pooling and the verdict are the command's (`bankgate compare` on two build folders).
args=(compare --base "$base_build" --head "$head_build" --rounds "$rounds" "${tool_args[@]}")
[ -n "$filter" ] && args+=(--filter "$filter")
"$tool" "${args[@]}"
status=$?
# What CI keeps: the logs, result.json and report.html, in one place whatever the commits' keys.
rm -rf "$scratch/run" && mkdir -p "$scratch/run" && cp -r "$work/." "$scratch/run/" 2>/dev/null
inconclusive=$("$tool" protocol --get exit_codes.inconclusive 2>/dev/null)
case "$status" in
  0) echo "bankgate compare: PASSED - head is not slower than base" ;;
  1) echo "bankgate compare: FAILED - head regressed against base (rows above)" ;;
  "$inconclusive") echo "bankgate compare: INCONCLUSIVE - no regression found, but some tests' rounds were too noisy to decide (rows above; try more --rounds)" ;;
  *) echo "bankgate compare: could not compare (exit $status; see above; logs in $logs)" ;;
esac
exit "$status"
