#!/usr/bin/env bash
# The "What is counted" table of the manual (docs/measurement.md) is the metric table's: the text between its
# markers must equal what `bankgate metrics --markdown` prints, so a counter added to core/src/metrics.cpp shows
# up in the page or this test fails with the command that regenerates it.
#   tests/unit/readme_metric_table_test.sh PATH/TO/bankgate PAGE.md
set -uo pipefail
tool=${1:?usage: readme_metric_table_test.sh PATH/TO/bankgate PAGE.md}
page=${2:?usage: readme_metric_table_test.sh PATH/TO/bankgate PAGE.md}
begin='<!-- bankgate:metric-table:begin -->'
end='<!-- bankgate:metric-table:end -->'
for marker in "$begin" "$end"; do
  [ "$(grep -cxF -- "$marker" "$page")" = 1 ] || { echo "FAIL - $page must hold the line '$marker' once" >&2; exit 1; }
done
have=$(sed -n "\\|^$begin\$|,\\|^$end\$|p" "$page" | sed '1d;$d')
want=$("$tool" metrics --markdown) || { echo "FAIL - bankgate metrics --markdown failed" >&2; exit 1; }
if [ "$have" = "$want" ]; then
  echo "ok   - the metric table of $page matches bankgate metrics --markdown"
  exit 0
fi
echo "FAIL - the metric table of $page differs from bankgate metrics --markdown; regenerate the lines between" >&2
echo "       '$begin' and '$end' from: bankgate metrics --markdown" >&2
diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -20 >&2
exit 1
