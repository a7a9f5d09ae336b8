#!/usr/bin/env bash
# The GPU validation driver, for this repository's developers: named steps run on a GPU machine (a lent one or
# a new GPU of your own), in the order given, on one build of the catalogue (build/gate; the planted one in
# build/planted). Each step is a function step_NAME below; STEPS, the dispatch table, lists them with what they
# do (--help prints it).
#   tools/gpu-round.sh STEP...        (default: gate adopt)
#   tools/gpu-round.sh validate       (a new GPU validated end to end: the steps of VALIDATE below)
# Headers the machine lacks (CLI11, pugixml, nlohmann-json) come in .deps/usr (Debian packages unpacked).
# Logs, reports and a tarball of every baselines folder go to $OUT (default build/gpu-round); a table of the
# steps' exit codes, each with the one wanted and the seconds taken, is printed last. Everything the table
# judges is read from the command's JSON outputs (summary.json, compare --json), not from its console.
# Give BANKGATE_GIT_COMMIT from the checkout that sent the tree: the lent machine's copy may carry a stale .git.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
. ci/lib.sh

# The dispatch table: STEP[=ARGUMENT]|what it does. Step NAME runs step_NAME with the argument (or nothing).
STEPS=(
  "machine|which GPU this is (UUID, serial, PCI bus), its clocks, power and memory as found, so runs from several lent machines can be told apart"
  "build|the catalogue's build alone, timed"
  "fresh|remove this GPU's catalogue and example baselines (a schema change: refresh writes them anew)"
  "refresh[=FILTER]|record and promote this GPU's catalogue baselines (all, or the tests FILTER selects) with tools/refresh-baselines.sh (--new-gpu where this GPU has none, or NEW_GPU=1), docs/catalogue.md rewritten"
  "unit|the GPU-free tests of the build (after refresh one checks docs/catalogue.md against the baselines)"
  "rerun|a dry-run refresh of unchanged code: its table shows any counter that changed"
  "gate|ci/gate.sh against the committed baselines (0 wanted); its summary.json and markdown kept"
  "gates=N|N gates of unchanged code: exit codes, wall times, timing false alarms; each gate's report folder kept (gate-reports/)"
  "planted|the catalogue built with its planted regressions (-DBANKGATE_PLANTED_REGRESSION=ON), gated (1 wanted): each regressed test's first change; the counter plant (setRowReadColIpad without its padding) and the timing plant (setRowReadRow sleeping 1 us) must be caught"
  "slowed=NS[,NS...]|a slowdown planted in time alone (each tiledMatmul thread sleeps NS ns first), compared against the plain build on this runner: the Square tests SLOWER, the Ragged controls ok"
  "multi|TwoPass.TransposeRoundTrip (two kernels): recorded kernel by kernel, gated against that recording (0), then the planted build gated against it (1), the change named by its kernel"
  "arch|examples/adopt built for sm_80: the driver JIT-compiles its PTX, and the gate calls its test NOT MEASURED, saying so (2)"
  "adopt|examples/adopt as an outside project: refresh --new-gpu, gate, and gate with a bank conflict (its padding removed; 1 wanted)"
  "outside|the outside projects adopters tripped on (tests/unit/fixtures/outside_projects/) against the installed package (tests/unit/adopt_example_test.sh package)"
  "faults|a test whose kernel faults (illegal address) beside a healthy one (2 wanted), and a suite under ncu without BANKGATE_LAUNCH_ONLY"
  "record=N[:FILTER]|N recordings (no promote), then whether every counter read the same in all of them (bench/counter_determinism.py)"
  "probe=N:FILTER|N processes of the catalogue suite, each timing the FILTER's tests 3 times: noise between processes against noise within one"
  "drift=N:FILTER|two processes of the catalogue suite after 15 s of idle GPU, each timing the FILTER's tests N times in a row, beside nvidia-smi's clocks, power and P-state every 100 ms: whether the first timings of a process are the slowest, and what moved with them"
  "aa=N|N same-runner compares of the build against itself: every verdict but ok is a false alarm or an inconclusive test"
  "pool=R|one compare of the build against itself with R rounds a side, its round candidates kept (bench/aa_pool.py draws A/A compares from them)"
  "gpus=N|N gates on every GPU (bankgate-resource-spec), then N on one (CUDA_VISIBLE_DEVICES=0): wall times side by side"
  "shards=N|the gate in N parts (--shard I/N), merged by bankgate summary --shards: the merged verdict and test count"
  "commits|bankgate compare-commits in an outside project: head with a bank conflict against base (1), base against itself (0)"
  "bisect|bankgate bisect over 64 commits of an outside project with a bank conflict planted at commit 41 (tests/unit/bisect_gpu_test.sh, a skip failing): found in at most 7 builds and confirmed (0)"
  "hopper|the Hopper kernels (TMA, wgmma, clusters): their SASS opcodes, one run of their tests, the chip's per-instruction metric names"
  "sass|the shared-memory instruction report (tools/sass-report.sh)"
  "sequence|the collector's CUPTI calls in the orders a suite process makes them (bench/cupti_sequence_probe.cpp): which order upsets the TMA traffic pass, and the host time of each step"
  "switch|the range profiler moved between the instrumented set and the TMA traffic set, and between rooms, by a fresh object and in place (bench/profiler_switch_probe.cpp): each step's host time, and whether both ways read the same values"
  "passes|the gate's metrics and the TMA traffic in one two-pass set (bench/profiler_switch_probe.cpp), one pass at a time, chosen by its index: whether each pass reads what its set alone reads, and what each costs"
  "overhead|3 gates of unchanged code, each program the command runs by name (git, nvidia-smi) timed through a logging shim, ctest from its log, and ctest's start alone (PATH's and the build's own)"
  "launches|a short kernel's launch cost in each state a suite process puts CUDA in, and the timing phase's host time by part (bench/launch_cost_probe.cpp)"
  "ncu|the ncu cross-check of every counter of every kernel (tools/ncu-crosscheck.sh; BANKGATE_NCU_REPEATS ncu runs, default 2)"
  "speed=N|bench/gate-speed.sh on this build: N catalogue gates (--no-build) with their parts, the collector's cost against ncu, and each per-test verdict process's time"
  "check|the GPU checks alone (ctest -L gpu_check: the output comparison on the GPU, the collector's room for kernels, the TMA traffic of kernels in any order); a skip fails"
  "counters|host time of counter collection per kernel at 1, 12, 64 per call, against ncu (bench/counters.sh)"
  "cost|the collector's cost against ncu on the catalogue suite (bench/collector-cost.sh)"
)
# A new GPU validated end to end, one build shared by every step.
VALIDATE=(refresh unit rerun gate planted sass ncu cost arch multi)

usage() {
  sed -n '2,12p' "$0"
  printf '\nSteps:\n'
  local entry
  for entry in "${STEPS[@]}"; do printf '  %-18s %s\n' "${entry%%|*}" "${entry#*|}"; done
  printf '  %-18s %s\n' validate "${VALIDATE[*]}"
}

out=${OUT:-build/gpu-round}
build=build/gate planted=build/planted
bankgate=$build/cli/bankgate
export BANKGATE_BUILD_DIR=$build  # the scripts the steps run (refresh, gate, ncu, benches) share one build
export BANKGATE_GIT_COMMIT=${BANKGATE_GIT_COMMIT:-unknown} BANKGATE_GIT_DIRTY=${BANKGATE_GIT_DIRTY:-0}
# The GPU machine holds a copy of the tree without its base branch: these rounds measure, they review no change
# to the baselines (check-baselines does, in CI).
export BANKGATE_BASE_REF=${BANKGATE_BASE_REF:-none}
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH=$PWD/.deps/usr

# ---- The table printed last -------------------------------------------------------------------------------
. tools/round_table.sh  # note, expect

# ---- Builds -------------------------------------------------------------------------------------------------
declare -A built=()
# build_tree DIR [CMAKE_ARG...]: this tree configured (lib.sh's bankgate_configure, BANKGATE_CMAKE_ARGS and the
# arguments given) and built in DIR, once a round; the log in $out/build-<DIR's name>.log.
build_tree() {
  local dir=$1; shift
  [ -n "${built[$dir]:-}" ] && return 0
  local log; log="$out/build-$(basename "$dir").log"
  mkdir -p "$(dirname "$dir")"
  # A subshell: lib.sh's refusals exit, and a failed build ends this step, not the round.
  (bankgate_ensure_dependencies && BANKGATE_CMAKE_ARGS="${BANKGATE_CMAKE_ARGS:-} $*" bankgate_build "$dir") >"$log" 2>&1 ||
    { tail -n 30 "$log"; note "build $dir" "FAILED (${log##*/})"; return 3; }
  built[$dir]=1
}
build_planted() { build_tree "$planted" -DBANKGATE_PLANTED_REGRESSION=ON; }
# Where the command leaves NAME of its results in the catalogue's build (the layout is the command's).
result() { bankgate_result_path "$bankgate" "$build" "$1"; }
gpu_model() { nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | tr 'A-Z ' 'a-z-'; }
# The bank conflict an adopter's commit might bring: examples/adopt's transpose tile without its padding column.
plant_example_conflict() {
  sed -i 's/tile\[transpose_tile\]\[transpose_tile + 1\]/tile[transpose_tile][transpose_tile]/' "$1" &&
    ! grep -q 'transpose_tile + 1' "$1"
}
# example_repository DIR: the copy of examples/adopt in DIR made a git repository of two commits: base as
# committed, head with the bank conflict planted.
example_repository() {
  local git=(git -C "$1" -c user.name=ci -c user.email=ci@example.invalid)
  "${git[@]}" init -q && "${git[@]}" add -A && "${git[@]}" commit -qm base &&
    plant_example_conflict "$1/transpose.cu" && "${git[@]}" commit -qam "head: no padding"
}
# examples/adopt (or a copy of it) configured and built against this checkout (bankgate as a subdirectory).
build_example() {  # build_example SOURCE BUILD [CMAKE_ARG...]
  local source=$1 dir=$2; shift 2
  local nvcc; nvcc=$(bankgate_find_nvcc) || return 3
  # shellcheck disable=SC2086  # BANKGATE_CMAKE_ARGS holds several words on purpose; the arguments given come last
  cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90 ${BANKGATE_CMAKE_ARGS:-} -DBANKGATE_FROM=subdirectory -DBANKGATE_SOURCE_DIR="$PWD" "$@" &&
    cmake --build "$dir"
}

# ---- The steps ----------------------------------------------------------------------------------------------
step_machine() {
  nvidia-smi --query-gpu=name,uuid,serial,pci.bus_id,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,temperature.memory,power.draw,power.limit,ecc.mode.current,clocks_event_reasons.active \
    --format=csv >"$out/machine.csv" 2>&1
  nvidia-smi -q >"$out/nvidia-smi-q.txt" 2>&1
  note "machine" "$(tail -n 1 "$out/machine.csv" | cut -d, -f2,3 | cut -c1-60)"
}

step_build() { expect "build (the catalogue's)" 0 build-step.log build_tree "$build"; }

step_fresh() {
  local model; model=$(gpu_model)
  rm -rf baselines/sm_*/"$model" examples/adopt/baselines/sm_*/"$model"
  note "fresh: removed the $model baselines" "exit $?"
}

step_refresh() {
  local filter=$1 new_gpu=()
  # A GPU without baselines needs --new-gpu: NEW_GPU=1, or no baselines/sm_*/<model> folder (see fresh).
  if [ "${NEW_GPU:-0}" = 1 ] || ! compgen -G "baselines/sm_*/$(gpu_model)" >/dev/null; then new_gpu=(--new-gpu); fi
  expect "refresh ${filter:-(all)} ${new_gpu[*]}" 0 refresh.log bash tools/refresh-baselines.sh "${new_gpu[@]}" ${filter:+--filter "$filter"}
  tail -n 3 "$out/refresh.log"
  mkdir -p "$out/records/refresh" && cp -r "$(result record_candidates)/." "$out/records/refresh/"
}

step_unit() {
  build_tree "$build" || return
  # The unit tests need the tests' own dependencies (PyYAML, jsonschema); the GPU steps only the build's.
  # shellcheck disable=SC2016  # expanded by the inner bash
  expect "unit tests (GPU-free)" 0 unit.log bash -c '. ci/lib.sh && bankgate_ensure_test_dependencies &&
    ctest --test-dir "$1" -L "^unit$" --output-on-failure --parallel 8' unit "$build"
  grep -hE "tests passed|Total Test time" "$out/unit.log"
  step_check
}

# The GPU's own checks (label gpu_check: the catalogue's output comparison, the collector's room for kernels, the TMA
# traffic of kernels in any order), run on their own; a skip is a failure here.
step_check() {
  build_tree "$build" || return
  expect "the GPU checks (gpu_check)" 0 gpu-check.log \
    ctest --test-dir "$build" -L "^gpu_check$" --output-on-failure --no-tests=error
  grep -hE "tests passed|Test +#" "$out/gpu-check.log"
  if grep -q "Skipped" "$out/gpu-check.log"; then
    note "the GPU checks (gpu_check)" "skipped on a GPU machine UNEXPECTED"
    return 1
  fi
}

step_rerun() {
  expect "rerun: dry-run refresh of unchanged code" 0 rerun.log bash tools/refresh-baselines.sh --dry-run
  tail -n 25 "$out/rerun.log"
}

step_gate() {
  expect "catalogue gate" 0 gate.log env GITHUB_STEP_SUMMARY="$out/gate.md" bash ci/gate.sh
  tail -n 3 "$out/gate.log"
  cp "$(result gate_summary_json)" "$out/gate-summary.json" 2>/dev/null
}

step_gates() {
  local n=$1 i
  build_tree "$build" || return
  : >"$out/gates.txt"
  for i in $(seq 1 "$n"); do
    expect "gate $i of $n (unchanged code)" 0 "gate-$i.log" "$bankgate" gate --build "$build" --no-build
    echo "$?" >>"$out/gates.txt"
    cp "$(result gate_summary_json)" "$out/gate-$i.json"
    # The whole report folder, as a CI artifact keeps it: bench/history-false-alerts.sh imports such folders.
    mkdir -p "$out/gate-reports" && cp -r "$(dirname "$(result gate_summary_json)")" "$out/gate-reports/gate-$i"
  done
  python3 - "$out" "$n" <<'PY' | tee "$out/gates-summary.txt"
import sys
sys.path.insert(0, "tools")
from bankgate_outputs import read_summary
out, n = sys.argv[1], int(sys.argv[2])
codes = sorted({line.strip() for line in open(f"{out}/gates.txt")})
slower = faster = counters = timed = 0
for i in range(1, n + 1):
    for t in read_summary(f"{out}/gate-{i}.json")["tests"]:
        timed += "median_ns" in t["properties"]
        for c in t["changes"]:
            slower += c["verdict"] == "slower"
            faster += c["verdict"] == "faster"
            counters += c["verdict"] == "counter_changed"
print(f"{n} gates: exit codes {codes}; {timed} timed tests: {slower} SLOWER (false alarms), {faster} faster, "
      f"{counters} counter changes")
PY
  note "gates=$n of unchanged code" "$(tail -n 1 "$out/gates-summary.txt" | cut -c1-70)"
}

step_planted() {
  expect "planted: configure and build" 0 planted-build.log build_planted || return
  expect "planted: gate" 1 planted-gate.log "$planted/cli/bankgate" gate --build "$planted" --no-build
  local summary; summary=$(bankgate_result_path "$planted/cli/bankgate" "$planted" gate_summary_json) || return 3
  python3 - "$summary" <<'PY' | tee "$out/planted-findings.txt"
import sys
sys.path.insert(0, "tools")
from bankgate_outputs import read_summary
tests = {t["name"]: t for t in read_summary(sys.argv[1])["tests"]}
for name, t in sorted(tests.items()):
    if t["outcome"] == "regressed":
        c = t["changes"][0]
        kernel = f" ({c['kernel']})" if c.get("kernel") else ""
        print(f"{name}{kernel}: {c['display_name']} {c['baseline']} -> {c['measured']}, {c['verdict']} "
              f"(+{len(t['changes']) - 1} more)")
wanted = {"SquareTile.setRowReadColIpad": lambda c: not c["timing"] and c["verdict"] == "counter_changed",
          "SquareTile.setRowReadRow": lambda c: c["timing"] and c["verdict"] == "slower"}
missed = [name for name, caught in wanted.items()
          if name not in tests or tests[name]["outcome"] != "regressed" or not any(map(caught, tests[name]["changes"]))]
print("UNEXPECTED: not caught: " + ", ".join(missed) if missed else
      "ok: the counter plant (setRowReadColIpad) and the timing plant (setRowReadRow) are caught")
sys.exit(1 if missed else 0)
PY
  note "planted: counter and timing plants caught" "exit ${PIPESTATUS[0]} (want 0)"
  # The failing run's files, as `bankgate summary` reads them (the fixture of the report test).
  mkdir -p "$out/planted-run" && cp -r "$(bankgate_result_path "$planted/cli/bankgate" "$planted" gate)/." "$out/planted-run/" &&
    cp -r "$(bankgate_result_path "$planted/cli/bankgate" "$planted" gtest_results)" "$out/planted-run/"
}

# A slowdown planted in time alone: the catalogue built with every tiledMatmul thread sleeping NS ns first
# (BANKGATE_PLANTED_SLEEP_NS), compared on this runner against the plain build, TiledMatmul only. The Square tests
# (31-38 us) carry the plant, the Ragged ones are the controls; each duration verdict with its achieved change.
step_slowed() {
  local ns
  build_tree "$build" || return
  for ns in ${1//,/ }; do
    build_tree "build/slowed-$ns" "-DBANKGATE_PLANTED_SLEEP_NS=$ns" || return
    expect "slowed=$ns: compare against the plain build" 1 "slowed-$ns.log" "$bankgate" compare --base "$build" \
      --head "build/slowed-$ns" --filter 'TiledMatmul.*' --json "$out/slowed-$ns.json"
    python3 - "$out/slowed-$ns.json" <<'PY' | tee "$out/slowed-$ns.txt"
import sys
sys.path.insert(0, "tools")
from bankgate_outputs import duration_findings, read_compare
wrong, seen = [], set()
for test, f in duration_findings(read_compare(sys.argv[1])):
    seen.add(test)
    planted = "Square" in test
    print(f"  {test}: {'planted' if planted else 'control'} {f['verdict']} {f['detail']}")
    if (f["verdict"] == "slower") != planted or (not planted and f["verdict"] != "pass"):
        wrong.append(test)
expected = {f"TiledMatmul.{t}" for t in ("Tile16Square", "Tile32Square", "Tile16Ragged", "Tile32Ragged")}
wrong += [f"{t} (no duration verdict)" for t in sorted(expected - seen)]
print("UNEXPECTED: " + ", ".join(wrong) if wrong else "ok: the planted tests SLOWER, the controls ok")
sys.exit(1 if wrong else 0)
PY
    note "slowed=$ns: planted SLOWER, controls ok" "exit ${PIPESTATUS[0]} (want 0)"
  done
}

# TwoPass.TransposeRoundTrip (tests/suites/two_pass_suite.cpp) launches transposePadded, then transposeSwizzled:
# recorded, each kernel's record is checked; promoted into a folder of its own, the gate passes against it; the
# planted build (one-warp conflicts in the tiled transposes) regresses against it, the change named by its kernel.
step_multi() {
  local work="$out/multi-kernel" candidates
  build_tree "$build" && build_planted || return 3
  candidates=$(result record_candidates) || return 3
  rm -rf "$work" && mkdir -p "$work/baselines"
  expect "multi: record TwoPass.*" 0 multi-record.log "$bankgate" record --build "$build" --no-build --filter 'TwoPass.*'
  python3 - "$candidates" <<'PY' | tee "$out/multi-record.txt"
import json, pathlib, sys
found = list(pathlib.Path(sys.argv[1]).glob("*/*/TwoPass/TransposeRoundTrip.json"))
assert found, "no candidate of TwoPass.TransposeRoundTrip"
record = json.loads(found[0].read_text())["tests"]["TransposeRoundTrip"]
kernels = record.get("kernels", [])
names = [k["kernel"] for k in kernels]
assert names == ["transposePadded", "transposeSwizzled"], f"kernels recorded: {names}"
assert record["correct"], "the round trip's output differs from its input"
for k in kernels:
    assert k["counters"] and k.get("timing") and k.get("lines") and k.get("expected"), f"{k['kernel']}: a part is missing"
    for ratio, stated in k["expected"]["ratios"].items():
        assert k["derived"][ratio] == stated, f"{k['kernel']}: {ratio} is {k['derived'][ratio]}, its source says {stated}"
    print(f"ok: {k['kernel']}: {len(k['counters'])} counters, median {k['timing']['median_ns']} ns, "
          f"{len(k['lines'])} per-line figures, {len(k['expected']['ratios'])} stated ratios hold")
PY
  note "multi: each kernel's record complete" "exit ${PIPESTATUS[0]} (want 0)"
  "$bankgate" promote --build "$build" --baselines "$work/baselines" --filter 'TwoPass.*' --new-gpu --force \
    >"$out/multi-promote.log" 2>&1 || { note "multi: promote" "FAILED (multi-promote.log)"; return 3; }
  expect "multi: gate against its own recording" 0 multi-gate.log \
    "$bankgate" gate --build "$build" --no-build --filter 'TwoPass.*' --baselines "$work/baselines"
  expect "multi: planted build against it" 1 multi-planted.log \
    "$planted/cli/bankgate" gate --build "$planted" --no-build --filter 'TwoPass.*' --baselines "$work/baselines"
  python3 - "$(bankgate_result_path "$planted/cli/bankgate" "$planted" gate_summary_json)" <<'PY'
import sys
sys.path.insert(0, "tools")
from bankgate_outputs import read_summary
test = [t for t in read_summary(sys.argv[1])["tests"] if t["name"] == "TwoPass.TransposeRoundTrip"][0]
assert test["outcome"] == "regressed", f"outcome {test['outcome']}"
first = test["changes"][0]
assert first.get("kernel") in ("transposePadded", "transposeSwizzled"), f"first change: {first}"
print(f"ok: the regression is named by its kernel: {first['display_name']}: {first['baseline']} -> {first['measured']}")
PY
  note "multi: the change named by its kernel" "exit $? (want 0)"
}

# examples/adopt with bankgate as a subdirectory, built for sm_80 on this GPU, gated: exit 2, its one test NOT
# MEASURED with the reason (cupti_collector/src/cuda_binary.cpp).
step_arch() {
  local dir="$out/foreign-arch" gpu_sm
  gpu_sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.[:space:]')
  expect "arch: examples/adopt built for sm_80" 0 arch-build.log build_example examples/adopt "$dir" -DCMAKE_CUDA_ARCHITECTURES=80 || return
  expect "arch: its gate (2 wanted: not measured)" 2 arch-gate.log "$dir/bankgate/cli/bankgate" gate --build "$dir" --no-build
  local reason="built for sm_80, this GPU is sm_$gpu_sm: the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=$gpu_sm"
  local summary; summary=$(bankgate_result_path "$dir/bankgate/cli/bankgate" "$dir" gate_summary_json) || return 3
  python3 - "$summary" "$reason" <<'PY'
import sys
sys.path.insert(0, "tools")
from bankgate_outputs import read_summary
summary, reason = read_summary(sys.argv[1]), sys.argv[2]
test = {t["name"]: t for t in summary["tests"]}["Transpose.PaddedTile"]
assert test["outcome"] == "not_measured", f"Transpose.PaddedTile is {test['outcome']}, not not_measured"
assert any(reason in text for text in [test["reason"], *summary["problems"]]), f"the summary does not say: {reason}"
print(f"ok: Transpose.PaddedTile is NOT MEASURED: {test['reason']}")
PY
  note "arch: NOT MEASURED, the reason given" "exit $? (want 0)"
}

step_adopt() {
  local ex=build/adopt
  expect "adopt: configure and build" 0 adopt-build.log build_example examples/adopt "$ex" || return
  local adopt=$ex/bankgate/cli/bankgate
  expect "adopt: bankgate refresh --new-gpu" 0 adopt-refresh.log "$adopt" refresh --build "$ex" --new-gpu
  expect "adopt: bankgate gate" 0 adopt-gate.log "$adopt" gate --build "$ex"
  cp examples/adopt/transpose.cu "$out/transpose.cu.orig"
  plant_example_conflict examples/adopt/transpose.cu &&
    expect "adopt: gate with the padding removed" 1 adopt-planted.log "$adopt" gate --build "$ex"
  cp "$out/transpose.cu.orig" examples/adopt/transpose.cu && rm "$out/transpose.cu.orig"
  cmake --build "$ex" >/dev/null 2>&1
  echo "== the planted conflict's failure, as summary.md shows it"
  head -n 30 "$(bankgate_result_path "$adopt" "$ex" gate_summary_markdown)"
}

step_outside() {
  build_tree "$build" || return
  expect "outside projects (package)" 0 outside.log \
    bash tests/unit/adopt_example_test.sh package "$PWD" "$build" "$(bankgate_find_nvcc)"
  grep -E "^(FAIL|ok   - (with|without) the driver)|passed," "$out/outside.log" | tail -n 8
}

step_faults() {
  # A copy of the example with a second test whose kernel reads through an invalid pointer; it comes first, so
  # the healthy one after it must run in a fresh process.
  local fp=build/fault-project
  rm -rf "$fp" && mkdir -p build && cp -r examples/adopt "$fp"
  python3 - "$fp/transpose_gate_test.cpp" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
fault = """TEST_F(Transpose, IllegalAddress) {
  DeviceFloats out(1024 * 2048);
  gate(bankgate::gtest::KernelCase{
      .kernel_name = "transposePadded",
      .launch = [&] { (void)launch_transpose(reinterpret_cast<const float*>(0x10), out.data, 1024, 2048); },
      .poison_output = [&] {},
      .check_output = [&] { return ::testing::AssertionSuccess(); },
  });
}

"""
open(path, "w").write(text.replace("TEST_F(Transpose, PaddedTile) {", fault + "TEST_F(Transpose, PaddedTile) {", 1))
PY
  expect "faults: build" 0 faults-build.log build_example "$fp" "$fp/build" || return
  expect "faults: gate with an illegal-address test" 2 faults-gate.log \
    "$fp/build/bankgate/cli/bankgate" gate --build "$fp/build" --no-build
  echo "== the gate with a faulting test"
  python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["tests"]: print(f"{t[\"name\"]:32} {t[\"outcome\"]:13} {t[\"reason\"]}")' \
    "$(bankgate_result_path "$fp/build/bankgate/cli/bankgate" "$fp/build" gate_summary_json)"
  # A suite under ncu without launch-only mode: the collector must say another profiler is attached.
  build_tree "$build" || return
  expect "faults: a suite under ncu, not launch-only" - faults-ncu.log \
    env BANKGATE_REQUIRE_GPU=1 BANKGATE_CANDIDATE_DIR="$out/ncu-candidates" timeout 300 ncu --clock-control none "$build/tests/suites/catalogue_suite" --gtest_filter=SquareTile.setRowReadRow
  echo "== a suite under ncu"
  grep -m 3 -E 'profiler|Failure|FAILED' "$out/faults-ncu.log"
}

step_record() {
  local spec=$1 runs filter="" i dirs=()
  runs=${spec%%:*}; [[ $spec == *:* ]] && filter=${spec#*:}
  build_tree "$build" || return
  for i in $(seq 1 "$runs"); do
    expect "record run $i ${filter:-(all)}" 0 "record-$i.log" "$bankgate" record --build "$build" --no-build ${filter:+--filter "$filter"}
    mkdir -p "$out/records/run-$i" && cp -r "$(result record_candidates)/." "$out/records/run-$i/"
    dirs+=("$out/records/run-$i")
  done
  [ -d "$out/records/refresh" ] && dirs+=("$out/records/refresh")
  python3 bench/counter_determinism.py "${dirs[@]}" | tee "$out/determinism.txt" | tail -n 60
  note "counters identical in every run" "exit ${PIPESTATUS[0]} (want 0)"
  # The attribution's cost, as each test recorded it in its result record (the last recording's).
  python3 - "$(result gtest_results)" <<'PY' | tee -a "$out/determinism.txt"
import json, pathlib, statistics, sys
values = []
for record in pathlib.Path(sys.argv[1]).glob("*.result.json"):
    properties = json.loads(record.read_text(encoding="utf-8"))["properties"]
    if "attribution_host_ms" in properties:
        values.append(float(properties["attribution_host_ms"]))
if values:
    values.sort()
    print(f"attribution host ms per test: n={len(values)} min={values[0]} median={statistics.median(values)} max={values[-1]}")
PY
}

step_probe() {
  local spec=$1 n filter i
  n=${spec%%:*}; filter=${spec#*:}
  build_tree "$build" || return
  for i in $(seq 1 "$n"); do
    BANKGATE_CANDIDATE_DIR="$out/probe-candidates" BANKGATE_BASELINE_DIR="$PWD/baselines" \
      "$build/tests/suites/catalogue_suite" --gtest_filter="$filter" --gtest_repeat=3 >"$out/probe-$i.log" 2>&1
  done
  # From the console: a candidate file holds a process's last repeat only, the console line every repeat's median.
  python3 - "$out" "$n" <<'PY' | tee "$out/probe-summary.txt"
import re, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])
by_test = {}
for i in range(1, n + 1):
    for line in open(f"{out}/probe-{i}.log"):
        m = re.search(r"\[bankgate\] (\S+): timing in .* median ([0-9.]+) ns", line)
        if m: by_test.setdefault(m.group(1), {}).setdefault(i, []).append(float(m.group(2)))
for test, runs in sorted(by_test.items()):
    within = [max(v) / min(v) - 1 for v in runs.values() if len(v) > 1]
    firsts = [v[0] for v in runs.values()]
    between = max(firsts) / min(firsts) - 1
    print(f"{test:36} processes {len(runs)}: first medians {' '.join(f'{v:.0f}' for v in firsts)}; "
          f"spread between processes {100 * between:.2f}%, within a process (3 repeats) median {100 * statistics.median(within):.2f}% max {100 * max(within):.2f}%")
PY
  note "probe=$spec" "$(wc -l <"$out/probe-summary.txt") tests"
}

# stamped: each line read, prefixed with the time it was read (seconds since the epoch).
stamped() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done; }

step_drift() {
  local spec=$1 n filter p smi
  n=${spec%%:*}; filter=${spec#*:}
  build_tree "$build" || return
  for p in 1 2; do
    sleep 15  # an idle GPU, as between the jobs of a CI runner
    nvidia-smi --query-gpu=pstate,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
      --format=csv,noheader,nounits -lms 100 2>&1 | stamped >"$out/drift-smi-$p.csv" &
    smi=$!
    BANKGATE_CANDIDATE_DIR="$out/drift-candidates" BANKGATE_BASELINE_DIR="$PWD/baselines" \
      stdbuf -oL -eL "$build/tests/suites/catalogue_suite" --gtest_filter="$filter" --gtest_repeat="$n" 2>&1 |
      stamped >"$out/drift-$p.log"
    pkill -f "nvidia-smi --query-gpu=pstate" ; wait "$smi" 2>/dev/null
  done
  python3 - "$out" <<'PY' | tee "$out/drift-summary.txt"
import re, statistics, sys
out = sys.argv[1]
for p in (1, 2):
    smi = []
    for line in open(f"{out}/drift-smi-{p}.csv"):
        parts = line.split(" ", 1)
        fields = [f.strip() for f in parts[1].split(",")] if len(parts) == 2 else []
        if len(fields) == 6:
            try: smi.append((float(parts[0]), fields[0], float(fields[1]), float(fields[2]), float(fields[3]), fields[4], fields[5]))
            except ValueError: pass
    start, seen = None, {}
    print(f"process {p}: s since start | test | repeat | median ns | SM MHz (collector) | nvidia-smi over the timing: P-state, SM MHz, memory MHz, W, C, reasons")
    for line in open(f"{out}/drift-{p}.log"):
        stamp, text = line.split(" ", 1)
        t = float(stamp); start = start or t
        m = re.search(r"\[bankgate\] (\S+): timing in ([0-9.]+) ms: median ([0-9.]+) ns.*SM clock ([0-9.]+|unknown)", text)
        if not m: continue
        test, host_s, median = m.group(1), float(m.group(2)) / 1000, float(m.group(3))
        seen[test] = seen.get(test, 0) + 1
        window = [s for s in smi if t - host_s - 0.05 <= s[0] <= t]
        if window:
            sm = statistics.median(s[2] for s in window); mem = statistics.median(s[3] for s in window)
            watts = statistics.median(s[4] for s in window)
            state = f"{window[-1][1]} {sm:.0f} {mem:.0f} {watts:.0f} {window[-1][5]} {window[-1][6]}"
        else:
            state = "no sample"
        print(f"  {t - start:6.2f} {test:30} {seen[test]:2} {median:9.0f} {m.group(4):>6} | {state}")
PY
  note "drift=$spec" "$(grep -c '^  ' "$out/drift-summary.txt") timings"
}

step_aa() {
  local n=$1 i
  build_tree "$build" || return
  for i in $(seq 1 "$n"); do
    expect "A/A compare $i of $n" 0 "aa-$i.log" "$bankgate" compare --base "$build" --head "$build" --json "$out/aa-$i.json"
  done
  python3 - "$out" "$n" <<'PY' | tee "$out/aa-summary.txt"
import re, sys
sys.path.insert(0, "tools")
from bankgate_outputs import duration_findings, read_compare
out, n = sys.argv[1], int(sys.argv[2])
verdicts, noise = {}, {}
for i in range(1, n + 1):
    for test, f in duration_findings(read_compare(f"{out}/aa-{i}.json")):
        verdicts[f["verdict"]] = verdicts.get(f["verdict"], 0) + 1
        m = re.search(r"noise ([0-9.]+)%", f["detail"])  # the JSON gives the noise only in the finding's detail
        if m: noise.setdefault(test, []).append(float(m.group(1)))
print(f"{n} A/A compares: verdicts {verdicts}")
for test, values in sorted(noise.items(), key=lambda kv: -max(kv[1]))[:12]:
    print(f"  {test:44} round-to-round noise % {' '.join(f'{v:.2f}' for v in values)}")
PY
  note "aa=$n A/A compares" "$(head -n 1 "$out/aa-summary.txt" | cut -c1-70)"
}

step_pool() {
  local rounds=$1 side
  build_tree "$build" || return
  expect "pool: compare against itself, $rounds rounds" - pool.log \
    "$bankgate" compare --base "$build" --head "$build" --rounds "$rounds" --json "$out/pool.json"
  for side in base head; do
    mkdir -p "$out/records/pool-$side" && cp -r "$(result "compare_$side")/." "$out/records/pool-$side/"
  done
}

step_gpus() {
  local n=$1 i count
  build_tree "$build" || return
  bash "$build/cli/bankgate-resource-spec" "$out/spec.json" 2>"$out/spec.txt" || { note "gpus: resource spec" "FAILED (spec.txt)"; return 2; }
  count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["local"][0]["gpus"]))' "$out/spec.json")
  for i in $(seq 1 "$n"); do
    expect "gate $i on $count GPUs" 0 "gpus-all-$i.log" \
      "$bankgate" gate --build "$build" --no-build --resource-spec "$out/spec.json" -j "$count"
    expect "gate $i on one GPU" 0 "gpus-one-$i.log" env CUDA_VISIBLE_DEVICES=0 "$bankgate" gate --build "$build" --no-build
  done
}

step_shards() {
  local n=$1 i sd=/tmp/bankgate-shards
  build_tree "$build" || return
  rm -rf "$sd" && mkdir -p "$sd"
  for i in $(seq 1 "$n"); do
    expect "gate --shard $i/$n" - "shard-$i.log" "$bankgate" gate --build "$build" --no-build --shard "$i/$n"
    note "  shard $i/$n" "$(python3 -c 'import json, sys; d=json.load(open(sys.argv[1])); print(len(d["tests"]), "tests,", d["verdict"], "suites", " ".join(d.get("shard", {}).get("suites", [])))' \
      "$(result gate_summary_json)" | cut -c1-70)"
    cp -r "$(result gate)" "$sd/$i"
  done
  expect "summary --shards (merged $n parts)" - shards-merge.log \
    "$bankgate" summary --shards "$sd" --baselines baselines --sources . --reports "$out/shards-merged"
  note "  merged" "$(python3 -c 'import json, sys; d=json.load(open(sys.argv[1])); print(len(d["tests"]), "tests,", d["verdict"])' "$out/shards-merged/summary.json")"
}

step_commits() {
  # The pull-request loop as an adopter runs it: examples/adopt in a git repository of its own, base as
  # committed and head with a bank conflict, judged by bankgate compare-commits on this GPU; then base against
  # itself, which must pass. bankgate comes from this checkout (subdirectory).
  local pr=/tmp/bankgate-outside
  build_tree "$build" || return
  rm -rf "$pr" && mkdir -p "$pr/project" && cp -r examples/adopt/. "$pr/project/"
  expect "compare-commits: outside project set up" 0 commits-setup.log example_repository "$pr/project" || return
  local args=(--source "$pr/project" --work "$pr/work" --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90
              --cmake-arg=-DBANKGATE_FROM=subdirectory "--cmake-arg=-DBANKGATE_SOURCE_DIR=$PWD")
  expect "compare-commits HEAD~1 HEAD (a bank conflict)" 1 commits.log env -u BANKGATE_GIT_COMMIT -u BANKGATE_GIT_DIRTY \
    "$bankgate" compare-commits "${args[@]}" --json "$out/commits.json" --markdown "$out/commits.md" --html "$out/commits.html" HEAD~1 HEAD
  expect "compare-commits HEAD~1 HEAD~1 (unchanged)" 0 commits-same.log env -u BANKGATE_GIT_COMMIT -u BANKGATE_GIT_DIRTY \
    "$bankgate" compare-commits "${args[@]}" --json "$out/commits-same.json" HEAD~1 HEAD~1
  tail -n 25 "$out/commits.log"
}

step_bisect() {
  # The package this build installs, an outside project of 64 commits, one of which removes its transpose tile's
  # padding: bisect must name that commit. BANKGATE_REQUIRE_GPU=1: a test that cannot measure fails, never skips.
  build_tree "$build" || return
  expect "bisect: 64 commits, a planted bank conflict" 0 bisect.log env BANKGATE_REQUIRE_GPU=1 \
    bash tests/unit/bisect_gpu_test.sh "$PWD" "$build" "$(bankgate_find_nvcc)"
  grep -E "^(FAIL|ok   - at most|bankgate bisect: (first|[0-9]+ build|confirmed))|passed," "$out/bisect.log" | tail -n 8
}

step_hopper() {
  local suite=$build/tests/suites/catalogue_suite
  build_tree "$build" || return
  cuobjdump -sass "$suite" >"$out/catalogue.sass" 2>&1
  awk '/Function :/ { f = $3 } match($0, /(UTMALDG|UTMASTG|UTMAPF|UBLKCP|UBLKRED|HGMMA|SYNCS\.[A-Z.0-9]+|LDSM[.A-Z0-9]*|STSM[.A-Z0-9]*|LD\.E[.A-Z0-9]*|STS\.64)/) {
         n[f " " substr($0, RSTART, RLENGTH)]++ } END { for (k in n) print k, n[k] }' "$out/catalogue.sass" |
    grep -iE 'tma|wgmma|cluster' | sort >"$out/hopper-sass.txt"
  cat "$out/hopper-sass.txt"
  expect "hopper: suite run (output checks)" 0 hopper-suite.log \
    timeout 300 "$suite" --gtest_filter='TmaTile.*:WgmmaGemm.*:ClusterMulticast.*' --gtest_output="json:$out/hopper-suite.json"
  python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["testsuites"]:
    for t in s["testsuite"]: print(f"{s[\"name\"]}.{t[\"name\"]}: {t.get(\"result\", \"\")} {\"FAILED\" if t.get(\"failures\") else \"ok\"}")' \
    "$out/hopper-suite.json" 2>/dev/null | head -n 20
  bash tools/sass-metric-names.sh >"$out/sass-metric-names.txt" 2>&1
  note "hopper: per-instruction metrics of the chip" "$(grep -cE 'tma|gmma|dshared' "$out/sass-metric-names.txt") of TMA/wgmma/cluster kind"
  grep -E 'tma|gmma|dshared' "$out/sass-metric-names.txt" | head -n 20
}

step_sequence() {
  local probe=$build/bench/bankgate-cupti-sequence-probe order i=0
  build_tree "$build" || return
  local orders=("C:tma A:tma C:tma" "C:matmul A:matmul C:tma" "C:transpose2 A:transpose2 C:tma" "A:matmul C:tma"
    "C:tma C:matmul A:matmul C:tma" "C:matmul A:matmul C:wgmma C:wgmma" "C:matmul A:matmul C:matmul"
    "C:matmul C:tma C:tma C:matmul C:tma C:wgmma")
  : >"$out/sequence.txt"
  for order in "${orders[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086  # the order is several steps on purpose
    { echo "== $order"; timeout 120 "$probe" $order 2>&1; echo "exit $?"; } >>"$out/sequence.txt"
  done
  grep -E "^==|FAILED|exit" "$out/sequence.txt" | cut -c1-200
  note "sequence: orders with a failed step (0 wanted)" "$(grep -c '^exit [^0]' "$out/sequence.txt") of $i"
}

# elapsed_ms COMMAND...: the command's wall time in milliseconds, its output dropped.
elapsed_ms() {
  local start
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  echo $((($(date +%s%N) - start) / 1000000))
}

step_overhead() {
  build_tree "$build" || return
  # Each program the command runs by name (git, nvidia-smi) through a shim that logs when it started and ended: the
  # command's own time is what lies outside them and ctest's run (the build's own ctest, by its full path: its
  # time is in the gate's log).
  local shims=$out/shims log=$out/overhead-calls.txt program real i rc
  mkdir -p "$shims" && : >"$log"
  for program in git nvidia-smi; do
    real=$(command -v "$program") || continue
    printf '#!/usr/bin/env bash\nstart=$(date +%%s.%%N)\n"%s" "$@"\nrc=$?\necho "$start $(date +%%s.%%N) %s $*" >>"%s"\nexit $rc\n' \
      "$real" "$program" "$log" >"$shims/$program"
    chmod +x "$shims/$program"
  done
  for i in 1 2 3; do
    echo "== gate $i: $(date +%s.%N) start" >>"$log"
    PATH=$shims:$PATH "$bankgate" gate --build "$build" --no-build >"$out/overhead-gate-$i.log" 2>&1
    rc=$?
    echo "== gate $i: $(date +%s.%N) end, exit $rc" >>"$log"
  done
  # The catalogue's suite process alone, each line of its output stamped with the milliseconds since it started:
  # how long it takes to reach its first test, and to exit after its last.
  for i in 1 2; do
    python3 - "$build/tests/suites/catalogue_suite" >"$out/suite-timeline-$i.txt" 2>&1 <<'PY'
import subprocess, sys, time
start = time.monotonic()
child = subprocess.Popen([sys.argv[1]], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
for line in child.stdout:
    print(f"{1000 * (time.monotonic() - start):9.1f} {line.rstrip()}")
child.wait()
print(f"{1000 * (time.monotonic() - start):9.1f} exited with {child.returncode}")
PY
    grep -E "Running [0-9]+ tests|RUN .*\] [A-Za-z]|tests from .* ran|exited with" "$out/suite-timeline-$i.txt" |
      sed -n '1,3p;$p' | sed "s/^/suite process $i: /" >>"$out/overhead-suite.txt"
    grep -E "tests from .* ran" "$out/suite-timeline-$i.txt" | sed "s/^/suite process $i: /" >>"$out/overhead-suite.txt"
  done
  # ctest and run-suite around the suite process, each alone, as the measuring entry runs them.
  local suite=$build/tests/suites/catalogue_suite scratch=$out/run-suite-results
  local -a run_suite=("$bankgate" run-suite --binary "$suite" --results "$scratch" --shards 2 --timeout 600)
  local own_ctest
  own_ctest=$(sed -n 's/^CMAKE_CTEST_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
  for i in 1 2 3; do
    {
      echo "round $i: ctest --version: the first on PATH ($(command -v ctest)) $(elapsed_ms ctest --version) ms," \
        "the build's own ($own_ctest) $(elapsed_ms "$own_ctest" --version) ms;"
      echo "round $i: ctest -N $(elapsed_ms ctest --test-dir "$build" -N -L '^gpu$' -R '^bankgate\.measure\.') ms" \
        "(the suites' folders alone, as the command runs it: $(elapsed_ms ctest --test-dir "$build/bankgate/measuring-tests" \
        -N -L '^gpu$' -R '^bankgate\.measure\.') ms);" \
        "--gtest_list_tests $(elapsed_ms "$suite" --gtest_list_tests) ms;" \
        "run-suite shard 1 (idle) $(elapsed_ms "${run_suite[@]}" --shard 1) ms;" \
        "the suite alone $(elapsed_ms "$suite") ms; run-suite shard 0 $(elapsed_ms "${run_suite[@]}" --shard 0) ms"
    } >>"$out/overhead-suite.txt"
  done
  python3 - "$log" <<'PY' | tee "$out/overhead.txt"
import sys
begin = None
for line in open(sys.argv[1]):
    words = line.split()
    if line.startswith("=="):
        t = float(words[3])
        if words[4] == "start":
            begin = t
            print(line.strip())
        else:
            print(f"   {1000 * (t - begin):8.1f} ms  the command ends ({' '.join(words[5:])})")
        continue
    start, end = float(words[0]), float(words[1])
    print(f"   {1000 * (start - begin):8.1f} ms  {1000 * (end - start):7.1f} ms  {' '.join(words[2:8])[:110]}")
PY
  cat "$out/overhead-suite.txt"
}

step_launches() {
  local probe=$build/bench/bankgate-launch-cost-probe iterations
  build_tree "$build" || return
  : >"$out/launches.txt"
  for iterations in 64 4096; do
    { echo "== $iterations iterations"; timeout 120 "$probe" "$iterations" 2>&1; echo "exit $?"; } >>"$out/launches.txt"
  done
  cat "$out/launches.txt"
  note "launch cost probe: runs that failed (0 wanted)" "$(grep -c '^exit [^0]' "$out/launches.txt")"
}

step_switch() {
  local probe=$build/bench/bankgate-profiler-switch-probe way
  # The TMA traffic by its own set (1), by a two-pass set of everything (2, or 3 replayed by CUPTI), and rooms that
  # grow (a call of 12, then 64 kernels).
  local steps=(0:matmul 0:tma 1:tma 0:matmul 0:wgmma 1:wgmma 0:matmul 2:tma 2:matmul 2:wgmma 2:ldsm 0:matmul 3:tma
    0:tma 0:matmulx12 0:matmul 0:matmulx64 0:matmul 0:matmul)
  build_tree "$build" || return
  for way in reenable in_place; do
    expect "profiler switch probe: $way" - "switch-$way.log" timeout 180 "$probe" "$way" "${steps[@]}"
  done
  python3 - "$out"/switch-{reenable,in_place}.log <<'PY' | tee "$out/switch.txt"
import sys
def read(path):
    times, values = {}, {}
    for line in open(path):
        w = line.split()
        if w[:1] == ["step"]: times[int(w[1])] = (w[2], w[3], " ".join(w[5:]))
        if w[:1] == ["V"]: values[int(w[1])] = dict(p.split("=", 1) for p in w[2:] if "=" in p)
    return times, values
ways = [read(path) for path in sys.argv[1:]]
(ta, va) = ways[0]
print(f"{'step':>4} {'what':10} {'reenable ms':>12} {'in place ms':>12}  values against reenable")
for i in sorted(ta):
    cells = [w[0].get(i, ("?", "?", ""))[1] for w in ways]
    verdicts = ["same" if w[1].get(i) == va.get(i) else "DIFFER" for w in ways[1:]]
    print(f"{i:>4} {ta[i][0]:10} {cells[0]:>12} {cells[1]:>12}  {' '.join(verdicts)}  {ta[i][2]}")
for name, w in zip(sys.argv[2:], ways[1:]):
    print(f"{name}: steps whose values differ from reenable's: {sum(w[1].get(i) != va.get(i) for i in ta)}")
PY
}

step_passes() {
  local probe=$build/bench/bankgate-profiler-switch-probe
  # Each step one kernel and the pass of the set of both (2) it runs: 1 the instrumented metrics, 0 the hardware
  # counters, in an order that does not alternate.
  local plan=(1:matmul 1:matmul 1:tma 0:tma 1:wgmma 1:ldsm 0:ldsm 0:tma 1:matmul 1:tma 1:matmulx12 1:matmul 0:wgmma 1:tma)
  build_tree "$build" || return
  local reference=() traffic=() indexed=()
  for p in "${plan[@]}"; do
    reference+=("0:${p#*:}") traffic+=("1:${p#*:}") indexed+=("2@${p%%:*}/1:${p#*:}")
  done
  expect "passes probe: the gate's set" 0 passes-reference.log timeout 180 "$probe" reenable "${reference[@]}"
  expect "passes probe: the traffic set" 0 passes-traffic.log timeout 180 "$probe" reenable "${traffic[@]}"
  # The pass index given to SetConfig, with the counter-data image copied (as collect() does) and initialised anew.
  expect "passes probe: pass by index" - passes-indexed.log timeout 180 "$probe" reenable "${indexed[@]}"
  expect "passes probe: pass by index, image initialised" - passes-reinit.log timeout 180 "$probe" reinit "${indexed[@]}"
  python3 - "$out"/passes-{reference,traffic,indexed,reinit}.log <<'PY' | tee "$out/passes.txt"
import sys
def read(path):
    steps, values = {}, {}
    for line in open(path):
        w = line.split()
        if w[:1] == ["step"]: steps[int(w[1])] = (w[2], w[3], " ".join(w[5:]))
        if w[:1] == ["V"]: values[int(w[1])] = dict(p.split("=", 1) for p in w[2:] if "=" in p)
    return steps, values
(_, gate), (_, traffic) = read(sys.argv[1]), read(sys.argv[2])
for name, path in zip(["image copied", "image initialised"], sys.argv[3:]):
    steps, values = read(path)
    wrong = 0
    print(f"== {name}: step, its pass, ms, values against the set alone")
    for j in sorted(steps):
        ref = (traffic if steps[j][0].split("@")[1].startswith("0/") else gate).get(j, {})
        mine = values.get(j, {})
        differ = [m for m in ref if mine.get(m) != ref[m]]
        wrong += bool(differ) or not ref  # a reference step that failed leaves nothing to compare
        print(f"{j:>4} {steps[j][0]:16} {steps[j][1]:>8}  {len(ref) - len(differ)}/{len(ref)} equal  {steps[j][2]}")
        for m in differ[:3]: print(f"       {m}: {mine.get(m)} against {ref[m]}")
    print(f"{name}: steps with a value unlike the set alone's: {wrong} of {len(steps)}")
PY
}

step_sass() {
  build_tree "$build" || return
  expect "sass report" 0 sass.log bash tools/sass-report.sh "$build"
  tail -n 25 "$out/sass.log"
}

step_ncu() {
  local repeats=${BANKGATE_NCU_REPEATS:-2}
  expect "ncu cross-check ($repeats ncu runs)" 0 ncu-crosscheck.log env BANKGATE_NCU_REPEATS="$repeats" bash tools/ncu-crosscheck.sh
  grep -E 'DIFFERENT|ncu cross-check:' "$out/ncu-crosscheck.log" | tail -n 8
}

step_counters() {
  expect "counter cost bench" 0 counters.log bash bench/counters.sh "$out/counters"
  tail -n 9 "$out/counters.log"
}

step_speed() {
  local n=${1:-3}
  build_tree "$build" || return
  # gate-speed.sh builds where the bench scripts build (lib.sh's bankgate_bench_build_dir): that is this build.
  mkdir -p build/compare/build && ln -sfn ../../gate build/compare/build/working-tree
  expect "gate speed ($n gates, counters)" 0 speed.log env OUT="$out/speed" GATES="$n" PARTS="gates counters" \
    bash bench/gate-speed.sh
  sed -n '/^| GPUs/,/^$/p' "$out/speed/RESULTS-speed.md"
  sed -n '/^| host time/,/^$/p' "$out/speed/RESULTS-speed.md"
  sed -n '/^kernels\/call/,/^exit/p' "$out/speed/RESULTS-speed.md"
  python3 - "$out/speed/gates" <<'PY' | tee "$out/verdict-times.txt"
import glob, statistics, sys
import xml.etree.ElementTree as ET
times = [float(c.get("time")) for path in glob.glob(f"{sys.argv[1]}/one-*.xml")
         for c in ET.parse(path).getroot().iter("testcase") if not c.get("name", "").startswith("bankgate.measure.")]
if times:
    print(f"per-test verdict entries: {len(times)}, median {statistics.median(times) * 1000:.1f} ms, "
          f"sum per gate {sum(times) / len(glob.glob(sys.argv[1] + '/one-*.xml')):.2f} s")
PY
}

step_cost() {
  build_tree "$build" || return
  expect "collector cost against ncu" 0 cost.log bash bench/collector-cost.sh "$build/tests/suites/catalogue_suite"
  tail -n 8 "$out/cost.log"
}

# ---- The round ----------------------------------------------------------------------------------------------
case ${1:-} in -h | --help) usage; exit 0 ;; esac
[ $# -gt 0 ] || set -- gate adopt
words=()
for word in "$@"; do
  if [ "$word" = validate ]; then words+=("${VALIDATE[@]}"); else words+=("$word"); fi
done
# Every step is checked against the table before the first one runs: a typo costs no GPU time.
for word in "${words[@]}"; do
  name=${word%%=*} known=""
  for entry in "${STEPS[@]}"; do
    form=${entry%%|*}
    base=${form%%\[*}
    [ "${base%%=*}" = "$name" ] || continue
    case $form in
      *"[="*) known=1 ;;                            # an optional argument
      *=*) [[ $word == *=?* ]] && known=1 ;;        # a required one
      *) [ "$word" = "$name" ] && known=1 ;;        # none
    esac
  done
  [ -n "$known" ] || bankgate_usage "unknown step or argument '$word' (tools/gpu-round.sh --help lists the steps)"
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
for word in "${words[@]}"; do
  name=${word%%=*} argument=""
  [[ $word == *=* ]] && argument=${word#*=}
  echo "== $word"
  "step_$name" "$argument"
done

tar -czf "$out/baselines.tgz" baselines examples/adopt/baselines docs/catalogue.md 2>/dev/null
# Every log and report in one file (a lent machine returns few files).
tar -czf "$out.logs.tgz" -C "$out" --exclude=baselines.tgz . && find "$out" -type f ! -name baselines.tgz -delete &&
  mv "$out.logs.tgz" "$out/logs.tgz"
echo
echo "== GPU round"
printf '%s\n' "${rows[@]}"
