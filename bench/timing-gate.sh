#!/usr/bin/env bash
# The timing gate measured on itself, on this GPU (needs one):
#   1. false alarms against the committed baselines: RUNS whole gates (`bankgate gate`, default 5; about a
#      minute each on an H200) of unchanged code; counts the tests whose duration the gate called SLOWER,
#      from the command's JSON (the review of each run's candidates)
#   2. false alarms of the same-runner comparison: ci/compare-commits.sh with base == head (this tree
#      against itself, ROUNDS rounds, default 3)
#   3. sensitivity: bench/timing_gate_bench.cpp, a ~1 us and a ~60 us kernel slowed by 1, 2, 3, 5 and 10%,
#      TRIALS trials per level (default 40), base against base for false alarms
#   4. the wall time the timing phase adds per test, from the timing_host_ms each test records (summary JSON)
# Everything measured is this working tree as it is. Logs, candidates and the results go to $OUT (default
# build/timing-bench); RESULTS.md there is the table to commit (as bench/RESULTS.md). PARTS="suites compare
# sensitivity" (the default) picks parts, so that they can run as separate jobs; the build is shared.
# The suites part needs baselines taken with this timing method (schema 2): refresh them first
# (tools/refresh-baselines.sh) if the tests report "unusable baseline" or TIMED DIFFERENTLY; BANKGATE_BASELINE_DIR
# points the suites and the comparison at another set.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/timing-bench}
runs=${RUNS:-5}
rounds=${ROUNDS:-5}
trials=${TRIALS:-40}
parts=${PARTS:-suites compare sensitivity}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
bankgate_ensure_dependencies

# The build ci/compare-commits.sh makes of this tree (folder "."), so that part 2 does not build it again.
export BANKGATE_COMPARE_DIR=${BANKGATE_COMPARE_DIR:-$PWD/build/compare}
build_dir=$(bankgate_bench_build_dir)
start=$(date +%s)
bankgate_build "$build_dir" >"$out/logs/build.log" 2>&1 || { tail -n 30 "$out/logs/build.log"; exit 3; }
echo "== build: $(( $(date +%s) - start )) s ($build_dir)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,clocks_event_reasons.active \
  --format=csv >"$out/logs/gpu.txt" 2>&1 || true

# Each part leaves its row in $out/parts/<part>.row, so parts run as separate jobs (or machines, with $OUT
# carried over) add up to one RESULTS.md.
mkdir -p "$out/parts"
row() { printf '%s\n' "$2" >"$out/parts/$1.row"; }
wants() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if wants suites; then
  # Each run is a whole gate (`bankgate gate`, one process per suite) on the unchanged tree; the
  # verdicts come from the command's JSON: the review of each run's candidates against the committed
  # baselines (every duration row, faster ones included), and the summary's recorded timing cost per test.
  start=$(date +%s)
  rm -rf "$out/suites"
  mkdir -p "$out/suites"
  candidates=$(bankgate_result_path "$build_dir/cli/bankgate" "$build_dir" gate_candidates) || exit 3
  for p in $(seq 1 "$runs"); do
    "$build_dir/cli/bankgate" gate --build "$build_dir" --no-build --json "$out/suites/summary-$p.json" \
      >"$out/logs/suites-$p.log" 2>&1
    "$build_dir/cli/bankgate" review --candidates "$candidates" \
      ${BANKGATE_BASELINE_DIR:+--baselines "$BANKGATE_BASELINE_DIR"} --json "$out/suites/review-$p.json" \
      >"$out/logs/suites-review-$p.txt" 2>&1
    echo "== suites: gate run $p of $runs done ($(( $(date +%s) - start )) s)"
  done
  python3 - "$out/suites" "$runs" "$out/timing-wall.md" "$out/false-alarms.txt" "$out/parts/suites.row" "$(( $(date +%s) - start ))" <<'PY'
import collections, pathlib, statistics, sys
sys.path.insert(0, "tools")
from bankgate_outputs import read_review, read_summary
folder, runs, wall_md, alarms_txt, row_file, seconds = pathlib.Path(sys.argv[1]), int(sys.argv[2]), *sys.argv[3:6], sys.argv[6]
verdicts, alarms, per_test = collections.Counter(), [], collections.defaultdict(list)
for p in range(1, runs + 1):
    review = read_review(folder / f"review-{p}.json") if (folder / f"review-{p}.json").exists() else {"rows": []}
    for r in review["rows"]:
        if not r["timing"]:
            continue
        verdicts[r["verdict"]] += 1
        if r["verdict"] == "slower":
            alarms.append(f"run {p}: {r['suite']}.{r['test']} {r['measured']:.1f} ns against {r['baseline']:.1f} ns")
    summary = read_summary(folder / f"summary-{p}.json") if (folder / f"summary-{p}.json").exists() else {"tests": []}
    for t in summary["tests"]:
        if "timing_host_ms" in t["properties"]:
            per_test[t["name"]].append(t["properties"]["timing_host_ms"])
timed = sum(verdicts.values())
other = ", ".join(f"{v}: {n}" for v, n in sorted(verdicts.items()) if v not in ("pass", "slower")) or "none"
pathlib.Path(row_file).write_text(f"| full gates vs committed baselines | {runs} runs, {timed} timed tests | **{verdicts['slower']}** | other verdicts: {other} | {seconds} s |\n")
pathlib.Path(alarms_txt).write_text("\n".join(alarms) + "\n")
everything = [v for vs in per_test.values() for v in vs]
with open(wall_md, "w") as out:
    if not everything:
        out.write("no timing cost recorded (no test measured)\n")
    else:
        q = statistics.quantiles(everything, n=10) if len(everything) > 1 else everything * 9
        out.write(f"timing phase per test: median {statistics.median(everything):.1f} ms, p90 {q[8]:.1f} ms, "
                  f"max {max(everything):.1f} ms over {len(everything)} timed tests; a full run of all {len(per_test)} "
                  f"tests spends {sum(statistics.median(v) for v in per_test.values()) / 1000:.2f} s timing\n\n")
        out.write("| test | median ms | max ms |\n| --- | --- | --- |\n")
        for test in sorted(per_test):
            out.write(f"| {test} | {statistics.median(per_test[test]):.1f} | {max(per_test[test]):.1f} |\n")
print(f"== suites: {verdicts['slower']} timing false alarms in {timed} timed tests over {runs} gate runs")
PY
fi

if wants compare; then
  start=$(date +%s)
  ci/compare-commits.sh --rounds "$rounds" . . >"$out/logs/compare-same.log" 2>&1
  status=$?
  # The command's JSON (compare writes it beside its logs), not its console table.
  read -r rows slower < <(python3 -c 'import sys; sys.path.insert(0, "tools"); from bankgate_outputs import duration_findings, read_compare; f=[x for _, x in duration_findings(read_compare(sys.argv[1]))]; print(len(f), sum(x["verdict"] == "slower" for x in f))' \
    "$(bankgate_result_path "$build_dir/cli/bankgate" "$build_dir" compare_result)" 2>/dev/null || echo "? ?")
  row compare "| compare-commits, base == head | $rounds rounds per side, $rows rows | **$slower** | exit $status (0 = passed) | $(( $(date +%s) - start )) s |"
  echo "== compare base == head: exit $status, $slower SLOWER ($(( $(date +%s) - start )) s)"
fi

if wants sensitivity; then
  start=$(date +%s)
  "$build_dir/bench/bankgate-timing-bench" --out "$out/sensitivity" --trials "$trials" --rounds "$rounds" \
    --max-seconds "${SENSITIVITY_SECONDS:-200}" >"$out/logs/sensitivity.log" 2>&1
  status=$?
  false_alarms=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(l['same_runner_slower']+l['vs_baseline_slower'] for l in d['levels'] if l['intended_slowdown']==0))" \
    "$out/sensitivity/timing-gate-bench.json" 2>/dev/null || echo "?")
  row sensitivity "| sensitivity bench, 0% level (base vs base) | see below | **$false_alarms** | exit $status | $(( $(date +%s) - start )) s |"
  echo "== sensitivity: exit $status ($(( $(date +%s) - start )) s)"
fi

{
  echo "# The timing gate on $(head -n 2 "$out/logs/gpu.txt" | tail -n 1 | cut -d, -f1-2)"
  echo
  echo "Produced by bench/timing-gate.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ), tree ${BANKGATE_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}$(bankgate_tree_dirty && echo ' (with uncommitted changes)')."
  echo
  echo "| part | runs | timing false alarms (SLOWER) | other | wall |"
  echo "| --- | --- | --- | --- | --- |"
  for part in suites compare sensitivity; do [ -f "$out/parts/$part.row" ] && cat "$out/parts/$part.row"; done
  echo
  [ -f "$out/timing-wall.md" ] && cat "$out/timing-wall.md" && echo
  [ -f "$out/sensitivity/timing-gate-bench.md" ] && sed '1s/^# /## /' "$out/sensitivity/timing-gate-bench.md"
} >"$out/RESULTS.md"
echo
cat "$out/RESULTS.md"
