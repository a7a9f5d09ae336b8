#!/usr/bin/env bash
# Faults and hostile input around `bankgate promote`, without a GPU: a promotion is all or nothing, never
# writes outside its baselines folder, survives being killed (between files and mid-file), disk full, a
# read-only folder, concurrent promotions, and folders, FIFOs and links in place of baseline files.
#
#   tests/unit/promote_faults_test.sh PATH/TO/bankgate
#
# Kills and failures at chosen steps come from BANKGATE_FAULT_INJECT (gate/src/store/baseline_transaction.cpp).
# Prints "N passed, M failed"; exits non-zero if any check failed.
set -uo pipefail
tool=${1:?usage: promote_faults_test.sh PATH/TO/bankgate}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-promote-faults.XXXXXX")
chmod 755 "$root"
trap 'chmod -R u+w "$root" 2>/dev/null; rm -rf "$root"' EXIT
unset CI BANKGATE_FAULT_INJECT
export XDG_STATE_HOME="$root/state"  # where promotions keep their journals: this test's own
. "$(dirname "$0")/test_lib.sh"
journal_of() { echo "$XDG_STATE_HOME/bankgate/journals/$(stat -c '%d-%i' "$1").journal"; }

snapshot() { (cd "$1" && find . \( -type f -o -type l \) -print0 | sort -z | xargs -0 -r sha256sum); }

gpu=sm_90/nvidia-h200
# candidate DIR SUITE TEST VALUE [SUITE_FIELD [MODEL_FIELD]]: a candidate as a GPU run writes it. Suites S5 to
# S8 carry a long kernel name, so that their files are larger than the others (see the disk-full case).
candidate() {
  local dir=$1 suite=$2 test=$3 value=$4 field=${5:-$2} model=${6:-nvidia-h200} long=""
  case $suite in S[5-8]) long=$(printf 'x%.0s' $(seq 1 1500)) ;; esac
  mkdir -p "$dir/$gpu/$suite"
  cat >"$dir/$gpu/$suite/$test.json" <<JSON
{"schema_version": 4, "suite": "$field", "gpu": {"arch": "sm_90", "model": "$model"},
 "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
   "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000, "cupti_version": 130000,
   "git_commit": "0123abcd", "git_dirty": false, "date": "2026-11-21T23:59:00Z", "command": "GPU suite run"},
 "tests": {"$test": {"kernel": "k_$test$long", "correct": true,
   "counters": {"smsp__sass_inst_executed_op_shared_ld.sum": {"value": $value, "tolerance": {"kind": "exact"}}}}}}
JSON
}
# A case: baselines for suites S1..S8 (value 1), candidates for all eight with VALUE.
new_case() {
  dir="$root/case$((++case_no))"
  base="$dir/baselines" cand="$dir/cand"
  mkdir -p "$base" "$cand"
  for s in 1 2 3 4 5 6 7 8; do candidate "$dir/seed" "S$s" t 1; done
  "$tool" promote --candidates "$dir/seed" --baselines "$base" --new-gpu >/dev/null 2>&1 || fail "seeding case $case_no"
  for s in 1 2 3 4 5 6 7 8; do candidate "$cand" "S$s" t "${1:-2}"; done
  before=$(snapshot "$base")
}
case_no=0

# 1. Names that leave the folder.
new_case
rm -rf "$cand"; candidate "$cand" escaped t 2 "../../../escaped"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a candidate whose suite is ../../../escaped is refused" '[ "$rc" -ne 0 ]' "$out"
check "nothing is written outside the baselines folder" '[ -z "$(find "$root" -name "escaped.json")" ]'
rm -rf "$cand"; candidate "$cand" S1 t 2 "/tmp/escaped"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "an absolute suite name is refused, naming the field" '[ "$rc" -ne 0 ] && [[ $out == *"suite"* ]]' "$out"
check "the refused promotions changed nothing" '[ "$before" = "$(snapshot "$base")" ]'

# 2. Candidates that disagree with their folder, or measure a test twice.
new_case
candidate "$cand" S1 t 2 S1 nvidia-h100
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a candidate whose GPU disagrees with its folder is refused" '[ "$rc" -ne 0 ] && [[ $out == *"disagree with where it lies"* ]]' "$out"
new_case
cp "$cand/$gpu/S1/t.json" "$cand/$gpu/S1/copy.json"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "the same test in two candidate files is refused, not one silently chosen" '[ "$rc" -ne 0 ]' "$out"
check "and nothing was written" '[ "$before" = "$(snapshot "$base")" ]'

# 3. The disk fills up part-way: a file-size limit of 1 KiB lets the small files S1 to S4 be written and fails
# the large S5 to S8, as a nearly full disk does.
new_case
run bash -c 'ulimit -f 1; trap "" XFSZ; exec "$0" promote --candidates "$1" --baselines "$2"' "$tool" "$cand" "$base"
check "a promotion that cannot write fails" '[ "$rc" -ne 0 ]' "$out"
check "its message says why and that nothing was written" '[[ $out == *"nothing was"* ]] && [[ $out == *"File too large"* || $out == *"No space"* ]]' "$out"
check "every baseline is as before and no staging file is left" '[ "$before" = "$(snapshot "$base")" ]' "$(snapshot "$base")"

# 4. Killed between files of the commit, and mid-way through staging: the next run restores or cleans.
new_case
run env BANKGATE_FAULT_INJECT=renamed:4:kill "$tool" promote --candidates "$cand" --baselines "$base"
check "a promotion killed after 4 of 8 files dies" '[ "$rc" -eq 137 ]' "rc $rc: $out"
check "it leaves its journal, outside the folder" '[ -f "$(journal_of "$base")" ] && [ -z "$(find "$base" -name "*journal*")" ]'
# The next run names the folder another way and runs elsewhere: the journal's paths are the folder's own.
mkdir -p "$dir/elsewhere" && ln -s "$base" "$dir/linked-baselines"
run bash -c 'cd "$1/elsewhere" && BANKGATE_FAULT_INJECT=staged:1:fail "$2" promote --candidates "$3" --baselines ../linked-baselines' \
  _ "$dir" "$tool" "$cand"
check "the next run reports the rolled-back promotion" '[[ $out == *"rolled back an interrupted promotion (4 of 8"* ]]' "$out"
check "and the baselines are exactly as before the killed run" '[ "$before" = "$(snapshot "$base")" ]' "$(snapshot "$base")"
new_case
run env BANKGATE_FAULT_INJECT=staged:3:kill "$tool" promote --candidates "$cand" --baselines "$base"
check "a promotion killed while staging dies with staging files left" '[ "$rc" -eq 137 ] && [ -n "$(find "$base" -name "*.bankgate-staged-*")" ]'
check "the killed staging changed no baseline" '[ "$(snapshot "$base" | grep -v bankgate-staged)" = "$before" ]'
# Files named like leftovers that no promotion of this machine wrote (an older bankgate's temporary, a pull
# request's) are not the promotion's to remove.
touch "$base/$gpu/S1.json.tmp.12345" "$base/$gpu/S2.json.bankgate-staged"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "the next promotion succeeds" '[ "$rc" -eq 0 ]' "$out"
check "and names the staging files it removed" '[[ $out == *"removed the staging and backup files of an interrupted promotion (3 files"* ]]' "$out"
check "no staging or backup file of its own stays" '[ -z "$(find "$base" -name "*.bankgate-staged-*" -o -name "*.bankgate-backup-*")" ] && [ ! -e "$(journal_of "$base")" ]'
check "files it did not write stay" '[ -f "$base/$gpu/S1.json.tmp.12345" ] && [ -f "$base/$gpu/S2.json.bankgate-staged" ]'

# A journal (this user's own, outside the folder) that points outside its folder is refused, touching nothing.
new_case
echo keep >"$dir/victim.json"
mkdir -p "$(dirname "$(journal_of "$base")")"
printf '{"phase": "committing", "entries": [{"real": "../victim.json", "staged": "victim.json.bankgate-staged-1", "backup": "victim.json.bankgate-backup-1", "created": true,
  "staged_file": {"device": 1, "inode": 1, "size": 1, "mtime_ns": 1}, "original_file": {"device": 1, "inode": 1, "size": 1, "mtime_ns": 1}}]}' >"$(journal_of "$base")"
chmod 600 "$(journal_of "$base")"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a journal pointing outside the folder is refused" '[ "$rc" -ne 0 ] && [[ $out == *"journal"*"unusable"* ]]' "$out"
check "and the file it names is untouched" '[ "$(cat "$dir/victim.json")" = keep ]'
rm "$(journal_of "$base")"

# A promotion killed between creating a staging file and journaling it: no journal names the file. check-baselines
# names it (exit 2), and recover removes it; a file of that shape only in part stays.
new_case
touch "$base/$gpu/S1.json.bankgate-staged-4242-0123456789abcdef" "$base/$gpu/S1.json.bankgate-staged-other"
run "$tool" check-baselines --baselines "$base" --base-ref none
check "check-baselines names a staging file no journal names" \
  '[ "$rc" -eq 2 ] && [[ $out == *"S1.json.bankgate-staged-4242-0123456789abcdef is a staging file an interrupted promotion left"*"bankgate recover --baselines"* ]]' "$out"
run "$tool" recover --baselines "$base"
check "recover removes it and says so" \
  '[ "$rc" -eq 0 ] && [[ $out == *"removed 1 staging files"* ]] && [ ! -e "$base/$gpu/S1.json.bankgate-staged-4242-0123456789abcdef" ] && [ -e "$base/$gpu/S1.json.bankgate-staged-other" ]' "$out"
rm -f "$base/$gpu/S1.json.bankgate-staged-other"

# A journal another folder wrote, one gone since whose inode this folder took: set aside, nothing touched.
new_case
echo keep >"$base/$gpu/S1.json"
printf '{"folder": "/gone/project/baselines", "folder_identity": {"path": "/gone/project/baselines", "birth_ns": 1}, "phase": "committing", "entries": [{"real": "%s/S1.json", "staged": "S1.json.bankgate-staged-1-0000000000000000", "backup": "S1.json.bankgate-backup-1-0000000000000000", "created": true,
  "staged_file": {"device": 1, "inode": 1, "size": 1, "mtime_ns": 1}, "original_file": {"device": 1, "inode": 1, "size": 1, "mtime_ns": 1}}]}' "$gpu" >"$(journal_of "$base")"
chmod 600 "$(journal_of "$base")"
run "$tool" recover --baselines "$base"
check "a journal of another folder that shared this one's inode is set aside, naming that folder" \
  '[ "$rc" -eq 0 ] && [[ $out == *"set aside the journal of an interrupted promotion of /gone/project/baselines"* ]] && [ ! -e "$(journal_of "$base")" ] && [ -e "$(journal_of "$base").stale" ]' "$out"
check "and nothing of this folder is touched" '[ "$(cat "$base/$gpu/S1.json")" = keep ]'
rm -f "$(journal_of "$base").stale"

# Invented beside the attacks: the folder renamed after the kill (as `git mv baselines bl` would): the journal still
# names it (its device, inode and birth), so the half-written folder is refused under its new name, never read as
# whole, and recover rolls it back there.
new_case
run env BANKGATE_FAULT_INJECT=renamed:4:kill "$tool" promote --candidates "$cand" --baselines "$base"
mv "$base" "$dir/renamed"
run "$tool" check-baselines --baselines "$dir/renamed"
check "a folder renamed after a killed promotion is still refused as half-written" \
  '[ "$rc" -ne 0 ] && [[ $out == *"bankgate recover --baselines"*renamed* ]]' "rc $rc: $out"
run "$tool" recover --baselines "$dir/renamed"
check "and recover rolls it back under its new name" '[ "$rc" -eq 0 ] && [ "$before" = "$(snapshot "$dir/renamed")" ]' "rc $rc: $out"

# The state folder below a folder another user can write: they could move the journals away.
new_case
mkdir -p "$root/open" && chmod 777 "$root/open"
run env XDG_STATE_HOME="$root/open/state" "$tool" promote --candidates "$cand" --baselines "$base"
check "a journal folder below a folder others can write is refused" \
  '[ "$rc" -ne 0 ] && [[ $out == *"lies in $root/open, which another user can write"* ]]' "$out"

# 5. An injected failure in the middle of the commit rolls back in the same run.
new_case
run env BANKGATE_FAULT_INJECT=renamed:5:fail "$tool" promote --candidates "$cand" --baselines "$base"
check "a commit failing after 5 of 8 files fails" '[ "$rc" -ne 0 ] && [[ $out == *"nothing was changed"* ]]' "$out"
check "and every file is as before" '[ "$before" = "$(snapshot "$base")" ]'

# 6. Two promotions at once: each is whole; the result is one of them, never a mix.
new_case 3
for s in 1 2 3 4 5 6 7 8; do candidate "$dir/other" "S$s" t 4; done
"$tool" promote --candidates "$cand" --baselines "$base" >"$dir/a.log" 2>&1 &
"$tool" promote --candidates "$dir/other" --baselines "$base" >"$dir/b.log" 2>&1 &
wait
values=$(cat "$base/$gpu"/S*.json | grep -o '"value": [0-9]*' | sort -u | wc -l)
check "two concurrent promotions leave all files from one of them" '[ "$values" -eq 1 ]' "$(cat "$base/$gpu"/S*.json | grep -o '"value": [0-9]*' | sort | uniq -c)"

# 7. Permissions, links, folders and FIFOs in place of baseline files.
new_case
chmod 0444 "$base/$gpu/S1.json"
mkdir -p "$dir/elsewhere" && mv "$base/$gpu/S2.json" "$base/$gpu/real-S2.json" && ln -s real-S2.json "$base/$gpu/S2.json"
run "$tool" promote --candidates "$cand" --baselines "$base"
check "promotion over a read-only file and a link succeeds" '[ "$rc" -eq 0 ]' "$out"
check "a 0444 baseline stays 0444" '[ "$(stat -c %a "$base/$gpu/S1.json")" = 444 ]' "$(stat -c %a "$base/$gpu/S1.json")"
check "a linked baseline stays a link, its target updated" '[ -L "$base/$gpu/S2.json" ] && grep -q "\"value\": 2" "$base/$gpu/real-S2.json"'
new_case
mv "$base/$gpu/S3.json" "$dir/outside.json"; ln -s "$dir/outside.json" "$base/$gpu/S3.json"
outside=$(cat "$dir/outside.json")
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a link pointing outside the baselines folder is refused" '[ "$rc" -ne 0 ] && [[ $out == *"outside the baselines folder"* ]]' "$out"
check "the file outside is untouched" '[ "$(cat "$dir/outside.json")" = "$outside" ]'
new_case
mkdir -p "$dir/outside-folder" && mv "$base/sm_90" "$dir/outside-folder/" && ln -s "$dir/outside-folder/sm_90" "$base/sm_90"
before_outside=$(snapshot "$dir/outside-folder")
run "$tool" promote --candidates "$cand" --baselines "$base"
check "a folder of the baselines linked to outside is refused" '[ "$rc" -ne 0 ] && [[ $out == *"outside the baselines folder"* ]]' "$out"
check "nothing is written through it" '[ "$before_outside" = "$(snapshot "$dir/outside-folder")" ]'
new_case
rm "$base/$gpu/S4.json"; mkdir "$base/$gpu/S4.json"
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "a folder in place of a baseline is reported, not replaced" '[ "$rc" -ne 0 ] && [[ $out == *"S4.json"* ]]' "$out"
new_case
rm "$base/$gpu/S5.json"; mkfifo "$base/$gpu/S5.json"
before=$(snapshot "$base")
run timeout 20 "$tool" promote --candidates "$cand" --baselines "$base"
check "a FIFO in place of a baseline is reported without hanging" '[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [[ $out == *"S5.json"* ]]' "rc $rc: $out"
check "nothing changed" '[ "$before" = "$(snapshot "$base")" ]'

# 8. A read-only baselines folder: the reason, and nothing half-written. Root ignores permissions, so this
# runs as an unprivileged user where the machine has one.
new_case
chmod -R a-w "$base/$gpu"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  chmod -R a+rX "$root"
  mkdir -p "$root/nobody-state" && chown 65534:65534 "$root/nobody-state"  # that user's own journal folder
  run setpriv --reuid=65534 --regid=65534 --clear-groups env XDG_STATE_HOME="$root/nobody-state" \
    "$tool" promote --candidates "$cand" --baselines "$base"
else
  run "$tool" promote --candidates "$cand" --baselines "$base"
fi
if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null 2>&1; then
  echo "skip - read-only folder: running as root without setpriv, permissions do not bind"
else
  check "a read-only folder fails with the reason" '[ "$rc" -ne 0 ] && [[ $out == *"Permission denied"* || $out == *"Read-only"* ]]' "$out"
  check "and nothing changed" '[ "$before" = "$(snapshot "$base")" ]'
fi
chmod -R u+w "$base"

finish
