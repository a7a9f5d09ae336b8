#!/usr/bin/env bash
# bankgate readme-table against the fixture baselines in tests/unit/fixtures/readme_table/: the
# rendered table (missing expectations, mismatches marked, natural order), rewriting a README between its
# markers and nothing else, --check, and the refusals that must leave the README untouched.
#
#   tests/unit/readme_table_test.sh PATH/TO/bankgate FIXTURE_DIR
#
# The expected table is a file (expected_table.md) so that a change of format shows in review as a diff.
# Prints "N passed, M failed" and exits non-zero if any check failed.
set -uo pipefail

tool=${1:?usage: readme_table_test.sh PATH/TO/bankgate FIXTURE_DIR}
fixtures=${2:?usage: readme_table_test.sh PATH/TO/bankgate FIXTURE_DIR}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-readme-table.XXXXXX")
trap 'rm -rf "$root"' EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1" >&2; [ -n "${2:-}" ] && printf '       %s\n' "$2" >&2; return 0; }

baselines="$fixtures/baselines"
gpu=sm_90/nvidia-h200

# run ARGS...: runs the tool, keeping its exit code in $rc and stdout+stderr in $out. Under a time limit: a read
# that blocks (a FIFO in the README's place) fails its check with 124 instead of hanging the test.
run() {
  out=$(timeout 20 "$tool" readme-table "$@" 2>&1)
  rc=$?
}
expect_rc() {  # expect_rc NAME WANT
  if [ "$rc" -eq "$2" ]; then pass "$1"; else fail "$1" "exit code $rc, expected $2; output:"$'\n'"$out"; fi
}
expect_out() {  # expect_out NAME TEXT: the output mentions TEXT
  case $out in *"$2"*) pass "$1" ;; *) fail "$1" "no '$2' in:"$'\n'"$out" ;; esac
}
unchanged() {  # unchanged NAME FILE COPY
  if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$3" "$2")"; fi
}
check() {  # check NAME CONDITION [DETAIL]
  if eval "$2"; then pass "$1"; else fail "$1" "${3:-}"; fi
}

# ---------------------------------------------------------------------------------------------------------
# Printing: exactly the expected table, the same on every run.
run --baselines "$baselines" --gpu "$gpu"
expect_rc "printing the table succeeds" 0
if [ "$out" = "$(cat "$fixtures/expected_table.md")" ]; then pass "the printed table is expected_table.md"
else fail "the printed table is expected_table.md" "$(diff <(printf '%s\n' "$out") "$fixtures/expected_table.md")"; fi
first=$out
run --baselines "$baselines"
[ "$out" = "$first" ] && pass "the only GPU folder is chosen without --gpu, same table" ||
  fail "the only GPU folder is chosen without --gpu, same table" "$out"
case $out in *"| Copy.Plain | \`plainCopy\` | — / — | 0 / 0 | — / — | — / — | — | — | — |"*) pass "a test without 'expected' or timing shows —" ;;
  *) fail "a test without 'expected' or timing shows —" "$out" ;; esac
expect_out "a measured value that differs from the expectation is marked" "| 2.965 ≠ / 0 |"
expect_out "only the differing value of a row is marked" "| 32 / 1.062 ≠ |"
expect_out "a value equal at the precision shown is not marked" "| 0.727 / 0 | 0.727 / 0 |"
expect_out "'|' in a reason is escaped, a newline folded" "LDGSTS \\| not shared stores"
async4=$(printf '%s\n' "$out" | grep -n 'Copy.Async4 ' | cut -d: -f1)
async16=$(printf '%s\n' "$out" | grep -n 'Copy.Async16 ' | cut -d: -f1)
[ -n "$async4" ] && [ -n "$async16" ] && [ "$async4" -lt "$async16" ] && pass "Async4 comes before Async16" ||
  fail "Async4 comes before Async16" "$out"

# ---------------------------------------------------------------------------------------------------------
# --readme: the text between the markers is replaced, everything else kept byte for byte.
readme="$root/README.md"
cp "$fixtures/README.fixture.md" "$readme"
run --baselines "$baselines" --gpu "$gpu" --readme "$readme"
expect_rc "--readme rewrites the table" 0
{
  sed -n '1,/<!-- bankgate:kernel-table:begin -->/p' "$fixtures/README.fixture.md"
  cat "$fixtures/expected_table.md"
  sed -n '/<!-- bankgate:kernel-table:end -->/,$p' "$fixtures/README.fixture.md"
} >"$root/want.md"
unchanged "the README holds the table between its markers and nothing else changed" "$readme" "$root/want.md"
[ -z "$(find "$root" -name 'README.md.tmp*' -print -quit)" ] && pass "no temporary file is left beside the README" ||
  fail "no temporary file is left beside the README" "$(ls "$root")"
run --baselines "$baselines" --gpu "$gpu" --readme "$readme"
expect_rc "a second --readme succeeds" 0
expect_out "a second --readme finds the table up to date" "up to date"
unchanged "a second --readme changes nothing" "$readme" "$root/want.md"

# --check: 0 when the README is current; 1, naming the difference and the command, when it is not.
run --baselines "$baselines" --gpu "$gpu" --readme "$readme" --check
expect_rc "--check on a current README exits 0" 0
cp "$fixtures/README.fixture.md" "$root/stale.md"
cp "$root/stale.md" "$root/stale.copy"
run --baselines "$baselines" --gpu "$gpu" --readme "$root/stale.md" --check
expect_rc "--check on a stale README exits 1" 1
expect_out "--check names the first differing line" "| stale | table |"
expect_out "--check gives the command that regenerates the table" "readme-table --baselines $baselines --gpu $gpu --readme $root/stale.md"
unchanged "--check writes nothing" "$root/stale.md" "$root/stale.copy"
# The printed command, pasted into a shell, regenerates the table and runs nothing else, whatever the folder's name
# holds (a command substitution and a quote).
hostile="$root/d\$(touch PWNED)'q"
mkdir -p "$hostile" "$root/paste" && cp "$fixtures/README.fixture.md" "$hostile/README.md"
run --baselines "$baselines" --gpu "$gpu" --readme "$hostile/README.md" --check
pasted=$(printf '%s\n' "$out" | sed -n 's/^regenerate it (never edit it by hand): //p')
(cd "$root/paste" && sh -c "$pasted" >/dev/null 2>&1)
check "the pasted command of a folder named \$(touch PWNED) runs nothing else" \
  '[ -n "$pasted" ] && [ -z "$(find "$root" -name PWNED -print -quit)" ]' "pasted: $pasted"
run --baselines "$baselines" --gpu "$gpu" --readme "$hostile/README.md" --check
expect_rc "and it regenerated that folder's table" 0
sed 's/| 2.965 ≠ \/ 0 |/| 2.965 \/ 0 |/' "$readme" >"$root/edited.md"
run --baselines "$baselines" --gpu "$gpu" --readme "$root/edited.md" --check
expect_rc "--check catches a hand edit of one cell" 1

# A README that is a link (a page kept elsewhere in the repository): the page is written through it, the link
# stays and the page keeps its mode (it was replaced by a plain file of mode 644, the page left stale). A link
# out of the repository is refused: nothing there is read (--check would print its lines) or written.
repo="$root/repo" && mkdir -p "$repo/docs" && git init -q "$repo"
cp "$fixtures/README.fixture.md" "$repo/docs/page.md" && chmod 600 "$repo/docs/page.md" && ln -s docs/page.md "$repo/README.md"
run --baselines "$baselines" --gpu "$gpu" --readme "$repo/README.md"
expect_rc "--readme through a link rewrites the table" 0
check "the link stays a link" '[ -L "$repo/README.md" ]'
unchanged "the page it leads to holds the table" "$repo/docs/page.md" "$root/want.md"
check "the page keeps its mode 600" '[ "$(stat -c %a "$repo/docs/page.md")" = 600 ]' "$(stat -c %a "$repo/docs/page.md")"
printf 'secret line one\n<!-- bankgate:kernel-table:begin -->\nTOKEN-outside-readme\n<!-- bankgate:kernel-table:end -->\n' >"$root/outside.md"
cp "$root/outside.md" "$root/outside.copy"
ln -s ../outside.md "$repo/OUT.md"
for check_flag in "" --check; do
  run --baselines "$baselines" --gpu "$gpu" --readme "$repo/OUT.md" $check_flag
  expect_rc "a README linked out of the repository is refused${check_flag:+ by $check_flag}" 2
  expect_out "${check_flag:+$check_flag: }the refusal says where the link leads" "outside the repository"
  check "${check_flag:+$check_flag: }nothing of the file outside is shown" '[[ $out != *TOKEN-outside* ]]' "$out"
  unchanged "${check_flag:+$check_flag: }the file outside is untouched" "$root/outside.md" "$root/outside.copy"
done

# ---------------------------------------------------------------------------------------------------------
# Markers missing, doubled, out of order or not on their own line: exit 2, the README untouched.
bad_markers() {  # bad_markers NAME CONTENT
  printf '%s' "$2" >"$root/bad.md"
  cp "$root/bad.md" "$root/bad.copy"
  run --baselines "$baselines" --gpu "$gpu" --readme "$root/bad.md"
  expect_rc "$1: exit 2" 2
  expect_out "$1: the message names the marker" "bankgate:kernel-table:"
  expect_out "$1: says nothing was written" "nothing was written"
  unchanged "$1: the README is untouched" "$root/bad.md" "$root/bad.copy"
  run --baselines "$baselines" --gpu "$gpu" --readme "$root/bad.md" --check
  expect_rc "$1: --check exits 2 as well" 2
}
begin='<!-- bankgate:kernel-table:begin -->'
end='<!-- bankgate:kernel-table:end -->'
bad_markers "no markers" $'# A project\n\nNo table here.\n'
bad_markers "only the begin marker" "# A project"$'\n'"$begin"$'\n| x |\n'
bad_markers "only the end marker" "# A project"$'\n| x |\n'"$end"$'\n'
bad_markers "end before begin" "$end"$'\n| x |\n'"$begin"$'\n'
bad_markers "a doubled begin marker" "$begin"$'\n'"$begin"$'\n'"$end"$'\n'
bad_markers "a marker inside a line" "see $begin here"$'\n'"$end"$'\n'
run --baselines "$baselines" --gpu "$gpu" --readme "$root/missing.md"
expect_rc "a README that does not exist: exit 2" 2
[ ! -e "$root/missing.md" ] && pass "a README that does not exist is not created" ||
  fail "a README that does not exist is not created"

# ---------------------------------------------------------------------------------------------------------
# Baselines it cannot render: another schema version (exit 4, CTest's Skipped) and a corrupt file (exit 2).
copy_baselines() { rm -rf "$root/b"; mkdir -p "$root/b"; cp -r "$baselines/." "$root/b/"; }
copy_baselines
sed 's/"schema_version": 4/"schema_version": 1/' "$baselines/$gpu/Copy.json" >"$root/b/$gpu/Copy.json"
cp "$readme" "$root/readme.copy"
run --baselines "$root/b" --gpu "$gpu" --readme "$readme"
expect_rc "a baseline of another schema version: exit 4" 4
expect_out "the message names the file and its schema version" "Copy.json has schema version 1"
expect_out "the message says how to regenerate" "bankgate refresh"
unchanged "a baseline of another schema version: the README is untouched" "$readme" "$root/readme.copy"
run --baselines "$root/b" --gpu "$gpu" --readme "$readme" --check
expect_rc "--check with a baseline of another schema version: exit 4" 4
copy_baselines
printf '{"schema_version": 4, "suite": "Copy", "tests": {' >"$root/b/$gpu/Copy.json"
run --baselines "$root/b" --gpu "$gpu" --readme "$readme"
expect_rc "a corrupt baseline: exit 2" 2
expect_out "a corrupt baseline is named" "Copy.json"
unchanged "a corrupt baseline: the README is untouched" "$readme" "$root/readme.copy"
copy_baselines
rm "$root/b/$gpu/"*.json
run --baselines "$root/b" --gpu "$gpu"
expect_rc "a GPU folder without baselines: exit 2" 2
# Blind spots: a folder in a baseline's place dropped that suite's rows; a misspelt metric passed --check.
copy_baselines
rm "$root/b/$gpu/Copy.json" && mkdir "$root/b/$gpu/Copy.json"
run --baselines "$root/b" --gpu "$gpu" --readme "$readme" --check
expect_rc "a folder in place of a baseline: exit 2, not a table without that suite" 2
expect_out "the folder is named" "Copy.json is not a regular file"
copy_baselines
sed -i "s/smsp__sass_inst_executed_op_shared_ld.sum/smsp__sass_inst_executed_op_shared_ld.summ/" "$root/b/$gpu/Copy.json"
run --baselines "$root/b" --gpu "$gpu" --readme "$readme" --check
expect_rc "a misspelt metric: exit 2" 2
expect_out "the misspelt metric is named" "shared_ld.summ' is an unknown metric"

# ---------------------------------------------------------------------------------------------------------
# A baseline is a pull request's to change: a reason ('why') holding the README's markers was written into the
# table as it was, leaving the README with two end markers (the next rewrite refused it, or cut it in the wrong
# place). Cells escape "<!--" and "-->", so the README keeps one pair of markers and its text around them.
copy_baselines
sed -i 's|"why": "a warp.s 32 words in one wavefront"|"why": "x '"$end $begin"' after -->"|' "$root/b/$gpu/Copy.json"
grep -qF "$end" "$root/b/$gpu/Copy.json" && pass "the planted reason holds the end marker" ||
  fail "the planted reason holds the end marker" "$(grep why "$root/b/$gpu/Copy.json")"
cp "$fixtures/README.fixture.md" "$root/markers.md"
run --baselines "$root/b" --gpu "$gpu" --readme "$root/markers.md"
expect_rc "a reason holding the markers: the table is written" 0
occurrences() { grep -oF -- "$1" "$2" | wc -l; }
[ "$(occurrences "$begin" "$root/markers.md")" -eq 1 ] && [ "$(occurrences "$end" "$root/markers.md")" -eq 1 ] &&
  pass "a reason holding the markers: the README has each marker exactly once" ||
  fail "a reason holding the markers: the README has each marker exactly once" "$(cat "$root/markers.md")"
[ "$(occurrences "-->" "$root/markers.md")" -eq 2 ] && pass "a reason holding the markers: no '-->' of its own is left" ||
  fail "a reason holding the markers: no '-->' of its own is left" "$(cat "$root/markers.md")"
case $(cat "$root/markers.md") in
  *'| x &lt;!-- bankgate:kernel-table:end --&gt; &lt;!-- bankgate:kernel-table:begin --&gt; after --&gt; |'*)
    pass "a reason holding the markers: shown with the markers escaped" ;;
  *) fail "a reason holding the markers: shown with the markers escaped" "$(grep 'Copy.Plain\|x &' "$root/markers.md")" ;;
esac
[ "$(head -n 1 "$root/markers.md")" = "# A project" ] && [ "$(tail -n 1 "$root/markers.md")" = "Text after the table stays as it is, too." ] &&
  pass "a reason holding the markers: the text around the table is kept" ||
  fail "a reason holding the markers: the text around the table is kept" "$(cat "$root/markers.md")"
run --baselines "$root/b" --gpu "$gpu" --readme "$root/markers.md"
expect_rc "a reason holding the markers: a second rewrite succeeds" 0
expect_out "a reason holding the markers: a second rewrite finds the table up to date" "up to date"
run --baselines "$root/b" --gpu "$gpu" --readme "$root/markers.md" --check
expect_rc "a reason holding the markers: --check passes" 0

# A FIFO or a device in the README's place: refused at once, never waited on or read until memory runs out.
mkfifo "$root/readme.fifo"
run --baselines "$baselines" --gpu "$gpu" --readme "$root/readme.fifo"
expect_rc "a FIFO as the README: refused at once (exit 2)" 2
expect_out "a FIFO as the README: named as no regular file" "readme.fifo: is not a regular file"
[ -p "$root/readme.fifo" ] && pass "a FIFO as the README: left in place" || fail "a FIFO as the README: left in place"
run --baselines "$baselines" --gpu "$gpu" --readme "$root/readme.fifo" --check
expect_rc "a FIFO as the README, --check: refused at once (exit 2)" 2
run --baselines "$baselines" --gpu "$gpu" --readme /dev/zero
expect_rc "/dev/zero as the README: refused at once (exit 2)" 2
expect_out "/dev/zero as the README: named as no regular file" "/dev/zero: is not a regular file"
run --baselines "$baselines" --gpu "$gpu" --readme /dev/zero --check
expect_rc "/dev/zero as the README, --check: refused at once (exit 2)" 2

# ---------------------------------------------------------------------------------------------------------
# Usage errors: exit 2.
run --check
expect_rc "--check without --readme is a usage error (exit 64)" 64
run --baselines "$baselines" --gpu sm_90
expect_rc "--gpu without a model: exit 2" 2
run --baselines "$baselines" --bogus
expect_rc "an unknown option is a usage error (exit 64)" 64
copy_baselines
mkdir -p "$root/b/sm_89/nvidia-l40s"
run --baselines "$root/b"
expect_rc "several GPU folders and no --gpu: exit 2" 2
expect_out "several GPU folders: the message asks for --gpu" "--gpu ARCH/MODEL"
run --baselines "$root/b" --gpu "$gpu"
expect_rc "several GPU folders with --gpu: the table" 0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
