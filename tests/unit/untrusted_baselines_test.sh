#!/usr/bin/env bash
# A baselines folder arrives in pull requests: every file in it (baselines, the promote journal, links) is
# input from whoever wrote the pull request, and so are candidates and the per-line figures a report shows.
# Each case here is an attack, run against the built command without a GPU; the promise under test is that
# nothing such input says makes bankgate read or write outside its folders, hang, or lose an update.
#
#   tests/unit/untrusted_baselines_test.sh PATH/TO/bankgate REPORT_FIXTURE SOURCES
#
# REPORT_FIXTURE is a recorded failing run (tests/unit/fixtures/report/planted-run), SOURCES the project's
# source folder its per-line figures name. Prints "N passed, M failed"; exits non-zero if any check failed.
set -uo pipefail
tool=${1:?usage: untrusted_baselines_test.sh PATH/TO/bankgate REPORT_FIXTURE SOURCES}
fixture=${2:?} sources=${3:?}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-untrusted.XXXXXX")
trap 'chmod -R u+w "$root" 2>/dev/null; rm -rf "$root"' EXIT
unset CI BANKGATE_FAULT_INJECT
export XDG_STATE_HOME="$root/state"  # where promotions keep their journals: this test's own
. "$(dirname "$0")/test_lib.sh"

# Everything under a folder, links as links: "nothing changed" means this does not change.
snapshot() { (cd "$1" && find . -mindepth 1 -printf '%p %y %l\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum); }

gpu=sm_90/nvidia-h200
# candidate DIR SUITE TEST VALUE [EXTRA]: a candidate as a GPU run writes it; EXTRA is more top-level JSON
# (e.g. the "baselines" field).
candidate() {
  local dir=$1 suite=$2 test=$3 value=$4 extra=${5:-}
  mkdir -p "$(dirname "$dir/$gpu/$suite/$test.json")"
  cat >"$dir/$gpu/$suite/$test.json" <<JSON
{"schema_version": 4, "suite": "$suite", "gpu": {"arch": "sm_90", "model": "nvidia-h200"}, $extra
 "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
   "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000, "cupti_version": 130000,
   "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z", "command": "GPU suite run"},
 "tests": {"$test": {"kernel": "k", "correct": true,
   "counters": {"smsp__sass_inst_executed_op_shared_ld.sum": {"value": $value, "tolerance": {"kind": "exact"}}}}}}
JSON
}
# A case: baselines of suites S1 and S2 (tests t and u, value 1) promoted into $base; candidates with VALUE in $cand.
case_no=0
new_case() {
  dir="$root/case$((++case_no))" && base="$dir/baselines" cand="$dir/cand"
  mkdir -p "$base" "$cand"
  for s in S1 S2; do for t in t u; do candidate "$dir/seed" "$s" "$t" 1; done; done
  "$tool" promote --candidates "$dir/seed" --baselines "$base" --new-gpu >/dev/null 2>&1 || fail "seeding case $case_no"
  for s in S1 S2; do for t in t u; do candidate "$cand" "$s" "$t" "${1:-2}"; done; done
}
value_of() {  # value_of FILE TEST: the test's shared load requests in a baseline file
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tests"][sys.argv[2]]["counters"]["smsp__sass_inst_executed_op_shared_ld.sum"]["value"])' "$1" "$2" 2>/dev/null
}

echo "# 1. A crafted journal and a link out of the folder"
# A journal is this user's file outside the folder (journal_folder()); even one of those is checked before use.
new_case
echo readme >"$dir/README.md" && echo build >"$dir/build.sh" && echo victim >"$dir/victim.json"
ln -s .. "$base/up"
journal_of() { echo "$XDG_STATE_HOME/bankgate/journals/$(stat -c '%d-%i' "$1").journal"; }
journal() { mkdir -p "$XDG_STATE_HOME/bankgate/journals" && printf '{"phase": "committing", "entries": [%s]}' "$1" >"$(journal_of "$base")" && chmod 600 "$(journal_of "$base")"; }
id='{"device": 1, "inode": 1, "size": 1, "mtime_ns": 1}'
entry() {
  printf '{"real": "%s", "staged": "%s.bankgate-staged-1", "backup": "%s", "created": %s, "staged_file": %s, "original_file": %s}' \
    "$1" "$(basename "$1")" "$2" "$3" "$id" "$id"
}
outside_before=$(cat "$dir/README.md" "$dir/build.sh" "$dir/victim.json")
journal "$(entry up/README.md README.md.bankgate-backup-1 true), $(entry up/build.sh S1.json.bankgate-backup-1 false)"
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "a journal naming files through a link out of the folder is refused" '[ "$rc" -ne 0 ] && [[ $out == *"unusable"* ]]' "$out"
journal "$(entry up/victim.json victim.json.bankgate-backup-1 true)"
run timeout 20 "$tool" recover --baselines "$base"
check "so is one naming a baseline-like file through the link (recover)" '[ "$rc" -ne 0 ] && [[ $out == *"unusable"* ]]' "$out"
journal "$(entry ../victim.json victim.json.bankgate-backup-1 true)"
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "and one climbing out with '..'" '[ "$rc" -ne 0 ] && [[ $out == *"unusable"* ]]' "$out"
# A NUL inside a name ("..\u0000a" is no '..' to a string check, but '..' to the system).
journal "$(entry '..\u0000a/victim.json' 'victim.json.bankgate-backup-1' true)"
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "and one hiding '..' before a NUL byte" '[ "$rc" -ne 0 ] && [[ $out == *"unusable"* ]]' "$out"
check "every file beside the folder is untouched" '[ "$outside_before" = "$(cat "$dir/README.md" "$dir/build.sh" "$dir/victim.json")" ]'
# Own attack: a journal whose backup is another file inside the folder would rename that file over a baseline.
echo notes >"$base/notes.json"
journal "$(entry $gpu/S1.json ../../notes.json false)"
run timeout 20 "$tool" recover --baselines "$base"
check "a journal whose backup is not the baseline's own is refused" '[ "$rc" -ne 0 ] && [[ $out == *"not its own"* ]] && [ -f "$base/notes.json" ]' "$out"
journal "$(entry $gpu/S1.json S1.json.bankgate-backup-1 false)" && chmod 666 "$(journal_of "$base")"
run timeout 20 "$tool" recover --baselines "$base"
check "a journal others may write is not trusted" '[ "$rc" -ne 0 ] && [[ $out == *"not this user"* ]]' "$out"
rm -f "$(journal_of "$base")" "$base/up"

echo "# 1b. Recovery trusts nothing a pull request can add"
# The pull request commits a journal and a backup of its own into the folder: the gate named \`bankgate recover\`,
# which deleted the committed baselines ("created") or put the backup over them (a counter 1 -> 777).
new_case
sed 's/"value": 1$/"value": 777/' "$base/$gpu/S1.json" >"$base/$gpu/S1.json.bankgate-backup"
printf '{"entries": [{"real": "%s/S1.json", "staged": "%s/S1.json.bankgate-staged", "backup": "%s/S1.json.bankgate-backup", "created": false},
  {"real": "%s/S2.json", "staged": "%s/S2.json.bankgate-staged", "backup": "%s/S2.json.bankgate-backup", "created": true}]}' \
  $gpu $gpu $gpu $gpu $gpu $gpu >"$base/.bankgate-promote.journal"
before=$(snapshot "$base")
run "$tool" check-baselines --baselines "$base"
check "a journal in the folder marks nothing half-written, and check-baselines names it" \
  '[[ $out != *"bankgate recover"* ]] && [[ $out == *".bankgate-promote.journal"*"not bankgate"* ]]' "$out"
run "$tool" recover --baselines "$base"
check "recover touches no committed baseline for it" '[ "$rc" -eq 0 ] && [ "$before" = "$(snapshot "$base")" ]' "$out"
run "$tool" promote --candidates "$cand" --baselines "$base" --filter S2.t
check "nor does a later promotion: no backup of the pull request is restored" \
  '[ "$rc" -eq 0 ] && [ "$(value_of "$base/$gpu/S1.json" t)" = 1 ] && [ -f "$base/$gpu/S1.json.bankgate-backup" ]' "$out"
# A promotion killed on this machine, then a pull request checked out before the recovery: its baseline (and a
# file named like a backup) are not the files the journal recorded, so they stay.
new_case
run env BANKGATE_FAULT_INJECT=renamed:1:kill "$tool" promote --candidates "$cand" --baselines "$base"
check "a killed promotion leaves its journal outside the folder" '[ "$rc" -eq 137 ] && [ -f "$(journal_of "$base")" ] && [ ! -e "$base/.bankgate-promote.journal" ]'
backup=$(cd "$base/$gpu" && ls S1.json.bankgate-backup-* 2>/dev/null | head -n 1)
sed 's/"value": 1$/"value": 777/' "$base/$gpu/S2.json" >"$base/$gpu/S2.json.tmp" && mv "$base/$gpu/S2.json.tmp" "$base/$gpu/S2.json"
[ -n "$backup" ] && sed 's/"value": 1$/"value": 777/' "$base/$gpu/$backup" >"$base/$gpu/b.tmp" && mv "$base/$gpu/b.tmp" "$base/$gpu/$backup"
run "$tool" recover --baselines "$base"
check "recovery restores no backup that is not the very file it kept" \
  '[ "$rc" -ne 0 ] && [[ $out == *"not the file this promotion kept"* ]] && [ "$(value_of "$base/$gpu/S1.json" t)" = 2 ]' "$out"
check "and leaves a baseline changed since as it is" '[ "$(value_of "$base/$gpu/S2.json" t)" = 777 ]' "$out"
rm -f "$(journal_of "$base")"

echo "# 2. Per-line figures naming files outside the project's sources"
report_case() {  # report_case FILE_NAME [SOURCES]: the recorded run with every per-line figure naming line 1 of FILE_NAME
  work="$root/report$((++case_no))"
  cp -r "$fixture" "$work"
  find "$work/baselines" "$work/candidates" -name '*.json' \
    -exec sed -i -e "s|\"kernels/transpose.cu\"|\"$1\"|" -e 's|"line": [0-9]*|"line": 1|' {} +
  run env BANKGATE_UNTRUSTED_TEST_SECRET=tok-$$-secret timeout 30 "$tool" summary --gtest-results "$work/gtest-results" \
    --candidates "$work/candidates" --baselines "$work/baselines" \
    --html "$work/report.html" --sources "${2:-$sources}"
}
report_case ../../../../../../../../proc/self/environ
check "a report whose lines name ../../proc/self/environ is written" '[ "$rc" -eq 1 ] && [ -s "$work/report.html" ]' "rc $rc: $out"
check "and holds no byte of the environment" '! grep -q "tok-$$-secret" "$work/report.html"'
report_case /etc/passwd
check "an absolute name (/etc/passwd) shows no text" '[ -s "$work/report.html" ] && ! grep -q "root:" "$work/report.html"' "rc $rc"
srcs="$root/sources" && mkdir -p "$srcs/kernels" && mkfifo "$srcs/kernels/fifo.cu" && ln -s /dev/zero "$srcs/kernels/zero.cu"
ln -s /etc/passwd "$srcs/kernels/passwd.cu"
report_case kernels/fifo.cu "$srcs"
check "a FIFO among the sources does not hang the report" '[ "$rc" -eq 1 ] && [ -s "$work/report.html" ]' "rc $rc: $out"
report_case kernels/zero.cu "$srcs"
check "neither does a link to /dev/zero" '[ "$rc" -eq 1 ] && [ -s "$work/report.html" ]' "rc $rc: $out"
report_case kernels/passwd.cu "$srcs"
check "a source link leading out of the sources shows no text (own attack)" '[ -s "$work/report.html" ] && ! grep -q "root:" "$work/report.html"' "rc $rc"

echo "# 3. Two promotions of one suite at once"
new_case
BANKGATE_FAULT_INJECT=staged:1:pause "$tool" promote --candidates "$cand" --baselines "$base" --filter S1.t >"$dir/a.log" 2>&1 &
sleep 0.5
"$tool" promote --candidates "$cand" --baselines "$base" --filter S1.u >"$dir/b.log" 2>&1
b=$?
wait $!
a=$?
check "both promotions succeed" '[ "$a" -eq 0 ] && [ "$b" -eq 0 ]' "$(cat "$dir/a.log" "$dir/b.log")"
check "and the file holds both changes" '[ "$(value_of "$base/$gpu/S1.json" t)" = 2 ] && [ "$(value_of "$base/$gpu/S1.json" u)" = 2 ]' \
  "$(cat "$base/$gpu/S1.json")"

echo "# 4. A candidate choosing where promote writes"
new_case
project="$dir/project" && build="$dir/build" && mkdir -p "$project/baselines" "$build"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$project" >"$build/CMakeCache.txt"
mkdir -p "$dir/elsewhere"
for named in "$dir/elsewhere" "../elsewhere" "$project/../elsewhere"; do
  rm -rf "$cand" && candidate "$cand" S1 t 2 "\"baselines\": \"$named\","
  run "$tool" promote --candidates "$cand" --build "$build" --new-gpu
  check "a candidate naming '$named' is refused" '[ "$rc" -eq 3 ] && [[ $out == *"not inside the project"* ]]' "$out"
done
run "$tool" promote --candidates "$cand" --new-gpu --build "$dir/no-such-build"
check "without the build that recorded it, its folder is not taken either" '[ "$rc" -eq 3 ] && [[ $out == *"--baselines DIR"* ]]' "$out"
check "nothing was written outside the project" '[ -z "$(find "$dir/elsewhere" -mindepth 1)" ]'
rm -rf "$cand" && candidate "$cand" S1 t 2 "\"baselines\": \"$project/baselines\","
run "$tool" promote --candidates "$cand" --build "$build" --new-gpu
check "the project's own folder is taken" '[ "$rc" -eq 0 ] && [ -f "$project/baselines/$gpu/S1.json" ]' "$out"

echo "# 5. Nothing is read outside the confined folders"
# A candidate names its baselines folder: summary (and the gate) read it only inside the project, as promote does;
# the verdict is the result records' (the suite process judged against its own baselines), and the reports say the
# baseline is not shown.
work="$root/confine" && cp -r "$fixture" "$work"
project="$work/project" && build="$work/build" && mkdir -p "$project" "$build"
printf 'CMAKE_HOME_DIRECTORY:INTERNAL=%s\n' "$project" >"$build/CMakeCache.txt"
outside="$root/outside-baselines" && cp -r "$work/baselines" "$outside"
find "$outside" -name '*.json' -exec sed -i 's/"kind": "exact"/"kind": "relative", "amount": 0.25, "reason": "TOKEN-outside-baseline"/' {} +
find "$work/candidates" -name '*.json' -exec sed -i "s|\"baselines\": \"[^\"]*\"|\"baselines\": \"$outside\"|" {} +
for flags in "--build $build" ""; do
  # shellcheck disable=SC2086  # the flags' words
  run "$tool" summary --gtest-results "$work/gtest-results" --candidates "$work/candidates" $flags \
    --json "$work/s.json" --markdown "$work/s.md" --html "$work/s.html"
  check "summary ${flags:+with --build }does not read the baselines a candidate names outside the project" \
    '[ "$rc" -eq 1 ] && grep -q "not inside the project\|pass --build DIR, or --baselines DIR" "$work/s.json" && ! grep -q TOKEN-outside "$work/s.json" "$work/s.md" "$work/s.html" && [[ $out != *TOKEN-outside* ]]' \
    "rc $rc: $(grep -o "TOKEN-outside[^ ]*" "$work/s.json" | head -1) $out"
  rm -f "$work/s.md"
done
# A result record linked out of its folder: its text reached report.html.
result_record "$root/outside-record.json" Transpose NaiveSquare regressed TOKEN-outside-report
rm "$work/gtest-results/Transpose.NaiveSquare.result.json" &&
  ln -s "$root/outside-record.json" "$work/gtest-results/Transpose.NaiveSquare.result.json"
run "$tool" summary --gtest-results "$work/gtest-results" --candidates "$work/candidates" \
  --baselines "$work/baselines" --html "$work/r.html" --json "$work/r.json"
check "a result record linked outside its folder is named, not read" \
  '[ "$rc" -ne 0 ] && [[ $out == *"result record was not read"*"leads outside"* ]] && ! grep -q TOKEN-outside "$work/r.html" "$work/r.json"' "rc $rc: $out"
mkdir -p "$work/results" && ln -s "$root/outside-record.json" "$work/results/Transpose.NaiveSquare.result.json"
run "$tool" verdict --results "$work/results" --test Transpose.NaiveSquare
check "verdict reads no result through a link out of its folder" '[ "$rc" -eq 1 ] && [[ $out == *"leads outside"* ]] && [[ $out != *TOKEN-outside* ]]' "$out"
# compare-commits --work names a folder whose run/ is the user's: it was deleted before anything was checked.
repo="$root/repo" && git init -q "$repo" && echo x >"$repo/f" && git -C "$repo" add f &&
  git -C "$repo" -c user.name=t -c user.email=t@example.com commit -qm one
for place in run src build; do
  mkdir -p "$root/userwork/$place" && echo precious >"$root/userwork/$place/thesis.txt"
  run "$tool" compare-commits HEAD HEAD --source "$repo" --work "$root/userwork"
  check "compare-commits --work refuses a $place/ it did not make, deleting nothing" \
    '[ "$rc" -eq 3 ] && [[ $out == *"did not make"* ]] && [ "$(cat "$root/userwork/$place/thesis.txt")" = precious ] && [ ! -e "$root/userwork/run/build-logs" ]' "$out"
  rm -rf "$root/userwork"
done
mkdir -p "$root/userwork" "$root/users-folder" && echo precious >"$root/users-folder/thesis.txt" && ln -s "$root/users-folder" "$root/userwork/run"
run "$tool" compare-commits HEAD HEAD --source "$repo" --work "$root/userwork"
check "and a run/ that is a link to the user's folder" '[ "$rc" -eq 3 ] && [ "$(cat "$root/users-folder/thesis.txt")" = precious ]' "$out"

echo "# 7. Smaller ones"
new_case
mkdir -p "$XDG_STATE_HOME/bankgate/journals" && mkfifo "$(journal_of "$base")"
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "a FIFO as the journal is refused without hanging" '[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [[ $out == *"journal"* ]]' "rc $rc: $out"
rm "$(journal_of "$base")"

# A folder whose name is a command substitution: the advice is quoted, so pasting it runs no command.
new_case
odd="$dir/b\$(touch PWNED)"
mv "$base" "$odd"
run env BANKGATE_FAULT_INJECT=renamed:1:kill "$tool" promote --candidates "$cand" --baselines "$odd"
run "$tool" check-baselines --baselines "$odd"
advice=$(grep -o "bankgate recover --baselines '[^']*'" <<<"$out" | head -n 1)
check "the recovery advice for a folder named with \$(...) is quoted" '[ -n "$advice" ]' "$out"
(cd "$dir" && eval "${advice/bankgate/\"\$tool\"}" >/dev/null 2>&1)
check "pasting it recovers that folder and runs nothing" '[ ! -e "$dir/PWNED" ] && [ ! -e PWNED ] && [ ! -f "$(journal_of "$odd")" ]' "$advice"
new_case
before=$(snapshot "$base")
run env BANKGATE_FAULT_INJECT=renamed:1:kill "$tool" promote --candidates "$cand" --baselines "$base"
check "a promotion killed after its first file leaves the folder half-written" '[ "$rc" -eq 137 ] && [ -f "$(journal_of "$base")" ]'
for reader in "check-baselines --baselines $base" "review --candidates $cand --baselines $base" \
  "promote --dry-run --candidates $cand --baselines $base"; do
  # shellcheck disable=SC2086  # the reader's words
  run "$tool" $reader
  check "${reader%% *} refuses the half-written folder with the recovery command" \
    '[ "$rc" -ne 0 ] && [[ $out == *"bankgate recover --baselines"* ]]' "$out"
done
run "$tool" summary --gtest-results "$fixture/gtest-results" \
  --candidates "$fixture/candidates" --baselines "$base"
check "summary names it too" '[ "$rc" -ne 0 ] && [[ $out == *"bankgate recover --baselines"* ]]' "$out"
run "$tool" recover --baselines "$base"
check "recover rolls it back" '[ "$rc" -eq 0 ] && [[ $out == *"rolled back"* ]] && [ "$before" = "$(snapshot "$base")" ]' "$out"
run "$tool" check-baselines --baselines "$base"
check "after which the folder reads again" '[ "$rc" -eq 0 ]' "$out"

new_case
ln -s real-S1.json "$base/$gpu/S1-new.json" 2>/dev/null
rm "$base/$gpu/S1.json" && ln -s real-S1.json "$base/$gpu/S1.json"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a dangling baseline link stays a link, its target created" \
  '[ "$rc" -eq 0 ] && [ -L "$base/$gpu/S1.json" ] && [ "$(value_of "$base/$gpu/real-S1.json" t)" = 2 ]' "$out"
rm -f "$base/$gpu/S1-new.json"
mv "$base/$gpu/S2.json" "$base/$gpu/real-S2.json" && ln -s real-S2.json "$base/$gpu/S2.json"
rm -rf "$cand" && for s in S1 S2; do for t in t u; do candidate "$cand" "$s" "$t" 3; done; done
before=$(snapshot "$base")
run env BANKGATE_FAULT_INJECT=renamed:2:fail "$tool" promote --candidates "$cand" --baselines "$base"
check "a rollback keeps links as links and contents as before" '[ "$rc" -ne 0 ] && [ "$before" = "$(snapshot "$base")" ]' "$out"
run env BANKGATE_FAULT_INJECT=renamed:1:kill "$tool" promote --candidates "$cand" --baselines "$base"
run "$tool" recover --baselines "$base"
check "so does recovery after a kill" '[ "$rc" -eq 0 ] && [ "$before" = "$(snapshot "$base")" ]' "$out"

new_case
candidate "$cand" Inst/Param Test/0 5 && candidate "$cand" Inst/Param Test/1 6
run "$tool" review --candidates "$cand" --baselines "$base"
check "review shows parameterised tests" '[[ $out == *"Inst/Param"*"Test/0"* ]] && [[ $out == *"Test/1"* ]]' "$out"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "promote writes them" '[ "$rc" -eq 0 ] && [ "$(value_of "$base/$gpu/Inst/Param.json" Test/1)" = 6 ]' "$out"
run "$tool" check-baselines --baselines "$base"
check "and check-baselines reads them" '[ "$rc" -eq 0 ] && [[ $out == *"3 baseline files with 6 tests"* ]]' "$out"

new_case
echo "someone else's file" >"$dir/outside.txt" && ln "$dir/outside.txt" "$base/.bankgate-promote.lock"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a lock file hard-linked outside is never written through" '[ "$rc" -eq 0 ] && [ "$(cat "$dir/outside.txt")" = "someone else'"'"'s file" ]' "$out"
check "and no lock file is left in the folder to be committed" '[ -z "$(find "$base" -name "*.lock")" ]' "$(find "$base")"

new_case
mkdir -p "$dir/other/sm_90/nvidia-h100" && cp "$base/$gpu/S1.json" "$dir/other/sm_90/nvidia-h100/S1.json"
ln -s "$dir/other/sm_90" "$base/sm_80" && ln -s / "$base/sm_70"
run timeout 20 "$tool" check-baselines --baselines "$base"
check "check-baselines names linked GPU folders and reads nothing through them" \
  '[ "$rc" -eq 2 ] && [[ $out == *"sm_80"*"leads outside"* ]] && [[ $out == *"sm_70"* ]] && [[ $out == *"2 baseline files"* ]]' "rc $rc: $out"

echo "# Own attacks"
new_case
rm "$base/$gpu/S1.json" && ln -s /etc/passwd "$base/$gpu/S1.json"
run "$tool" check-baselines --baselines "$base"
check "a baseline linked to /etc/passwd is not read by check-baselines" '[ "$rc" -ne 0 ] && [[ $out == *"leads outside"* ]] && [[ $out != *"root:"* ]]' "$out"
run "$tool" review --candidates "$cand" --baselines "$base"
check "nor by review" '[ "$rc" -ne 0 ] && [[ $out == *"leads outside"* ]] && [[ $out != *"root:"* ]]' "$out"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "nor by promote, which writes nothing" '[ "$rc" -ne 0 ] && [ "$(readlink "$base/$gpu/S1.json")" = /etc/passwd ]' "$out"

new_case
rm "$base/$gpu/S1.json" && ln -s S2.json "$base/$gpu/S1.json"
run "$tool" check-baselines --baselines "$base"
check "a suite's name linked to another suite's file is named by check-baselines" '[ "$rc" -ne 0 ] && [[ $out == *"S1.json: holds S2"* ]]' "$out"
run "$tool" review --candidates "$cand" --baselines "$base"
check "and not gated against the other suite's records" '[ "$rc" -ne 0 ] && [[ $out == *"holds S2"*"not S1"* ]]' "$out"

new_case
cp "$base/$gpu/S1.json" "$dir/shared.json" && ln -f "$dir/shared.json" "$base/$gpu/S1.json"
shared_before=$(sha256sum <"$dir/shared.json")
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a baseline hard-linked to a file outside is replaced, the outside file untouched" \
  '[ "$rc" -eq 0 ] && [ "$shared_before" = "$(sha256sum <"$dir/shared.json")" ] && [ "$(value_of "$base/$gpu/S1.json" t)" = 2 ]' "$out"

new_case
echo keep >"$dir/keep.json" && ln -s ../../../keep.json "$base/$gpu/S9.json.bankgate-staged"
ln -s S2.json "$base/$gpu/S2.json.bankgate-backup"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "links named like leftovers are neither followed nor taken for the promotion's own" \
  '[ "$rc" -eq 0 ] && [ "$(cat "$dir/keep.json")" = keep ] && [ -f "$base/$gpu/S2.json" ] && [ -L "$base/$gpu/S2.json.bankgate-backup" ]' "$out"

new_case
run "$tool" promote --candidates "$cand" --baselines "$base" --gpu ../../escape
check "a --gpu that climbs out is refused" '[ "$rc" -ne 0 ] && [ ! -e "$dir/escape" ] && [ ! -e "$root/escape" ]' "$out"

new_case
deep="$base/$gpu" && for _ in $(seq 1 40); do deep="$deep/d"; done && mkdir -p "$deep"
run timeout 20 "$tool" check-baselines --baselines "$base"
check "a folder nested 40 deep is reported, not walked forever" '[ "$rc" -eq 2 ] && [[ $out == *"folders deep"* ]]' "rc $rc: $out"

new_case
rm -rf "$cand" && candidate "$cand" S1 t 2 && ln -s /etc "$cand/$gpu/S2"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a candidates folder linked out of the candidates is refused" '[ "$rc" -ne 0 ] && [[ $out == *"symbolic link to a folder"* || $out == *"leads outside"* ]]' "$out"

finish
