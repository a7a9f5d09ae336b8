#!/usr/bin/env bash
# The timing gate measured on itself, on this GPU (needs one; about 8 minutes on an H200):
#   1. false alarms against the committed baselines: every GPU suite, unchanged code, 20 times over
#      (PROCESSES processes of each suite binary x REPEAT runs each with --gtest_repeat, default 5 x 4: each
#      run times every test afresh; the processes add fresh CUDA contexts); counts the tests whose duration
#      the gate called SLOWER
#   2. false alarms of the same-runner comparison: ci/compare-commits.sh with base == head (this tree
#      against itself, ROUNDS rounds, default 3)
#   3. sensitivity: bench/timing_gate_bench.cpp, a ~2 us and a ~60 us kernel slowed by 1, 2, 3, 5 and 10%,
#      TRIALS trials per level (default 40), base against base for false alarms
#   4. the wall time the timing phase adds per test, from the suites' "timing in N ms" lines
# Everything measured is this working tree as it is. Logs, candidates and the results go to $OUT (default
# build/timing-bench); RESULTS.md there is the table to commit (as bench/RESULTS.md). PARTS="suites compare
# sensitivity" (the default) picks parts, so that they can run as separate jobs; the build is shared.
# The suites part needs baselines taken with this timing method (schema 2): refresh them first
# (ci/refresh-baselines.sh) if the tests report "unusable baseline" or TIMED DIFFERENTLY; BANKGATE_BASELINE_DIR
# points the suites and the comparison at another set.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/timing-bench}
processes=${PROCESSES:-5}
repeat=${REPEAT:-4}
rounds=${ROUNDS:-3}
trials=${TRIALS:-40}
parts=${PARTS:-suites compare sensitivity}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
bankgate_ensure_dependencies

# The build ci/compare-commits.sh makes of this tree (folder "."), so that part 2 does not build it again.
export BANKGATE_COMPARE_DIR=${BANKGATE_COMPARE_DIR:-$PWD/build/compare}
build_dir="$BANKGATE_COMPARE_DIR/build/dir-$(printf '%s' "$PWD" | cksum | cut -d' ' -f1)"
mkdir -p "$BANKGATE_COMPARE_DIR/build"
start=$(date +%s)
bankgate_build "$build_dir" >"$out/logs/build.log" 2>&1 || { tail -n 30 "$out/logs/build.log"; exit 3; }
echo "== build: $(( $(date +%s) - start )) s ($build_dir)"
suites=$(for f in "$build_dir"/tests/suites/*_suite; do [ -x "$f" ] && basename "$f"; done)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,clocks_event_reasons.active \
  --format=csv >"$out/logs/gpu.txt" 2>&1 || true

# Each part leaves its row in $out/parts/<part>.row, so parts run as separate jobs (or machines, with $OUT
# carried over) add up to one RESULTS.md.
mkdir -p "$out/parts"
row() { printf '%s\n' "$2" >"$out/parts/$1.row"; }
wants() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# Timing verdicts in the suites' output: "[bankgate] Suite.test (kernel k): duration <verdict>".
count() { local verdict=$1; shift; lines "^\[bankgate\] [^ ]+ \(kernel [^)]*\): duration $verdict" "$@"; }
lines() { local pattern=$1; shift; cat "$@" 2>/dev/null | grep -c -E "$pattern"; }

if wants suites; then
  start=$(date +%s)
  rm -rf "$out/suites"
  for p in $(seq 1 "$processes"); do
    for suite in $suites; do
      BANKGATE_REQUIRE_GPU=1 BANKGATE_CANDIDATE_DIR="$out/suites/process-$p" \
        "$build_dir/tests/suites/$suite" --gtest_repeat="$repeat" >"$out/logs/suites-$p-$suite.log" 2>&1
    done
    echo "== suites: process $p of $processes done ($(( $(date +%s) - start )) s)"
  done
  logs=("$out"/logs/suites-*.log)
  runs=$((processes * repeat))
  tests=$(lines '^\[bankgate\] [^ ]+: timing in ' "${logs[@]}")
  slower=$(count regressed "${logs[@]}")
  faster=$(lines '^\[bankgate\] note: .* is faster than its baseline' "${logs[@]}")
  unjudged=$(count "(TIMED DIFFERENTLY|TOO FEW SAMPLES|NOT IN BASELINE|NOT MEASURED)" "${logs[@]}")
  unusable=$(lines 'unusable baseline|no baseline for' "${logs[@]}")
  "$build_dir/cli/bankgate" review --candidates "$out/suites/process-1" --baselines "${BANKGATE_BASELINE_DIR:-baselines}" \
    >"$out/logs/suites-table.txt" 2>&1 || true
  row suites "| full suites vs committed baselines | $runs runs, $tests timed tests | **$slower** | faster: $faster; not judged: $unjudged; no usable baseline: $unusable | $(( $(date +%s) - start )) s |"
  grep -h -E '^\[bankgate\] [^ ]+ \(kernel [^)]*\): duration regressed' -A 8 "${logs[@]}" >"$out/false-alarms.txt" 2>/dev/null || true
  [ "$unusable" -gt 0 ] && echo "== suites: $unusable test runs found no usable baseline; refresh baselines with this timing method first (ci/refresh-baselines.sh)"

  # Wall time of the timing phase per test ("timing in N ms"), over every run.
  grep -h -o -E '^\[bankgate\] [^ ]+: timing in [0-9.]+ ms' "${logs[@]}" | awk '{print $2, $5}' | tr -d ':' >"$out/timing-wall.txt"
  python3 - "$out/timing-wall.txt" "$out/timing-wall.md" <<'PY'
import statistics, sys, collections
per = collections.defaultdict(list)
for line in open(sys.argv[1]):
    test, ms = line.split()
    per[test].append(float(ms))
everything = [v for vs in per.values() for v in vs]
with open(sys.argv[2], "w") as out:
    if not everything:
        out.write("no timing lines found\n")
        sys.exit(0)
    q = statistics.quantiles(everything, n=10) if len(everything) > 1 else everything * 9
    out.write(f"timing phase per test: median {statistics.median(everything):.1f} ms, p90 {q[8]:.1f} ms, "
              f"max {max(everything):.1f} ms over {len(everything)} timed tests; "
              f"a full run of all {len(per)} tests spends {sum(statistics.median(v) for v in per.values()) / 1000:.2f} s timing\n\n")
    out.write("| test | median ms | max ms |\n| --- | --- | --- |\n")
    for test in sorted(per):
        out.write(f"| {test} | {statistics.median(per[test]):.1f} | {max(per[test]):.1f} |\n")
PY
  echo "== suites: $slower timing false alarms in $runs runs ($(( $(date +%s) - start )) s)"
fi

if wants compare; then
  start=$(date +%s)
  ci/compare-commits.sh --rounds "$rounds" . . >"$out/logs/compare-same.log" 2>&1
  status=$?
  rows=$(grep -c -E ' (SLOWER|ok|faster|TIMED DIFFERENTLY|TOO FEW SAMPLES)( |$)' "$out/logs/compare-same.log")
  slower=$(grep -c -E ' SLOWER( |$)' "$out/logs/compare-same.log")
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
  echo "Produced by ci/bench-timing-gate.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ), tree ${BANKGATE_GIT_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}$(bankgate_tree_dirty && echo ' (with uncommitted changes)')."
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
