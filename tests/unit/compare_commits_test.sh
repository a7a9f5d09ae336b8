#!/usr/bin/env bash
# `bankgate compare-commits` in tiny git repositories (CMake projects without languages, whose "GPU suite" is a
# ctest entry labelled gpu that measures nothing), and `bankgate compare --markdown` on recorded candidates.
# No GPU: a comparison gets as far as its rounds, which measure nothing (exit 2).
#   - refusals: no git repository, an unknown commit, a revision that reads as an option, a head without GPU
#     suites; usage errors (exit 64);
#   - each commit in a detached worktree at that commit, built in a folder of its own with the --cmake-arg's,
#     reused by the next run while unchanged, made again where edited; "." builds the working tree, edits
#     included; --source names a project in a folder of the repository;
#   - a configure or build that fails: exit 3, the message naming the side, the commit, the step and the log;
#   - compare --markdown: the summary appended, headed as a comparison, an unwritable file said and the
#     verdict kept.
#
#   tests/unit/compare_commits_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE
#
# Exits 77 (Skipped) where git or ninja is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
tool=${1:?usage: compare_commits_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
fixtures=${2:?usage: compare_commits_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
cmake=${3:?usage: compare_commits_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
for program in git ninja; do
  command -v "$program" >/dev/null 2>&1 || { echo "SKIPPED: no $program here; compare-commits needs it"; exit 77; }
done
export PATH="$(dirname "$cmake"):$PATH"  # the cmake and ctest of this build are those the command runs

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-compare-commits.XXXXXX")
trap 'rm -rf "$root"' EXIT
. "$(dirname "$0")/test_lib.sh"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
unset GIT_DIR GIT_WORK_TREE

# project DIR [EXTRA CMAKE LINE]: a CMake project whose ctest has one entry labelled gpu.
project() {
  mkdir -p "$1"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(tiny NONE)' 'enable_testing()' \
    'add_test(NAME bankgate.measure.tiny COMMAND ${CMAKE_COMMAND} -E true)' 'set_tests_properties(bankgate.measure.tiny PROPERTIES LABELS gpu)' \
    "${2:-}" >"$1/CMakeLists.txt"
}
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1" && git -C "$repo" rev-parse HEAD; }

repo="$root/repo"
git init -q "$repo"
echo build/ >"$repo/.gitignore"  # as a project keeps its builds out of git
project "$repo"
first=$(commit first)
echo '# the second commit' >>"$repo/CMakeLists.txt"
second=$(commit second)
work="$repo/build/bankgate-compare"

# ---------------------------------------------------------------------------------------------------------
# 1. Usage errors and refusals, before anything is checked out or built.
run "$tool" compare-commits HEAD
expect_rc "one commit only: a usage error (exit 64)" 64
run "$tool" compare-commits HEAD~1 HEAD --rounds 0
expect_rc "--rounds 0: a usage error (exit 64)" 64
run "$tool" compare-commits HEAD~1 HEAD --cmake-args=-DX=1
expect_rc "a misspelt option: a usage error (exit 64)" 64
expect_in "a misspelt option: the nearest is named" "did you mean '--cmake-arg'?" "$out"

mkdir -p "$root/plain"
run bash -c "cd '$root/plain' && '$tool' compare-commits HEAD~1 HEAD"
expect_rc "outside a git repository: refused (exit 3)" 3
expect_in "outside a git repository: says so" "$root/plain is not in a git repository" "$out"
run "$tool" compare-commits --source "$root/plain" HEAD~1 HEAD
expect_rc "--source outside a git repository: refused (exit 3)" 3
run bash -c "cd '$repo' && '$tool' compare-commits no-such-branch HEAD"
expect_rc "an unknown commit: refused (exit 3)" 3
expect_in "an unknown commit: named, with the way to fetch it" "'no-such-branch' names no commit of the repository $repo" "$out"
expect_in "an unknown commit: a shallow clone named" "fetch-depth: 0" "$out"
run "$tool" compare-commits --source "$repo" -- HEAD --upload-pack=x
expect_rc "a revision that reads as an option: refused (exit 3)" 3
expect_in "a revision that reads as an option: said" "'--upload-pack=x' is not a revision" "$out"
check "nothing is checked out for a refused command line" "[ ! -d '$work/src' ]"

# ---------------------------------------------------------------------------------------------------------
# 2. Both commits checked out and built; the rounds measure nothing here (no GPU).
# Run from a folder of the repository without --source: the project is the repository's top level.
mkdir -p "$repo/docs"
run bash -c "cd '$repo/docs' && '$tool' compare-commits --rounds 1 '--cmake-arg=-DPLANTED_SETTING=planted value' HEAD~1 HEAD"
expect_rc "no GPU: the rounds measure nothing (exit 2)" 2
expect_in "no GPU: says the base measured nothing" "the base build measured nothing" "$out"
expect_in "names the sides by commit and revision" "the head ${second:0:12} (HEAD) against the base ${first:0:12} (HEAD~1)" "$out"
for sha in "$first" "$second"; do
  key=${sha:0:12}
  check "the worktree of $key is at that commit" "[ \"\$(git -C '$work/src/$key' rev-parse HEAD)\" = '$sha' ]"
  check "the worktree of $key is detached" "! git -C '$work/src/$key' symbolic-ref -q HEAD >/dev/null"
  check "$key is built in a folder of its own, from its worktree" \
    "grep -qx 'CMAKE_HOME_DIRECTORY:INTERNAL=$work/src/$key' '$work/build/$key/CMakeCache.txt'"
  check "$key: the --cmake-arg reached its configure" "grep -qx 'PLANTED_SETTING:UNINITIALIZED=planted value' '$work/build/$key/CMakeCache.txt'"
  check "$key: a release build with Ninja" \
    "grep -qE '^CMAKE_BUILD_TYPE:[A-Z]+=Release$' '$work/build/$key/CMakeCache.txt' && grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja' '$work/build/$key/CMakeCache.txt'"
  for step in checkout configure build; do
    check "$key: its $step log is kept" "[ -s '$work/run/build-logs/$key-$step.log' ]"
  done
done
check "the head's worktree holds the head's files" "grep -q 'the second commit' '$work/src/${second:0:12}/CMakeLists.txt'"
check "the base's worktree holds the base's files" "! grep -q 'the second commit' '$work/src/${first:0:12}/CMakeLists.txt'"
check "the warm-up round's log is kept in run/" "[ -s '$work/run/logs/base-round0.log' ]"
check "no rounds after a warm-up that measured nothing" "[ ! -e '$work/run/logs/head-round1.log' ]"
check "git lists both worktrees" "[ \"\$(git -C '$repo' worktree list | grep -c 'detached HEAD')\" = 2 ]"

# A second run reuses both worktrees; one that was edited is made again from its commit.
echo 'edited' >>"$work/src/${first:0:12}/CMakeLists.txt"
run "$tool" compare-commits --quiet --source "$repo" --rounds 1 HEAD~1 HEAD
expect_rc "a second run: the same verdict (exit 2)" 2
check "a second run reuses the unchanged worktree (no checkout)" "[ ! -e '$work/run/build-logs/${second:0:12}-checkout.log' ]"
check "a second run makes an edited worktree again" "[ -s '$work/run/build-logs/${first:0:12}-checkout.log' ]"
check "the edit is gone from the worktree made again" "! grep -q edited '$work/src/${first:0:12}/CMakeLists.txt'"
expect_not_in "--quiet: no progress lines" "bankgate compare-commits: building" "$out"

# The same commit twice is built once.
run "$tool" compare-commits --quiet --source "$repo" --rounds 1 HEAD "$second"
expect_rc "base and head the same commit: compared (exit 2 here)" 2
check "base and head the same commit: built once" "[ \"\$(ls '$work/run/build-logs' | grep -c -- '-configure.log$')\" = 1 ]"

# "." is the working tree as it is, uncommitted edits included.
echo '# an uncommitted edit' >>"$repo/CMakeLists.txt"
run "$tool" compare-commits --source "$repo" --rounds 1 HEAD .
expect_in "the working tree: named so" "the head (the working tree)" "$out"
check "the working tree is built in build/working-tree, from the repository itself" \
  "grep -qx 'CMAKE_HOME_DIRECTORY:INTERNAL=$repo' '$work/build/working-tree/CMakeCache.txt'"
git -C "$repo" checkout -q CMakeLists.txt

# ---------------------------------------------------------------------------------------------------------
# 3. Failures name the side, the commit, the step and the log; a head without GPU suites is refused.
echo 'message(FATAL_ERROR "planted configure error")' >>"$repo/CMakeLists.txt"
broken=$(commit "does not configure")
run "$tool" compare-commits --source "$repo" --rounds 1 "$second" "$broken"
expect_rc "a configure that fails: exit 3" 3
expect_in "a configure that fails: the side, the commit and the step" "the configure of the head ${broken:0:12} failed" "$out"
expect_in "a configure that fails: its log is named" "its output is in $work/run/build-logs/${broken:0:12}-configure.log" "$out"
expect_in "a configure that fails: its errors are shown" "planted configure error" "$out"
check "a configure that fails: its log holds the error" "grep -q 'planted configure error' '$work/run/build-logs/${broken:0:12}-configure.log'"

project "$repo" 'add_custom_target(planted ALL COMMAND ${CMAKE_COMMAND} -E echo planted-build-error COMMAND ${CMAKE_COMMAND} -E false)'
unbuildable=$(commit "does not build")
run "$tool" compare-commits --quiet --source "$repo" "$unbuildable" "$second"
expect_rc "a build that fails: exit 3" 3
expect_in "a build that fails: the side, the commit and the step" "the build of the base ${unbuildable:0:12} failed" "$out"
expect_in "a build that fails: its errors are shown, even with --quiet" "planted-build-error" "$out"

printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(tiny NONE)' 'enable_testing()' \
  'add_test(NAME unit COMMAND ${CMAKE_COMMAND} -E true)' >"$repo/CMakeLists.txt"  # a test, but not labelled gpu
no_suites=$(commit "no GPU suites")
run "$tool" compare-commits --source "$repo" "$second" "$no_suites"
expect_rc "a head without GPU suites: refused (exit 3)" 3
expect_in "a head without GPU suites: says so" "the head ${no_suites:0:12} has no GPU suites" "$out"
expect_not_in "a head without GPU suites: refused before any round" "round 1" "$out"

# A project in a folder of its repository: each worktree configured at that folder.
mono="$root/mono"
git init -q "$mono"
echo build/ >"$mono/.gitignore"
project "$mono/kernels"
git -C "$mono" add -A && git -C "$mono" commit -qm one && sub_commit=$(git -C "$mono" rev-parse HEAD)
run "$tool" compare-commits --quiet --source "$mono/kernels" --rounds 1 HEAD HEAD
expect_rc "a project in a folder of the repository: compared (exit 2 here)" 2
check "a project in a folder: configured from that folder of the worktree" \
  "grep -qx 'CMAKE_HOME_DIRECTORY:INTERNAL=$mono/kernels/build/bankgate-compare/src/${sub_commit:0:12}/kernels' '$mono/kernels/build/bankgate-compare/build/${sub_commit:0:12}/CMakeCache.txt'"
run "$tool" compare-commits --quiet --source "$mono/kernels" --work "$root/elsewhere" --rounds 1 HEAD HEAD
check "--work: the scratch folder named" "[ -d '$root/elsewhere/src/${sub_commit:0:12}' ] && [ -d '$root/elsewhere/run/build-logs' ]"

# The project's own build (build/ of the project, or --build): both commits are configured with its settings
# of where packages, the CUDA compiler and the GPU architectures are (the package route finds bankgate through
# them); a --cmake-arg of the same name wins.
own="$root/own"
git init -q "$own"
echo build/ >"$own/.gitignore"
project "$own"
git -C "$own" add -A && git -C "$own" commit -qm one && own_commit=$(git -C "$own" rev-parse HEAD)
own_cache="$own/build/bankgate-compare/build/${own_commit:0:12}/CMakeCache.txt"
prefixes="$root/prefix one;$root/prefix two"
cmake -S "$own" -B "$own/build" "-DCMAKE_PREFIX_PATH=$prefixes" -Dbankgate_DIR:PATH="$root/prefix one/lib/cmake/bankgate" \
  -DCMAKE_CUDA_COMPILER:FILEPATH=/opt/cuda-planted/bin/nvcc -DCMAKE_CUDA_ARCHITECTURES:STRING=90a >/dev/null 2>&1
run "$tool" compare-commits --source "$own" --rounds 1 HEAD HEAD
expect_rc "the project's build's settings: compared (exit 2 here)" 2
expect_in "the project's build's settings: said" \
  "both builds take CMAKE_PREFIX_PATH, bankgate_DIR, CMAKE_CUDA_COMPILER, CMAKE_CUDA_ARCHITECTURES from the build folder $own/build" "$out"
check "CMAKE_PREFIX_PATH of the project's build reaches the commit's build, a list with blanks whole" \
  "grep -qx 'CMAKE_PREFIX_PATH:[A-Z]*=$prefixes' '$own_cache'" "$(grep -a CMAKE_PREFIX_PATH "$own_cache")"
check "bankgate_DIR of the project's build reaches the commit's build" \
  "grep -qx 'bankgate_DIR:[A-Z]*=$root/prefix one/lib/cmake/bankgate' '$own_cache'"
check "CMAKE_CUDA_COMPILER of the project's build reaches the commit's build" \
  "grep -qx 'CMAKE_CUDA_COMPILER:[A-Z]*=/opt/cuda-planted/bin/nvcc' '$own_cache'"
check "CMAKE_CUDA_ARCHITECTURES of the project's build reaches the commit's build" \
  "grep -qx 'CMAKE_CUDA_ARCHITECTURES:[A-Z]*=90a' '$own_cache'"
run "$tool" compare-commits --quiet --source "$own" --rounds 1 --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=89 HEAD HEAD
check "a --cmake-arg wins over the project's build's setting" "grep -qx 'CMAKE_CUDA_ARCHITECTURES:[A-Z]*=89' '$own_cache'"
cmake -S "$own" -B "$root/own-elsewhere" -DCMAKE_CUDA_ARCHITECTURES=80 >/dev/null 2>&1
run "$tool" compare-commits --quiet --source "$own" --build "$root/own-elsewhere" --rounds 1 HEAD HEAD
check "--build names the project's build whose settings are taken" "grep -qx 'CMAKE_CUDA_ARCHITECTURES:[A-Z]*=80' '$own_cache'"
run "$tool" compare-commits --source "$own" --build "$root/plain" --rounds 1 HEAD HEAD
expect_rc "--build of a folder that is no build: refused (exit 3)" 3
expect_in "--build of a folder that is no build: said" "$root/plain is not a configured build folder" "$out"

# ---------------------------------------------------------------------------------------------------------
# 4. compare --markdown on recorded candidates: head with one counter changed against base.
planted="$fixtures/report/planted-run/candidates"
cp -r "$planted" "$root/head"
python3 - "$root/head/sm_90/nvidia-h200/Transpose/PaddedSquare.json" <<'PY'
import json, sys
path = sys.argv[1]
suite = json.load(open(path))
for test in suite["tests"].values():
    counter = test["counters"]["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
    counter["value"] = counter["value"] * 32
    test["derived"]["shared_load_transactions_per_request"] *= 32  # a ratio is what its counters give
json.dump(suite, open(path, "w"))
PY
summary="$root/step-summary.md"
echo "an earlier step's summary" >"$summary"
run "$tool" compare --base "$planted" --head "$root/head" --markdown "$summary"
expect_rc "compare --markdown, a changed counter: a regression (exit 1)" 1
text=$(cat "$summary")
expect_in "compare --markdown: appended after what the file held" "an earlier step's summary" "$text"
expect_in "compare --markdown: headed as a comparison, with its verdict" "## bankgate compare FAILED: 1 of 8 GPU tests failed" "$text"
expect_in "compare --markdown: the regressed test among the failures" '#### `Transpose.PaddedSquare`: regressed' "$text"
run "$tool" compare --base "$planted" --head "$planted" --markdown "$summary"
expect_rc "compare --markdown, the same candidates: passed (exit 0)" 0
check "compare --markdown: a second comparison appended, the first kept" "[ \"\$(grep -c '^## bankgate compare' '$summary')\" = 2 ]"
mkdir -p "$root/a-folder"
run "$tool" compare --base "$planted" --head "$root/head" --markdown "$root/a-folder"
expect_rc "compare --markdown on a folder: the verdict kept (exit 1)" 1
expect_in "compare --markdown on a folder: said" "the markdown summary was not appended to $root/a-folder" "$out"

finish
