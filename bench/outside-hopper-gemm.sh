#!/usr/bin/env bash
# A real Hopper codebase gated as an outside project adopts bankgate: the kernels of fast.cu
# (github.com/pranjalssh/fast.cu at commit 38eb642e0c081231d6f695978be63604bd7c689b, MIT; kernel 1 on CUDA cores,
# kernels 2-12 with TMA, wgmma, warp specialisation, clusters and multicast) in ONE suite of an adopter's project
# kept outside this repository (default .outside/fastcu, fast.cu's checkout in its fast.cu/). The regression case
# of issue 42: every kernel measured in one process, durations judged level by level. On a GPU machine (one GPU):
#   build     bankgate (library and command, without the catalogue) from BANKGATE_SOURCE (default: this checkout),
#             installed into a prefix; the project against it (find_package), and its planted builds where asked
#   refresh   `bankgate refresh --new-gpu --processes 3` into scratch baselines inside the project's build (never a
#             committed baselines folder): must exit 0 with every test baselined; each test's median per process
#   gates     GATES gates (default 5) of the unchanged build against them: any duration verdict but pass is a false
#             alarm; how many tests were measured again in fresh processes, and how many of those processes
#   cross     GATES gates against CROSS_BASELINES (scratch baselines another card of this model recorded)
#   levels    the project's levels/levels.sh: the kernels timed with CUDA events alone in 30 fresh processes, no
#             bankgate in the process; every process's median per kernel
#   aa        AA compares (default 1) of the build against itself, default rounds and extra time
#   planted   compare of the build (base) against the planted build (PLANT_ARGS, default -DFASTCU_PLANT_EXTRA_K=64:
#             2% more work in PLANT_TEST's kernel), which must call PLANT_TEST SLOWER (exit 1), and its gate
#   slowed    SLOWED_GATES gates (default 5) of a build whose PLANT_TEST kernel waits 10% of its time first
#             (SLOWED_ARGS, default -DFASTCU_PLANT_DELAY_NS=12700 of kernel 12's 127 us on an H200: time alone,
#             every gated counter unchanged but the instruction totals):
#             its duration verdict must be SLOWER in every gate, however many processes it is measured in
#   bench/outside-hopper-gemm.sh [PROJECT]    (or FASTCU_PROJECT; default .outside/fastcu)
# The project must take FASTCU_BASELINES (its suite's baselines folder) and the variables PLANT_ARGS and SLOWED_ARGS
# set as CMake cache variables. PARTS picks parts (default "refresh gates aa planted slowed"; build always runs).
# Builds go to WORK (default build/outside-hopper-gemm); logs, JSON outputs and the scratch baselines go to $OUT
# (default WORK/out), packed into $OUT/logs.tgz at the end (a lent machine returns few files). The table, each
# part's exit code with the one wanted and its seconds, is printed last and kept in $OUT/table.txt; every figure is
# read from the command's JSON outputs and suite files, not from its console.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
. ci/lib.sh

case ${1:-} in -h | --help) sed -n '2,22p' "$0"; exit 0 ;; esac
project=$(cd "${1:-${FASTCU_PROJECT:-.outside/fastcu}}" 2>/dev/null && pwd) ||
  bankgate_usage "no project folder '${1:-${FASTCU_PROJECT:-.outside/fastcu}}' (give the outside project's path)"
[ -f "$project/CMakeLists.txt" ] || bankgate_usage "$project has no CMakeLists.txt"
source_dir=$(cd "${BANKGATE_SOURCE:-.}" && pwd) || bankgate_usage "no bankgate checkout at BANKGATE_SOURCE=$BANKGATE_SOURCE"
parts=${PARTS:-refresh gates aa planted slowed}
gates=${GATES:-5} aa=${AA:-1} slowed_gates=${SLOWED_GATES:-5} cross_baselines=${CROSS_BASELINES:-}
plant_args=${PLANT_ARGS:--DFASTCU_PLANT_EXTRA_K=64} plant_test=${PLANT_TEST:-FastCu.K12Hilbert}
slowed_args=${SLOWED_ARGS:--DFASTCU_PLANT_DELAY_NS=12700}
for part in $parts; do
  case $part in refresh | gates | cross | levels | aa | planted | slowed) ;;
    *) bankgate_usage "unknown part '$part' (refresh gates cross levels aa planted slowed)" ;; esac
done
work=${WORK:-build/outside-hopper-gemm}
mkdir -p "$work" && work=$(cd "$work" && pwd)
out=${OUT:-$work/out}
mkdir -p "$out" && out=$(cd "$out" && pwd)
build=$work/project planted=$work/planted slowed=$work/slowed prefix=$work/prefix
baselines=$build/scratch-baselines  # the project's build folder: nothing committed is written
bankgate=$prefix/bin/bankgate
export BANKGATE_GIT_COMMIT=${BANKGATE_GIT_COMMIT:-unknown} BANKGATE_GIT_DIRTY=${BANKGATE_GIT_DIRTY:-0}
# The adopter project is no clone with a base branch: the bench measures, it reviews no change to its baselines.
export BANKGATE_BASE_REF=${BANKGATE_BASE_REF:-none}
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH=$PWD/.deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
export PYTHONPATH=$source_dir/tools${PYTHONPATH:+:$PYTHONPATH}  # bankgate_outputs.py, of the bankgate built

# ---- The table printed last -------------------------------------------------------------------------------
round_label_width=44
. tools/round_table.sh  # note, expect
finish() {
  cp -r "$baselines" "$out/scratch-baselines" 2>/dev/null
  tar -czf "$work/logs.tgz" -C "$out" . && find "$out" -mindepth 1 -delete && mv "$work/logs.tgz" "$out/logs.tgz"
  { echo; echo "== outside Hopper GEMM ($project)"; printf '%s\n' "${rows[@]}"; } | tee "$out/table.txt"
  exit "${1:-0}"
}

# ---- Builds -------------------------------------------------------------------------------------------------
build_bankgate() {
  # shellcheck disable=SC2086  # BANKGATE_CMAKE_ARGS holds several words on purpose
  cmake -S "$source_dir" -B "$work/bankgate" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$BANKGATE_NVCC" \
    -DBANKGATE_BUILD_CATALOGUE=OFF ${BANKGATE_CMAKE_ARGS:-} &&
    cmake --build "$work/bankgate" --parallel && cmake --install "$work/bankgate" --prefix "$prefix"
}
build_project() {  # build_project DIR [CMAKE_ARG...]: the project against the installed bankgate
  local dir=$1; shift
  cmake -S "$project" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$BANKGATE_NVCC" \
    -DCMAKE_CUDA_ARCHITECTURES=90a -DBANKGATE_FROM=package "-DCMAKE_PREFIX_PATH=$prefix;${CMAKE_PREFIX_PATH//:/;}" \
    "-DFASTCU_BASELINES=$baselines" "$@" && cmake --build "$dir" --parallel
}
# The result path NAME of the command's layout in build DIR.
result() { bankgate_result_path "$bankgate" "$1" "$2"; }

# ---- The parts ----------------------------------------------------------------------------------------------
part_machine() {
  nvidia-smi --query-gpu=name,uuid,pci.bus_id,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit,clocks_event_reasons.active \
    --format=csv >"$out/machine.csv" 2>&1
  note "machine" "$(tail -n 1 "$out/machine.csv" | cut -d, -f1,2,4 | cut -c1-70)"
}

part_build() {
  bankgate_ensure_dependencies
  expect "build: bankgate (installed)" 0 build-bankgate.log build_bankgate || finish 3
  expect "build: project" 0 build-project.log build_project "$build" || finish 3
  case " $parts " in *" planted "*)
    # shellcheck disable=SC2086  # PLANT_ARGS holds several words on purpose
    expect "build: planted ($plant_args)" 0 build-planted.log build_project "$planted" $plant_args || finish 3 ;;
  esac
  case " $parts " in *" slowed "*)
    # shellcheck disable=SC2086  # SLOWED_ARGS holds several words on purpose
    expect "build: slowed ($slowed_args)" 0 build-slowed.log build_project "$slowed" $slowed_args || finish 3 ;;
  esac
}

part_refresh() {
  rm -rf "$baselines"
  expect "refresh --new-gpu --processes 3" 0 refresh.log \
    "$bankgate" refresh --build "$build" --no-build --new-gpu --processes 3 --baselines "$baselines" || return
  tail -n 12 "$out/refresh.log" | grep -A12 "tests measured" | tee "$out/refresh-measured.txt"
  cp -r "$(result "$build" record_processes)" "$out/refresh-processes"
  python3 - "$out/refresh-processes" "$baselines" <<'PY' | tee "$out/refresh.txt"
import pathlib, sys
from bankgate_outputs import timed_tests
processes, baselines = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
medians = {}
for folder in sorted(processes.glob("process-*"), key=lambda p: int(p.name.split("-")[1])):
    for _, name, t in timed_tests(folder.rglob("*.json")):
        medians.setdefault(name, []).append(f"{t['median_ns'] / 1000:.1f}")
print("test: median per process (us) | recorded median, tolerance, samples (dropped), SM clock | modes")
for _, name, t in timed_tests(baselines.rglob("*.json")):
    tol = t["tolerance"]
    fails_from = 100 * (tol["relative"] * t["median_ns"] + tol["absolute_ns"]) / t["median_ns"]
    modes = ", ".join(f"{m / 1000:.1f}" for m in tol.get("modes_ns", [])) or "none"
    print(f"{name}: {' '.join(medians.get(name, []))} | {t['median_ns'] / 1000:.1f} us, {100 * tol['relative']:g}% + "
          f"{tol['absolute_ns']:.0f} ns (fails from +{fails_from:.1f}%), {t['samples']} ({t['dropped_samples']}), "
          f"{t.get('sm_clock_mhz')} MHz | modes: {modes}{' (' + tol['reason'] + ')' if tol.get('reason') else ''}")
PY
  note "refresh: tests with modes" "$(grep -c 'modes: [0-9]' "$out/refresh.txt") of $(grep -c '| modes: ' "$out/refresh.txt")"
}

# gate_series LABEL BUILD BASELINES N WANT: N gates of BUILD against BASELINES into gate-LABEL-I.json, each exit
# code against WANT; then per test the recorded median, every gate's median and each duration verdict but pass,
# and how many tests the gates measured again in fresh processes (confirmations) and in how many processes.
gate_series() {
  local label=$1 dir=$2 against=$3 n=$4 want=$5 i
  : >"$out/gates-$label.txt"
  for i in $(seq 1 "$n"); do
    expect "gate $label $i of $n" "$want" "gate-$label-$i.log" \
      "$bankgate" gate --build "$dir" --no-build --baselines "$against" --json "$out/gate-$label-$i.json"
    echo "$?" >>"$out/gates-$label.txt"
  done
  python3 - "$out" "$label" "$n" "$against" <<'PY' | tee "$out/gates-$label-summary.txt"
import pathlib, sys
from bankgate_outputs import read_summary, timed_tests
out, label, n, baselines = pathlib.Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), pathlib.Path(sys.argv[4])
recorded = {name: t["median_ns"] for _, name, t in timed_tests(baselines.rglob("*.json"))}
timed = slower = unmeasured = confirmed = extra_processes = 0
medians, verdicts = {}, {}
for i in range(1, n + 1):
    path = out / f"gate-{label}-{i}.json"
    if not path.exists():
        continue
    for t in read_summary(path)["tests"]:
        processes = int(float(t.get("properties", {}).get("duration_processes", 1)))
        if processes > 1:
            confirmed += 1
            extra_processes += processes - 1
        if t["median_ns"] is None:
            unmeasured += 1
            continue
        timed += 1
        medians.setdefault(t["name"], []).append(t["median_ns"])
        for c in t["changes"]:
            if c["timing"]:
                slower += c["verdict"] == "slower"
                verdicts.setdefault(t["name"], []).append(
                    f"gate {i}: {c['verdict']} {100 * (c['change'] or 0):+.1f}%"
                    + (f" ({int(float(t['properties'].get('duration_processes_slower', 0)))} of {processes} processes slower)"
                       if processes > 1 else ""))
print("test: recorded median | gates' medians (us), change from recorded min..max | duration verdicts not pass")
for name, values in sorted(medians.items()):
    base = recorded.get(name)
    span = f"{100 * (min(values) / base - 1):+.1f}..{100 * (max(values) / base - 1):+.1f}%" if base else "?"
    print(f"{name}: {base / 1000 if base else 0:.1f} | {' '.join(f'{v / 1000:.1f}' for v in values)}, {span} | "
          f"{'; '.join(verdicts.get(name, [])) or 'none'}")
codes = sorted({line.strip() for line in open(out / f"gates-{label}.txt")})
print(f"{n} gates: exit codes {codes}; {timed} timed verdicts, {slower} slower, {unmeasured} not measured; "
      f"{confirmed} tests measured again in {extra_processes} fresh processes")
PY
  note "gates $label x$n" "$(tail -n 1 "$out/gates-$label-summary.txt" | sed 's/^[0-9]* gates: //' | cut -c1-90)"
}

part_gates() {
  [ -d "$baselines" ] || { note "gates" "skipped: no scratch baselines (refresh)"; return; }
  gate_series own "$build" "$baselines" "$gates" 0
}

part_cross() {
  [ -d "$cross_baselines" ] || { note "cross" "skipped: CROSS_BASELINES names no folder"; return; }
  gate_series cross "$build" "$cross_baselines" "$gates" 0
}

part_slowed() {
  [ -d "$baselines" ] || { note "slowed" "skipped: no scratch baselines (refresh)"; return; }
  gate_series slowed "$slowed" "$baselines" "$slowed_gates" 1
  note "  $plant_test SLOWER in" "$(grep -c "gate [0-9]*: slower" <(grep "^$plant_test:" "$out/gates-slowed-summary.txt" | tr ';' '\n')) of $slowed_gates gates"
}

part_levels() {
  [ -x "$project/levels/levels.sh" ] || [ -f "$project/levels/levels.sh" ] || { note "levels" "skipped: no levels/levels.sh"; return; }
  expect "levels: 30 fresh processes, CUDA events alone" 0 levels.log bash "$project/levels/levels.sh" "$out/levels.txt"
  python3 - "$out/levels.txt" <<'PY' | tee "$out/levels-summary.txt"
import statistics, sys
per = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3:  # "<process> <kernel> <median us>"
        try:
            per.setdefault(parts[-2], []).append(float(parts[-1]))
        except ValueError:
            pass
for kernel, values in sorted(per.items()):
    low = min(values)
    print(f"{kernel}: {len(values)} processes, median of medians {statistics.median(values):.1f} us, "
          f"{min(values):.1f}..{max(values):.1f} (spread {100 * (max(values) / low - 1):.1f}%); "
          f"above min +3%: {sum(v > 1.03 * low for v in values)}")
    print("  " + " ".join(f"{v:.1f}" for v in values))
PY
  note "levels" "$(grep -c processes "$out/levels-summary.txt") kernels; largest spread $(grep -o 'spread [0-9.]*%' "$out/levels-summary.txt" | sort -t' ' -k2 -n | tail -n 1)"
}

# compare_summary JSON...: each compare's verdicts, INCONCLUSIVE and false alarms, extra time, and every duration
# finding's detail (its change, noise and smallest detectable change).
compare_summary() {
  python3 - "$@" <<'PY'
import sys
from bankgate_outputs import duration_findings, read_compare
for path in sys.argv[1:]:
    try:
        document = read_compare(path)
    except Exception as e:  # a compare that stopped before writing its JSON
        print(f"{path}: {e}")
        continue
    counts = {}
    for test, f in duration_findings(document):
        counts[f["verdict"]] = counts.get(f["verdict"], 0) + 1
        print(f"  {test}: {f['verdict']} {100 * (f['change'] or 0):+.2f}% -- {f['detail']}")
    extra = document.get("extra_time")
    spent = f"extra time {extra['spent_s']:.0f} of {extra['budget_s']:.0f} s, {extra['rounds']} rounds" if extra else "no extra time"
    rounds = {t["name"]: t["rounds"]["head"] for t in document["tests"]}
    print(f"{path.rsplit('/', 1)[-1]}: exit {document['exit_code']}, verdicts {counts}; {spent}; rounds a side "
          f"{min(rounds.values(), default=0)}..{max(rounds.values(), default=0)}")
PY
}

part_aa() {
  local i files=()
  for i in $(seq 1 "$aa"); do
    expect "A/A compare $i of $aa" 0 "aa-$i.log" "$bankgate" compare --base "$build" --head "$build" --json "$out/aa-$i.json"
    files+=("$out/aa-$i.json")
  done
  compare_summary "${files[@]}" | tee "$out/aa-summary.txt"
  local line
  while IFS= read -r line; do note "  ${line%%:*}" "$(cut -c1-90 <<<"${line#*: }")"; done < <(grep '^aa-[0-9]*.json:' "$out/aa-summary.txt")
}

part_planted() {
  expect "planted: compare base=build head=planted" 1 planted-compare.log \
    "$bankgate" compare --base "$build" --head "$planted" --json "$out/planted-compare.json"
  compare_summary "$out/planted-compare.json" | tee "$out/planted-summary.txt"
  note "  $plant_test" "$(grep -m 1 "  $plant_test:" "$out/planted-summary.txt" | sed 's/^[^:]*: //; s/ -- .*//')"
  [ -d "$baselines" ] || { note "planted: gate" "skipped: no scratch baselines (refresh)"; return; }
  expect "planted: gate against the scratch baselines" 1 planted-gate.log \
    "$bankgate" gate --build "$planted" --no-build --baselines "$baselines" --json "$out/planted-gate.json"
  python3 - "$out/planted-gate.json" "$plant_test" <<'PY' | tee "$out/planted-gate.txt"
import sys
from bankgate_outputs import read_summary
summary, wanted = read_summary(sys.argv[1]), sys.argv[2]
for t in summary["tests"]:
    if t["name"] != wanted:
        continue
    timing = [c for c in t["changes"] if c["timing"]]
    counters = [c for c in t["changes"] if not c["timing"]]
    said = "; ".join(f"{c['verdict']} {100 * (c['change'] or 0):+.2f}%" for c in timing) or "duration passed"
    print(f"{wanted}: {t['outcome']}; duration: {said}; {len(counters)} counter changes"
          + (f" (first: {counters[0]['display_name']} {counters[0]['baseline']} -> {counters[0]['measured']})" if counters else ""))
PY
  note "  $plant_test in the gate" "$(cut -d: -f2- "$out/planted-gate.txt" | cut -c2-90)"
}

# ---- The run ------------------------------------------------------------------------------------------------
echo "bankgate from $source_dir ($BANKGATE_GIT_COMMIT), project $project, builds in $work, logs in $out"
part_machine
part_build
for part in $parts; do
  echo "== $part"
  "part_$part"
done
finish 0
