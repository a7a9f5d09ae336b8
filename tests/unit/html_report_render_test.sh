#!/usr/bin/env bash
# The HTML report of a recorded failing gate run (a bank conflict planted in one warp of one block of the
# transpose kernels, gated on an H200: tests/unit/fixtures/report/planted-run), rendered by headless Chromium
# and read back as the printed page's text: the failure, its source line and its figures must be on the page.
#   html_report_render_test.sh BANKGATE FIXTURE SOURCES
# Chromium and pdftotext come from ci/test.sh (Debian's chromium, poppler-utils). Without them the test is
# Skipped (exit 77), except in CI, where it fails.
set -uo pipefail
bankgate=$1 fixture=$2 sources=$3
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

"$bankgate" summary --junit "$fixture/ctest-junit.xml" --gtest-results "$fixture/gtest-results" \
  --candidates "$fixture/candidates" --baselines "$fixture/baselines" --html "$work/report.html" --sources "$sources" \
  >"$work/summary.txt" 2>&1
status=$?
[ "$status" -eq 1 ] && pass "the recorded run is a regression (exit 1)" || fail "the recorded run is a regression (exit 1)" "exit $status"
[ -s "$work/report.html" ] && pass "summary --html writes the report" || { fail "summary --html writes the report"; exit 1; }

# Rendered offline: a page that fetched anything would show it missing.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-pdf-header-footer \
  --print-to-pdf="$work/report.pdf" "file://$work/report.html" >"$work/chromium.log" 2>&1
[ -s "$work/report.pdf" ] && pass "chromium renders the report" || { fail "chromium renders the report" "$(tail -3 "$work/chromium.log")"; exit 1; }
# The page's text in reading order, with line breaks (table cells wrap) folded into spaces.
pdftotext "$work/report.pdf" "$work/page.txt"
page=$(tr -s '\n ' '  ' <"$work/page.txt")
shows() { if grep -qF -- "$2" <<<"$page"; then pass "$1"; else fail "$1" "'$2' is not on the page"; fi; }
shows "the verdict heads the page" "bankgate gate: regressed"
shows "six tests regressed, two passed" "2 passed, 6 regressed"
shows "the failing line is named" "kernels/transpose.cu:57"
shows "with its source text" "kernels/transpose.cu:57 if (blockIdx.x == 0 && blockIdx.y == 0 && ty == 0) value +="
shows "and its figures: new, 32 wavefronts per request" "new → 32.00"
shows "the changed counter with baseline and run" "131200"
shows "the refresh command" "refresh --build"
shows "the duration plot's legend" "Cumulative share of duration samples"
first_failure=$(grep -n "^Failures$" "$work/page.txt" | head -1 | cut -d: -f1)
first_pass=$(grep -n "^Passed$" "$work/page.txt" | head -1 | cut -d: -f1)
[ -n "$first_failure" ] && [ -n "$first_pass" ] && [ "$first_failure" -lt "$first_pass" ] &&
  pass "failures come before passed tests" || fail "failures come before passed tests" "Failures at line ${first_failure:-?}, Passed at ${first_pass:-?}"
if grep -qiE '<script|https?://' "$work/report.html"; then fail "the page runs and fetches nothing"; else pass "the page runs and fetches nothing"; fi
echo "$((12 - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
