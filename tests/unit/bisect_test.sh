#!/usr/bin/env bash
# `bankgate bisect` without a GPU, on a made-up git repository of 64 commits whose "GPU suite" is a ctest entry
# writing a candidate with a shared load count read from the commit's loads.txt. A counter change is planted at
# commit 37; commit 39 does not configure (skipped, never called bad).
#   - the first changed commit is named exactly, with the counter before and after, in at most 7 builds between
#     GOOD and BAD (the skipped one included), and confirmed by measuring it and its parent again;
#   - GOOD and BAD without a counter between them that differs: nothing to bisect (exit 0);
#   - BAD not after GOOD: refused (exit 3);
#   - each commit measured is appended to the history; a second bisect takes them from it instead of building.
#
#   tests/unit/bisect_test.sh PATH/TO/bankgate CMAKE
#
# Exits 77 (Skipped) where git or ninja is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
tool=${1:?usage: bisect_test.sh PATH/TO/bankgate CMAKE}
cmake=${2:?usage: bisect_test.sh PATH/TO/bankgate CMAKE}
for program in git ninja; do
  command -v "$program" >/dev/null 2>&1 || { echo "SKIPPED: no $program here; bisect needs it"; exit 77; }
done
export PATH="$(dirname "$cmake"):$PATH"
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-bisect.XXXXXX")
trap 'git -C "$root/repo" worktree prune >/dev/null 2>&1; rm -rf "$root"' EXIT
. "$(dirname "$0")/test_lib.sh"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
unset GIT_DIR GIT_WORK_TREE
export BANKGATE_HISTORY=off

repo="$root/repo"
mkdir -p "$repo"
cat >"$repo/measure.sh" <<'SUITE'
#!/usr/bin/env bash
# The suite's measuring run: a candidate of SquareTile.setRowReadRow, its shared loads from loads.txt.
set -eu
loads=$(cat "$1/loads.txt")
dir=$(python3 -c 'import json, os; print(json.load(open(os.environ["BANKGATE_RUN_MANIFEST"]))["candidate_dir"])')
mkdir -p "$dir/sm_90/nvidia-h200/SquareTile"
cat >"$dir/sm_90/nvidia-h200/SquareTile/setRowReadRow.json" <<JSON
{"schema_version": 4, "suite": "SquareTile", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
 "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
                "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
                "cupti_version": 130000, "git_commit": "$(git -C "$1" rev-parse HEAD)", "git_dirty": false,
                "date": "2026-11-28T20:00:00Z", "command": "fake suite"},
 "tests": {"setRowReadRow": {"kernel": "setRowReadRow", "correct": true,
   "counters": {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": $loads, "tolerance": {"kind": "exact"}},
                "smsp__sass_inst_executed_op_shared_ld.sum": {"value": 32, "tolerance": {"kind": "exact"}}},
   "lines": [{"file": "square.cu", "line": 12, "kind": "shared_load", "opcode": "LDS", "executions": 32,
              "wavefronts": $loads, "ideal_wavefronts": 32, "sectors": 0, "ideal_sectors": 0}]}}}
JSON
SUITE
cmakelists() {
  printf '%s\n' 'cmake_minimum_required(VERSION 3.20)' 'project(fake NONE)' 'enable_testing()' \
    'add_test(NAME SquareTile.setRowReadRow COMMAND bash ${CMAKE_SOURCE_DIR}/measure.sh ${CMAKE_SOURCE_DIR})' \
    'set_tests_properties(SquareTile.setRowReadRow PROPERTIES LABELS gpu)' "$@" >"$repo/CMakeLists.txt"
}
git init -q "$repo"
echo build/ >"$repo/.gitignore"
declare -a sha
for i in $(seq 0 63); do
  if [ "$i" -ge 37 ]; then echo 1024 >"$repo/loads.txt"; else echo 32 >"$repo/loads.txt"; fi
  if [ "$i" = 39 ]; then cmakelists 'message(FATAL_ERROR "commit 39 does not configure")'; else cmakelists "# commit $i"; fi
  git -C "$repo" add -A && git -C "$repo" commit -qm "commit $i"
  sha[$i]=$(git -C "$repo" rev-parse HEAD)
done

history="$root/history.sqlite"
run "$tool" bisect --source "$repo" --history "$history" "${sha[0]}" "${sha[63]}"
expect_rc "a planted counter change: found and confirmed (exit 0)" 0
expect_in "the first changed commit is named" "first changed commit ${sha[37]} (commit 37)" "$out"
expect_in "what changed there, before and after" "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum: 32 -> 1024" "$out"
expect_not_in "an unchanged counter is not named" "op_shared_ld.sum: 32 -> " "$out"
expect_in "the commit that does not configure is skipped" "${sha[39]:0:12} is skipped" "$out"
probes=$(printf '%s\n' "$out" | sed -n 's/.*build(s): good, bad and \([0-9]*\) of the 62 commits between.*/\1/p')
check "at most 7 builds between GOOD and BAD" "[ -n '$probes' ] && [ '$probes' -le 7 ]" "$out"
expect_in "confirmed by measuring again" "confirmed: measured again, ${sha[36]:0:12} unchanged and ${sha[37]:0:12} changed" "$out"
expect_in "the source line whose figures changed" "SquareTile.setRowReadRow setRowReadRow  square.cu:12 LDS: wavefronts 32 -> 1024" "$out"

run "$tool" bisect --source "$repo" --history "$history" "${sha[0]}" "${sha[63]}"
expect_rc "again, with the history: found and confirmed (exit 0)" 0
expect_in "again: the same first changed commit" "first changed commit ${sha[37]} (commit 37)" "$out"
expect_in "again: measured commits are taken from the history" "${sha[31]:0:12} taken from the history" "$out"
expect_in "again: only the unbuildable commit is tried again" "good, bad and 1 of the 62 commits between (1 skipped, 6 taken from the history)" "$out"

run "$tool" bisect --source "$repo" "${sha[0]}" "${sha[20]}"
expect_rc "no counter differs: nothing to bisect (exit 0)" 0
expect_in "no counter differs: said" "no counter differs between the good" "$out"

run "$tool" bisect --source "$repo" "${sha[20]}" "${sha[0]}"
expect_rc "BAD before GOOD: refused (exit 3)" 3
expect_in "BAD before GOOD: said" "give GOOD as an ancestor of BAD" "$out"
finish
