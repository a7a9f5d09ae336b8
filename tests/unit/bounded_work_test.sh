#!/usr/bin/env bash
# Work is bounded by the amount of it, not per file, without a GPU: a candidate of millions of samples, a file of
# deeply nested arrays or of millions of numbers is refused while it is parsed, in seconds and without the memory
# it would take; the HTML report of a run of many samples stays small.
#
#   tests/unit/bounded_work_test.sh PATH/TO/bankgate REPORT_FIXTURE
#
# REPORT_FIXTURE is a recorded run (tests/unit/fixtures/report/planted-run). Prints "N passed, M failed"; exits
# non-zero if any check failed.
set -uo pipefail
tool=${1:?usage: bounded_work_test.sh PATH/TO/bankgate REPORT_FIXTURE}
fixture=${2:?}
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-bounded.XXXXXX")
trap 'rm -rf "$root"' EXIT
unset CI BANKGATE_BASE_REF
. "$(dirname "$0")/test_lib.sh"
run_timeout=60
gpu=sm_90/nvidia-h200
test_file=Transpose/NaiveSquare.json

# samples FILE COUNT: the candidate FILE given COUNT samples (its own, repeated) and the summary they make, as a
# GPU run would write it (statistics.cpp's quantiles; the standard error shrunk as the square root of the count).
samples() {
  python3 - "$1" "$2" <<'PY'
import json, math, sys
path, count = sys.argv[1], int(sys.argv[2])
d = json.load(open(path))
t = next(iter(d["tests"].values()))
own = t["samples_ns"]
s = [own[i % len(own)] for i in range(count)]
v = sorted(s)
def q(p):
    pos = p * (len(v) - 1); lo = math.floor(pos); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (pos - lo) * (v[hi] - v[lo])
m = q(0.5)
dev = sorted(abs(x - m) for x in v)
mad = dev[(len(dev) - 1) // 2] if len(dev) % 2 else (dev[len(dev) // 2 - 1] + dev[len(dev) // 2]) / 2
t["samples_ns"] = s
t["timing"].update(samples=count, median_ns=m, min_ns=v[0], p10_ns=q(0.1), p90_ns=q(0.9), mad_ns=mad,
                   quantiles_ns=[q(i / 20.0) for i in range(21)],
                   median_se_ns=t["timing"]["median_se_ns"] * math.sqrt(len(own) / count))
json.dump(d, open(path, "w"))
PY
}

echo "# 1. Millions of samples"
for side in base head; do cp -r "$fixture/candidates" "$root/$side"; done
# 10 million whole-nanosecond samples: a file under the 64 MiB any input may have.
python3 - "$root/head/$gpu/$test_file" <<'PY'
import json, sys
path = sys.argv[1]
d = json.load(open(path))
t = next(iter(d["tests"].values()))
t["samples_ns"] = []
text = json.dumps(d)
many = ",".join([str(round(x)) for x in json.load(open(path))["tests"][next(iter(d["tests"]))]["samples_ns"]] * 200000)
open(path, "w").write(text.replace('"samples_ns": []', '"samples_ns": [' + many + ']'))
PY
ls -l "$root/head/$gpu/$test_file" | awk '{print "       a candidate of " $5 " bytes"}'
start=$SECONDS
run "$tool" compare --base "$root/base" --head "$root/head" --json "$root/compare.json"
check "compare refuses a candidate of 10 million samples within seconds" \
  '[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [[ $out == *"more than 1000000 values"* ]] && [ $((SECONDS - start)) -lt 30 ]' \
  "rc $rc after $((SECONDS - start)) s: $out"
cp "$fixture/candidates/$gpu/$test_file" "$root/head/$gpu/$test_file" && samples "$root/head/$gpu/$test_file" 200000
run "$tool" compare --base "$root/base" --head "$root/head" --json "$root/compare.json"
check "and one of 200,000 samples, more than one test may hold" '[ "$rc" -ne 0 ] && [[ $out == *"samples_ns"*"more than the 100000"* ]]' "rc $rc: $out"

echo "# 2. Huge structures"
mkdir -p "$root/nested/$gpu"
python3 -c 'import sys; n = 30 * 1024 * 1024; sys.stdout.write("[" * n + "]" * n)' >"$root/nested/$gpu/Nested.json"
run bash -c 'ulimit -v 1000000; exec "$0" check-baselines --baselines "$1"' "$tool" "$root/nested"
check "a 60 MiB file of nested arrays is refused at its 17th level, within 1 GB of memory" \
  '[ "$rc" -eq 2 ] && [[ $out == *"nests deeper than 16 levels"* ]]' "rc $rc: $out"
mkdir -p "$root/flat/$gpu"
python3 -c 'import sys; sys.stdout.write("[" + ",".join(["1"] * (16 * 1024 * 1024)) + "]")' >"$root/flat/$gpu/Flat.json"
start=$SECONDS
run bash -c 'ulimit -v 1000000; exec "$0" check-baselines --baselines "$1"' "$tool" "$root/flat"
check "a file of 16 million numbers is refused at 1 million values, within 1 GB and seconds" \
  '[ "$rc" -eq 2 ] && [[ $out == *"more than 1000000 values"* ]] && [ $((SECONDS - start)) -lt 30 ]' "rc $rc after $((SECONDS - start)) s: $out"

mkdir -p "$root/wide/$gpu"
python3 -c 'import sys; sys.stdout.write("{\"schema_version\": 4, \"tests\": {" + ",".join("\"t%d\": 0" % i for i in range(300000)) + "}}")' \
  >"$root/wide/$gpu/Wide.json"
run "$tool" check-baselines --baselines "$root/wide"
check "an object of 300,000 keys is refused at 200,000" '[ "$rc" -eq 2 ] && [[ $out == *"more than 200000 keys"* ]]' "rc $rc: $out"

# Every JSON input has the same bounds (input_file.hpp's parse_input_json): a result record here; the resource spec,
# shard durations, shard summaries and manifests read through the same function (InputFile.* unit tests).
mkdir -p "$root/records"
cp "$root/nested/$gpu/Nested.json" "$root/records/Transpose.NaiveSquare.result.json"
run bash -c 'ulimit -v 1000000; exec "$0" verdict --results "$1" --test Transpose.NaiveSquare' "$tool" "$root/records"
check "a result record of nested arrays is refused within 1 GB of memory" '[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [[ $out != *"std::bad_alloc"* ]]' "rc $rc: $out"
echo "# 3. The report of a run of many samples"
run_dir="$root/run" && cp -r "$fixture" "$run_dir"
samples "$run_dir/candidates/$gpu/$test_file" 100000
run "$tool" summary --gtest-results "$run_dir/gtest-results" --candidates "$run_dir/candidates" \
  --baselines "$run_dir/baselines" --html "$run_dir/report.html"
size=$(stat -c %s "$run_dir/report.html" 2>/dev/null || echo 0)
check "a run of 100,000 samples makes a report of the usual size (its curve drawn from 1,001 quantiles)" \
  '[ "$rc" -eq 1 ] && [ "$size" -gt 0 ] && [ "$size" -lt 400000 ]' "rc $rc, $size bytes: $out"

echo "# 4. Budgets per run"
# 60,000 per-line figures over the run's candidates, each file within its own bounds: the run refuses them (100,000
# once made summary --html take 38 s).
budget_dir="$root/budget" && cp -r "$fixture" "$budget_dir"
for file in "$budget_dir"/candidates/$gpu/Transpose/*.json; do
  python3 - "$file" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = next(iter(d["tests"].values()))
t.pop("derived", None)  # figures the lines would have to give; informative, and optional
t["lines"] = [{"executions": 1, "file": "k.cu", "ideal_sectors": 0, "ideal_wavefronts": 0, "kind": "instructions",
               "line": i + 1, "opcode": "", "sectors": 0, "wavefronts": 0} for i in range(7500)]
json.dump(d, open(sys.argv[1], "w"))
PY
done
run "$tool" summary --gtest-results "$budget_dir/gtest-results" --candidates "$budget_dir/candidates" \
  --baselines "$budget_dir/baselines" --html "$budget_dir/report.html" --json "$budget_dir/summary.json"
check "per-line figures past the run's budget are refused, naming the bound" \
  '[ "$rc" -ne 0 ] && [[ $out == *"past the 50000 per-line figures bankgate reads in one run"* ]]' "rc $rc: $(printf '%s' "$out" | head -c 2000)"
# Invented beside the attacks: one failing test whose message is 20 MiB on one line (within the 64 MiB any file may
# have): the verdict stands and the markdown summary still fits a pull request comment.
message_dir="$root/message" && cp -r "$fixture" "$message_dir"
python3 - "$message_dir/gtest-results/Transpose.PaddedSquare.result.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["messages"] = ["x" * (20 << 20)]
json.dump(d, open(sys.argv[1], "w"))
PY
run "$tool" summary --gtest-results "$message_dir/gtest-results" --candidates "$message_dir/candidates" \
  --baselines "$message_dir/baselines" --markdown "$message_dir/summary.md"
md_size=$(wc -c <"$message_dir/summary.md" 2>/dev/null || echo 0)
check "a 20 MiB failure message leaves the verdict and a markdown summary within a pull request comment" \
  '[ "$rc" -eq 1 ] && [ "$md_size" -gt 0 ] && [ "$md_size" -le 65536 ] && grep -q "FAILED" "$message_dir/summary.md"' \
  "rc $rc, $md_size bytes: $(printf '%s' "$out" | head -c 2000)"

finish
