#!/usr/bin/env bash
# The HTML report of a recorded failing gate run (a bank conflict planted in one warp of one block of the
# transpose kernels, gated on an H200: tests/unit/fixtures/report/planted-run), rendered by headless Chromium
# and read back as the printed page's text: the failure, its source line and its figures must be on the page.
# Then the planted run of tests/unit/planted_report.hpp (a regression 1 us -> 3 us, a crash, a skip, a wrong
# output), written by SAMPLE: the verdict, provenance and overview come first, each failure once.
#   html_report_render_test.sh BANKGATE FIXTURE SOURCES SAMPLE
# Chromium and pdftotext come from ci/test.sh (Debian's chromium, poppler-utils). Without them the test is
# Skipped (exit 77), except in CI, where it fails.
set -uo pipefail
bankgate=$1 fixture=$2 sources=$3 sample=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-report.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok   - $1"; }
fail() { echo "FAIL - $1"; [ -n "${2:-}" ] && printf '       %s\n' "$2"; failures=$((failures + 1)); }

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ] || ! command -v pdftotext >/dev/null; then
  case ${CI:-} in 1 | true | TRUE | True | yes | on) echo "FAIL - chromium and pdftotext are needed (ci/test.sh installs them)"; exit 1 ;; esac
  echo "skipped: no chromium or no pdftotext here (apt-get install chromium poppler-utils)"; exit 77
fi

"$bankgate" summary --gtest-results "$fixture/gtest-results" \
  --candidates "$fixture/candidates" --baselines "$fixture/baselines" --html "$work/report.html" --sources "$sources" \
  >"$work/summary.txt" 2>&1
status=$?
[ "$status" -eq 1 ] && pass "the recorded run is a regression (exit 1)" || fail "the recorded run is a regression (exit 1)" "exit $status"
[ -s "$work/report.html" ] && pass "summary --html writes the report" || { fail "summary --html writes the report"; exit 1; }

# render NAME: NAME.html printed by Chromium to NAME.pdf and read back as text, line breaks folded into spaces:
# in $page in reading order (a table cell's wrapped lines together), in $rows as laid out (a table row's
# cells on one line). Rendered offline: a page that fetched anything would show it missing.
render() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-pdf-header-footer \
    --print-to-pdf="$work/$1.pdf" "file://$work/$1.html" >"$work/chromium.log" 2>&1
  [ -s "$work/$1.pdf" ] && pass "chromium renders $1.html" || { fail "chromium renders $1.html" "$(tail -3 "$work/chromium.log")"; exit 1; }
  pdftotext "$work/$1.pdf" "$work/$1.txt"
  pdftotext -layout "$work/$1.pdf" "$work/$1.layout.txt"
  page=$(tr -s '\n ' '  ' <"$work/$1.txt")
  rows=$(tr -s '\n ' '  ' <"$work/$1.layout.txt")
}
shows() { if grep -qF -- "$2" <<<"$page"; then pass "$1"; else fail "$1" "'$2' is not on the page"; fi; }
in_row() { if grep -qF -- "$2" <<<"$rows"; then pass "$1"; else fail "$1" "'$2' is not on the page as laid out"; fi; }
# before NAME FIRST SECOND: FIRST is on the page, as laid out, above SECOND.
before() {
  local rest=${rows#*"$2"}
  if [ "$rest" != "$rows" ] && [[ $rest == *"$3"* ]]; then pass "$1"; else fail "$1" "'$2' is not above '$3'"; fi
}
render report
shows "the verdict heads the page" "bankgate gate: regressed"
in_row "six tests regressed, two passed" "passed regressed not measured skipped 2 6 0 0"
shows "the failing line is named" "kernels/transpose.cu:57"
shows "with its source text" "kernels/transpose.cu:57 if (blockIdx.x == 0 && blockIdx.y == 0 && ty == 0) value +="
shows "and its figures: new, 32 wavefronts per request" "new → 32.00"
shows "the changed counter with baseline and run" "131200"
shows "the refresh command" "bankgate refresh --filter 'Transpose.TiledSquare'"
shows "the duration plot's legend" "Cumulative share of duration samples"
before "failures come before passed tests" "Failures" "Passed"
shows "the provenance names the GPU and its driver" "NVIDIA H200 (driver 580.159.04, CUDA 13.0)"
shows "and the baselines' commit" "baselines commit 3be886d"
if grep -qiE '<script|https?://' "$work/report.html"; then fail "the page runs and fetches nothing"; else pass "the page runs and fetches nothing"; fi

# Source links by a template: each line of the project's own files links to it; a template that is no http(s)
# address is refused before anything is written.
link='https://git.example/org/repo/-/blob/main/{path}#L{line}'
"$bankgate" summary --gtest-results "$fixture/gtest-results" \
  --candidates "$fixture/candidates" --baselines "$fixture/baselines" --html "$work/linked.html" --sources "$sources" \
  --source-url "$link" >/dev/null 2>&1
grep -qF "<a href='https://git.example/org/repo/-/blob/main/kernels/transpose.cu#L57'>kernels/transpose.cu:57</a>" "$work/linked.html" &&
  pass "--source-url links the source lines" || fail "--source-url links the source lines" "no link to kernels/transpose.cu:57"
BANKGATE_SOURCE_URL="$link" "$bankgate" summary --gtest-results "$fixture/gtest-results" \
  --candidates "$fixture/candidates" --baselines "$fixture/baselines" --html "$work/from-env.html" --sources "$sources" >/dev/null 2>&1
grep -qF "href='https://git.example/org/repo/-/blob/main/kernels/transpose.cu#L57'" "$work/from-env.html" &&
  pass "BANKGATE_SOURCE_URL does the same" || fail "BANKGATE_SOURCE_URL does the same"
refusal=$("$bankgate" summary --gtest-results "$fixture/gtest-results" --html "$work/refused.html" --source-url 'javascript:alert(1)//{path}' 2>&1)
status=$?
[ "$status" -eq 64 ] && [[ $refusal == *"is not an http(s) address"* ]] && [ ! -e "$work/refused.html" ] &&
  pass "a javascript: template is refused, nothing written" || fail "a javascript: template is refused, nothing written" "exit $status: $refusal"
refusal=$(BANKGATE_SOURCE_URL="https://x.example/{path}' onmouseover='alert(1)" "$bankgate" summary --gtest-results "$fixture/gtest-results" \
  --html "$work/refused.html" 2>&1)
status=$?
[ "$status" -eq 2 ] && [[ $refusal == *"BANKGATE_SOURCE_URL: "*"has the character '"* ]] && [ ! -e "$work/refused.html" ] &&
  pass "so is a setting with a quote, naming the variable" || fail "so is a setting with a quote, naming the variable" "exit $status: $refusal"

# The planted run: what a reader sees first, in order, then each failure once.
"$sample" "$work/planted.html" "$sources" || { fail "the planted run's report is written"; exit 1; }
render planted
before "the verdict comes first" "bankgate gate: regressed" "report made by bankgate"
before "then where the results come from" "measured commit 3f9c2e1d4b5a69788796a5b4c3d2e1f0a9b8c7d6 with uncommitted changes" "Overview"
before "then the overview" "passed regressed not measured skipped 1 2 1 1" "Failures"
before "whose first row is the regression, with its first change" "Transpose.PaddedSquare REGRESSED shared load transactions: 65536 -> 2097152" "Failures"
in_row "the regression's table: metric, baseline, measured, change, tolerance, verdict" \
  "metric baseline measured change tolerance verdict"
in_row "a row of it" "duration (median) [ns] 1000 3000 +2000 (+200.0%) +3% +64 ns SLOWER"
shows "a line only the baseline has shows no text of today's file" "kernels/transpose.cu:60 (only in the baseline)"
in_row "the duration plot's axis is labelled" "kernel duration [ns] (axis broken between the two distributions)"
in_row "each span has its own ticks" "990 1000 1010 2980 3000 3020"
shows "its legend gives the ratio of the medians" "the run's median is 3.00× the baseline's"
count=$(grep -c "shared load transactions CHANGED" "$work/planted.txt")
[ "$count" -eq 0 ] && pass "the console text is folded away" || fail "the console text is folded away" "shown $count times"
echo "$((27 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
