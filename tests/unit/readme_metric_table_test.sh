#!/usr/bin/env bash
# The README's "What is counted" table is the metric table's: the text between its markers must equal what
# `bankgate metrics --markdown` prints, so a counter added to core/src/metrics.cpp shows up in the README or
# this test fails with the command that regenerates it.
#   tests/unit/readme_metric_table_test.sh PATH/TO/bankgate README.md
set -uo pipefail
tool=${1:?usage: readme_metric_table_test.sh PATH/TO/bankgate README.md}
readme=${2:?usage: readme_metric_table_test.sh PATH/TO/bankgate README.md}
begin='<!-- bankgate:metric-table:begin -->'
end='<!-- bankgate:metric-table:end -->'
for marker in "$begin" "$end"; do
  [ "$(grep -cxF -- "$marker" "$readme")" = 1 ] || { echo "FAIL - $readme must hold the line '$marker' once" >&2; exit 1; }
done
have=$(sed -n "\\|^$begin\$|,\\|^$end\$|p" "$readme" | sed '1d;$d')
want=$("$tool" metrics --markdown) || { echo "FAIL - bankgate metrics --markdown failed" >&2; exit 1; }
if [ "$have" = "$want" ]; then
  echo "ok   - the README's metric table matches bankgate metrics --markdown"
  exit 0
fi
echo "FAIL - the README's metric table differs from bankgate metrics --markdown; regenerate the lines between" >&2
echo "       '$begin' and '$end' from: bankgate metrics --markdown" >&2
diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -20 >&2
exit 1
