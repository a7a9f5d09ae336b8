#!/usr/bin/env bash
# `bankgate bisect` without a GPU, on a made-up git repository of 64 commits whose "GPU suite" is a ctest entry
# writing a candidate with a shared load count and a median read from the commit's files. A counter change is
# planted at commit 37, duration changes at commits 13 and 51; commit 39 does not configure (skipped, never called
# bad), commit 50's durations are noisy.
#   - the first changed commit is named exactly, with the counter before and after, in at most 7 builds between
#     GOOD and BAD (the skipped one included), and confirmed by measuring it and its parent again;
#   - where no counter differs, durations: the first slower commit named exactly in at most 5 comparisons (compare's
#     rounds, GOOD against each commit probed) and confirmed by comparing it with its parent; a noisy commit next to
#     the change is INCONCLUSIVE, neither good nor bad, and leaves a range (exit 5); no duration slower either:
#     nothing to bisect (exit 0); a bad commit that is only faster: a speed-up, said, nothing bisected (exit 6);
#   - BAD not after GOOD: refused (exit 3);
#   - each commit measured is appended to the history; a second bisect takes them from it instead of building.
#
#   tests/unit/bisect_test.sh PATH/TO/bankgate CMAKE
#
# Exits 77 (Skipped) where git or ninja is missing. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail
. "$(dirname "$0")/test_lib.sh"
made_up_project bisect "${1:-}" "${2:-}" git ninja
export BANKGATE_HISTORY=off

# The suite's measuring run writes a candidate of SquareTile.setRowReadRow: its loads from loads.txt, its median
# from duration.txt (fake_gpu_suite.py). Counters: the loads change at commit 37. Durations: 10 us, 11 us from
# commit 13, 9 us (a speed-up) from commit 25 to 36, 12.1 us from commit 51; commit 50's are noisy (rounds cannot
# tell them from 11 us or from 12.1 us).
declare -a sha
for i in $(seq 0 63); do
  if [ "$i" -ge 37 ]; then echo 1024 >"$repo/loads.txt"; else echo 32 >"$repo/loads.txt"; fi
  if [ "$i" -ge 51 ]; then echo 12100; elif [ "$i" = 50 ]; then echo noisy 11000
  elif [ "$i" -ge 25 ] && [ "$i" -lt 37 ]; then echo 9000; elif [ "$i" -ge 13 ]; then echo 11000
  else echo 10000; fi >"$repo/duration.txt"
  if [ "$i" = 39 ]; then fake_suite_cmakelists 'message(FATAL_ERROR "commit 39 does not configure")'; else fake_suite_cmakelists "# commit $i"; fi
  sha[$i]=$(commit "commit $i")
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

# Durations, where no counter moved: compare's rounds, GOOD against each commit probed.
run "$tool" bisect --source "$repo" --rounds 2 "${sha[0]}" "${sha[20]}"
expect_rc "a planted duration change, no counter moved: found and confirmed (exit 0)" 0
expect_in "no counter moved: durations compared" "no counter differs between the good" "$out"
expect_in "the test slower at BAD is named" "slower at the bad commit: SquareTile.setRowReadRow" "$out"
expect_in "the first slower commit is named" "first slower commit ${sha[13]} (commit 13)" "$out"
probes=$(printf '%s\n' "$out" | sed -n 's/.*build(s): good, bad and \([0-9]*\) of the 19 commits between.*/\1/p')
check "at most 5 comparisons between GOOD and BAD" "[ -n '$probes' ] && [ '$probes' -le 5 ]" "$out"
expect_in "confirmed by comparing again" "confirmed: compared again, ${sha[13]:0:12} is slower than ${sha[12]:0:12}" "$out"
expect_in "what changed there, before and after" "SquareTile.setRowReadRow: duration (median) 10.0 us -> 11.0 us" "$out"

run "$tool" bisect --source "$repo" --rounds 2 "${sha[40]}" "${sha[63]}"
expect_rc "a noisy commit next to the change: INCONCLUSIVE (exit 5)" 5
expect_in "the noisy commit is neither good nor bad" "${sha[50]:0:12} is INCONCLUSIVE" "$out"
expect_in "the range it leaves is named" \
  "INCONCLUSIVE: the commits between ${sha[49]:0:12} and ${sha[51]:0:12} could not be built or told from either side" "$out"

run "$tool" bisect --source "$repo" --rounds 2 "${sha[0]}" "${sha[10]}"
expect_rc "no counter and no duration differs: nothing to bisect (exit 0)" 0
expect_in "no counter and no duration differs: said" "no counter and no duration differs between the good" "$out"

run "$tool" bisect --source "$repo" --rounds 2 "${sha[20]}" "${sha[30]}"
expect_rc "the bad commit only faster: a speed-up, nothing bisected (exit 6)" 6
expect_in "the speed-up is said, with the faster test" \
  "the bad commit is FASTER than the good one on SquareTile.setRowReadRow, and slower on none: a speed-up" "$out"
expect_in "the speed-up's durations, before and after" "SquareTile.setRowReadRow: duration (median) 11.0 us -> 9000 ns" "$out"
expect_not_in "a speed-up is no slower commit" "first slower commit" "$out"
expect_not_in "a speed-up is not called unchanged" "no duration differs" "$out"
check "exit 6 is the protocol's faster code" '[ "$("$tool" protocol --get exit_codes.faster)" = 6 ]'
BANKGATE_FAIL_ON_SPEEDUP=1 run "$tool" bisect --source "$repo" --rounds 2 "${sha[20]}" "${sha[30]}"
expect_rc "a speed-up that compare fails (BANKGATE_FAIL_ON_SPEEDUP=1): still a speed-up, nothing bisected (exit 6)" 6

run "$tool" bisect --source "$repo" "${sha[20]}" "${sha[0]}"
expect_rc "BAD before GOOD: refused (exit 3)" 3
expect_in "BAD before GOOD: said" "give GOOD as an ancestor of BAD" "$out"
finish
