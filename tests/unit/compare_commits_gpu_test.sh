#!/usr/bin/env bash
# `bankgate compare-commits` to its verdict, which needs a GPU: examples/adopt in a git repository of its own,
# bankgate found in a prefix this build installs, two commits that differ by a comment only. Both are checked
# out, built and measured; their counters must agree exactly (the same code), the reports must be in run/ and
# the markdown summary appended to --markdown. The durations of two builds of the same code may still differ
# by chance on a busy machine, so the verdict may be 0, 1 (a duration only) or 5.
#
#   tests/unit/compare_commits_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER
#
# Exits 77 (Skipped), saying why, without a GPU, git or ninja. Prints "N passed, M failed".
set -uo pipefail
repo=${1:?usage: compare_commits_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER}
main_build=${2:?usage: compare_commits_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER}
nvcc=${3:?usage: compare_commits_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER}
nvidia-smi -L >/dev/null 2>&1 ||
  { echo "SKIPPED: no GPU here (nvidia-smi -L lists none): compare-commits measures both commits on one"; exit 77; }
for program in git ninja python3; do
  command -v "$program" >/dev/null 2>&1 || { echo "SKIPPED: no $program here; this test needs it"; exit 77; }
done
. "$(dirname "$0")/test_lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-compare-commits-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com

if out=$(cmake --install "$main_build" --prefix "$work/prefix" 2>&1); then pass "bankgate installs into a prefix"
else fail "bankgate installs into a prefix" "$out"; finish; exit; fi
project="$work/project"
cp -r "$repo/examples/adopt" "$project"
echo build/ >"$project/.gitignore"
git init -q "$project" && git -C "$project" add -A && git -C "$project" commit -qm base
echo '// a comment: the same kernel' >>"$project/transpose.cu"
git -C "$project" commit -qam head

summary="$work/step-summary.md"
run_timeout=1500 run "$work/prefix/bin/bankgate" compare-commits --source "$project" --rounds 2 --markdown "$summary" \
  "--cmake-arg=-DCMAKE_PREFIX_PATH=$work/prefix${CMAKE_PREFIX_PATH:+;${CMAKE_PREFIX_PATH//:/;}}" \
  "--cmake-arg=-DCMAKE_CUDA_COMPILER=$nvcc" --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=native HEAD~1 HEAD
case $rc in 0 | 1 | 5) pass "the comparison reaches a verdict (exit $rc)" ;; *) fail "the comparison reaches a verdict" "exit $rc: $out" ;; esac
results="$project/build/bankgate-compare/run"
for file in result.json summary.md report.html; do
  check "run/ holds $file" "[ -s '$results/$file' ]"
done
check "the markdown summary is appended to --markdown" "grep -q '^## bankgate compare' '$summary'"
# Every counter of the same code agrees; only durations may differ.
if changed=$(python3 - "$results/result.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
tests = result["tests"]
changed = [f"{t['test']}: {f['metric']} {f['verdict']}" for t in tests for f in t["findings"]
           if not f["timing"] and f["verdict"] != "ok"]
print("\n".join(changed) if tests else "no test compared")
sys.exit(1 if changed or not tests else 0)
PY
); then pass "no counter differs between two builds of the same code"
else fail "no counter differs between two builds of the same code" "$changed"; fi
finish
