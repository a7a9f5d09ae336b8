#!/usr/bin/env bash
# `bankgate bisect` on a GPU, the catalogue's way: an outside project (examples/adopt, whose kernel is the
# catalogue's padded transpose, built against the package this build installs) in a git repository of 64 commits,
# with the transpose tile's padding column removed at commit 41, a bank conflict that multiplies its shared-memory
# wavefronts. Every other commit changes a text file only, so each build is one small .cu and its test. bisect
# must name commit 41 in at most 7 builds between GOOD and BAD, the shared-memory wavefronts grown there, and
# confirm it by measuring commit 41 and its parent again. (tests/unit/bisect_test.sh is the GPU-free version.)
#
#   tests/unit/bisect_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER
#
# Without a GPU (or git, ninja) it prints SKIPPED with the reason and exits 77 (Skipped); with
# BANKGATE_REQUIRE_GPU=1 a skip is a failure (exit 1), as for the suites' GPU tests. Prints "N passed, M failed".
set -uo pipefail
usage="usage: bisect_gpu_test.sh REPO MAIN_BUILD CUDA_COMPILER"
repo=${1:?$usage}
main_build=${2:?$usage}
nvcc=${3:?$usage}
skip() {
  case ${BANKGATE_REQUIRE_GPU:-0} in
    1 | true | TRUE | on | ON | yes | YES)
      echo "FAILED: $1 (a failure, not a skip: BANKGATE_REQUIRE_GPU=1 asks every GPU test to measure)"
      exit 1 ;;
  esac
  echo "SKIPPED: $1"
  exit 77
}
nvidia-smi -L >/dev/null 2>&1 || skip "no GPU here (nvidia-smi -L lists none): bisect measures each commit it probes on one"
for program in git ninja; do
  command -v "$program" >/dev/null 2>&1 || skip "no $program here; this test needs it"
done
. "$(dirname "$0")/test_lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-bisect-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
# The commit each probe measured is its checkout's, never one a driver script exported for its own tree.
unset BANKGATE_GIT_COMMIT BANKGATE_GIT_DIRTY BANKGATE_HISTORY

if out=$(cmake --install "$main_build" --prefix "$work/prefix" 2>&1); then pass "bankgate installs into a prefix"
else fail "bankgate installs into a prefix" "$out"; finish; exit; fi
project="$work/project"
cp -r "$repo/examples/adopt" "$project"
echo build/ >"$project/.gitignore"
git init -q "$project"
planted=41
declare -a sha
for i in $(seq 0 63); do
  echo "commit $i" >>"$project/NOTES.txt"
  if [ "$i" = "$planted" ]; then
    sed -i 's/tile\[transpose_tile\]\[transpose_tile + 1\]/tile[transpose_tile][transpose_tile]/' "$project/transpose.cu"
    grep -q 'transpose_tile + 1' "$project/transpose.cu" && { fail "the padding is removed at commit $planted"; finish; exit; }
  fi
  git -C "$project" add -A && git -C "$project" commit -qm "commit $i" && sha[i]=$(git -C "$project" rev-parse HEAD)
done
check "the repository holds 64 commits" '[ "$(git -C "$project" rev-list --count HEAD)" = 64 ]'

run_timeout=1700 run "$work/prefix/bin/bankgate" bisect --source "$project" --work "$work/bisect" \
  --history "$work/history.sqlite" --filter 'Transpose.*' \
  "--cmake-arg=-DCMAKE_PREFIX_PATH=$work/prefix${CMAKE_PREFIX_PATH:+;${CMAKE_PREFIX_PATH//:/;}}" \
  "--cmake-arg=-DCMAKE_CUDA_COMPILER=$nvcc" --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=native "${sha[0]}" "${sha[63]}"
printf '%s\n' "$out" | grep '^bankgate bisect\|^  ' | tail -n 25
expect_rc "the planted bank conflict: found and confirmed (exit 0)" 0
expect_in "the first changed commit is the planted one" "first changed commit ${sha[planted]} (commit $planted)" "$out"
probes=$(printf '%s\n' "$out" | sed -n 's/.*build(s): good, bad and \([0-9]*\) of the 62 commits between.*/\1/p')
check "at most 7 builds between GOOD and BAD" "[ -n '$probes' ] && [ '$probes' -le 7 ]" "$out"
expect_in "confirmed by measuring it and its parent again" \
  "confirmed: measured again, ${sha[planted - 1]:0:12} unchanged and ${sha[planted]:0:12} changed" "$out"
# The conflict's signature, whatever this GPU's figures: the shared loads' wavefronts grew at the planted commit.
wavefronts=$(printf '%s\n' "$out" |
  sed -n 's/.* smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld\.sum: \([0-9.e+]*\) -> \([0-9.e+]*\)$/\1 \2/p' | head -n 1)
check "the shared loads' wavefronts grew there (${wavefronts:-not named})" \
  "[ -n '$wavefronts' ] && awk '{ exit !(\$2 > \$1) }' <<<'$wavefronts'" "$out"
# The confirmation's lines compare like with like: the conflicting load's line, and no line the parent's measurement
# merely lacked (both are measured with per-line figures).
expect_in "the confirmation names the conflicting shared load's line" "LDS: wavefronts" "$out"
check "and no line whose figures only the changed commit's measurement had" \
  "! printf '%s\\n' \"\$out\" | grep -q ': executions 0 -> '" "$out"
finish
