#!/usr/bin/env bash
# One round of GPU work on a lent machine, for this repository's developers. Steps, in the order given:
#   refresh[=FILTER]  record this GPU's catalogue baselines (all, or the tests FILTER selects) with the command
#   fresh             remove this GPU's catalogue and example baselines first (a schema change: refresh writes
#                     them anew)
#   gate              the catalogue's gate against the committed baselines
#   adopt             examples/adopt as an outside project: record and promote its baselines, gate, and gate a
#                     planted bank conflict (its padding removed)
#   outside           the outside projects adopters tripped on (tests/unit/fixtures/outside_projects/), against
#                     the installed package: a suite linking CUDA::cuda_driver (with the driver here its test must
#                     pass: the toolkit's stub driver is for machines without one) and .cu files including
#                     bankgate's headers (tests/unit/adopt_example_test.sh package)
#   faults            a test whose kernel faults (illegal address) beside a healthy one, and a suite run under
#                     ncu without BANKGATE_LAUNCH_ONLY
#   record=N[:FILTER] N recordings (no promote), then whether every counter read the same in all of them
#   planted           the catalogue built with its planted regressions (BANKGATE_PLANTED_REGRESSION: a one-warp
#                     bank conflict in the transpose kernels, a one-warp strided store, a conflicting cp.async,
#                     a spilling matmul, a kernel doing more instructions), gated: each failure's message
#   gpus=N            N gates on every GPU of the machine (a resource spec, one suite per GPU at a time), then N
#                     with CUDA_VISIBLE_DEVICES=0: wall times side by side
#   counters          host time of counter collection per kernel at 1, 12, 64 per call, against ncu (ci/bench-counters.sh)
#   ncu               the ncu cross-check of every counter of every kernel (ci/ncu-crosscheck.sh, 2 ncu runs)
#   probe=N:FILTER    N processes of the catalogue suite, each timing the FILTER's tests 3 times: medians by
#                     process and repeat, to tell noise between processes (placement, start-up) from noise
#                     within one
#   machine           which GPU this is (UUID, serial, PCI bus) and its clocks, power and memory as found, so runs
#                     from several lent machines can be told apart and their differences explained
#   build             the catalogue's build alone, timed
#   hopper            the Hopper kernels (TMA, wgmma, clusters): their SASS opcodes per kernel, one run of their
#                     tests with output checks, and the chip's per-instruction (SASS Metrics API) metric names
#   pool=R            one same-runner compare of the catalogue's build against itself with R rounds per side, its
#                     round candidates kept: A/A compares are drawn from them afterwards, without the GPU
#   commits           bankgate compare-commits in an outside project (examples/adopt in a git repository of its
#                     own): head with a bank conflict planted against base (1 expected), base against itself (0)
#   shards=N          the catalogue's gate in N parts (--shard I/N, one after another on this GPU), then the parts
#                     merged by bankgate summary --shards: the merged verdict and test count against the whole gate's
#   aa=N              N same-runner compares of the catalogue's build against itself (bankgate compare, its
#                     default rounds): every verdict but ok is a false alarm or an inconclusive test, with the
#                     round-to-round noise each test showed
#   ci/device-round.sh gate adopt          (default: gate adopt)
# Headers the machine lacks (CLI11, pugixml, nlohmann-json) come in .deps/usr (Debian packages unpacked).
# Logs, reports and a tarball of every baselines folder go to $OUT; a short table is printed last.
# Give BANKGATE_GIT_COMMIT from the checkout that sent the tree: the lent machine's copy may carry a stale .git.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device-round}
mkdir -p "$out"
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH=$PWD/.deps/usr
export BANKGATE_GIT_COMMIT=${BANKGATE_GIT_COMMIT:-unknown} BANKGATE_GIT_DIRTY=${BANKGATE_GIT_DIRTY:-0}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
rows=()
row() { rows+=("$(printf '%-46s %s' "$1" "$2")"); }
timed() { local start=$SECONDS; "$@"; local rc=$?; elapsed=$((SECONDS - start)); return $rc; }
[ $# -gt 0 ] || set -- gate adopt
bankgate=build/gate/cli/bankgate
export BANKGATE_BUILD_DIR=build/gate  # refresh and gate share one build
. ci/lib.sh
# Where the command leaves NAME of its results in build/gate (bankgate_result_path: the layout is the command's).
result() { bankgate_result_path "$bankgate" build/gate "$1"; }
built() { mkdir -p build; { . ci/lib.sh && bankgate_ensure_dependencies && bankgate_build build/gate; } >"$out/build.log" 2>&1; }

for step in "$@"; do
  case $step in
    refresh | refresh=*)
      filter=${step#refresh}; filter=${filter#=}
      timed bash ci/refresh-baselines.sh --new-gpu ${filter:+--filter "$filter"} >"$out/catalogue-refresh.log" 2>&1
      row "catalogue refresh ${filter:-(all)}" "exit $? (${elapsed}s)"
      mkdir -p "$out/records/refresh" && cp -r "$(result record_candidates)/." "$out/records/refresh/"
      tail -n 3 "$out/catalogue-refresh.log" ;;
    gate)
      timed bash ci/gate.sh >"$out/catalogue-gate.log" 2>&1
      row "catalogue gate" "exit $? (${elapsed}s)"
      cp "$(result gate_summary_json)" "$out/catalogue-summary.json" 2>/dev/null
      tail -n 3 "$out/catalogue-gate.log" ;;
    outside)
      [ -x "$bankgate" ] || built
      timed bash tests/unit/adopt_example_test.sh package "$PWD" build/gate "$(bankgate_find_nvcc)" >"$out/outside.log" 2>&1
      row "outside projects (package)" "exit $? (${elapsed}s)"
      grep -E "^(FAIL|ok   - (with|without) the driver)|passed," "$out/outside.log" | tail -n 8 ;;
    adopt)
      ex=build/adopt
      cmake -S examples/adopt -B "$ex" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DBANKGATE_FROM=subdirectory -DBANKGATE_SOURCE_DIR="$PWD" >"$out/adopt-configure.log" 2>&1 &&
        cmake --build "$ex" >"$out/adopt-build.log" 2>&1
      row "adopt: configure and build" "exit $?"
      adopt=$ex/bankgate/cli/bankgate
      timed "$adopt" refresh --build "$ex" --new-gpu >"$out/adopt-refresh.log" 2>&1
      row "adopt: bankgate refresh --new-gpu" "exit $? (${elapsed}s)"
      timed "$adopt" gate --build "$ex" >"$out/adopt-gate.log" 2>&1
      row "adopt: bankgate gate" "exit $? (${elapsed}s)"
      cp examples/adopt/transpose.cu "$out/transpose.cu.orig"
      sed -i 's/tile\[transpose_tile\]\[transpose_tile + 1\]/tile[transpose_tile][transpose_tile]/' examples/adopt/transpose.cu
      timed "$adopt" gate --build "$ex" >"$out/adopt-planted.log" 2>&1
      row "adopt: gate with the padding removed" "exit $? (${elapsed}s; 1 expected)"
      cp "$out/transpose.cu.orig" examples/adopt/transpose.cu && rm "$out/transpose.cu.orig"
      cmake --build "$ex" >/dev/null 2>&1
      echo "== the planted regression's failure message"
      grep -A12 'bankgate\] Transpose.PaddedTile (kernel' "$out/adopt-planted.log" | head -n 13 ;;
    faults)
      # A copy of the example with a second test whose kernel reads through an invalid pointer.
      fp=build/fault-project
      rm -rf "$fp" && mkdir -p build && cp -r examples/adopt "$fp"
      # The faulting test comes first, so the healthy one after it must run in a fresh process.
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
      cmake -S "$fp" -B "$fp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DBANKGATE_FROM=subdirectory -DBANKGATE_SOURCE_DIR="$PWD" >"$out/faults-build.log" 2>&1 &&
        cmake --build "$fp/build" >>"$out/faults-build.log" 2>&1
      timed "$fp/build/bankgate/cli/bankgate" gate --build "$fp/build" --no-build >"$out/faults-gate.log" 2>&1
      row "faults: gate with an illegal-address test" "exit $? (${elapsed}s; 2 expected)"
      echo "== the gate with a faulting test"
      grep -E '^(Transpose|bankgate gate|  )' "$out/faults-gate.log" | grep -v '^  [A-Za-z]*:' | tail -n 12
      grep -hE 'run-suite:|unusable|its process died' "$fp/build/Testing/Temporary/LastTest.log" | head -n 4
      # A suite under ncu without launch-only mode: the collector must say another profiler is attached.
      suite=build/gate/tests/suites/catalogue_suite
      [ -x "$suite" ] || { bash ci/gate.sh >/dev/null 2>&1; }
      BANKGATE_REQUIRE_GPU=1 BANKGATE_CANDIDATE_DIR="$out/ncu-candidates" timeout 300 ncu --clock-control none \
        "$suite" --gtest_filter=SquareTile.setRowReadRow >"$out/faults-ncu.log" 2>&1
      row "faults: a suite under ncu, not launch-only" "exit $?"
      echo "== a suite under ncu"
      grep -m 3 -E 'profiler|Failure|FAILED' "$out/faults-ncu.log" ;;
    gates=*)
      # N gates of unchanged code against the committed baselines: wall time and timing false alarms.
      n=${step#gates=}
      built
      for i in $(seq 1 "$n"); do
        timed "$bankgate" gate --build build/gate --no-build >"$out/gate-$i.log" 2>&1
        echo "$? $elapsed" >>"$out/gates.txt"
        cp "$(result gate_summary_json)" "$out/gate-$i.json"
      done
      python3 - "$out" "$n" <<'PY' | tee "$out/gates-summary.txt"
import sys
sys.path.insert(0, "ci")
from bankgate_outputs import read_summary
out, n = sys.argv[1], int(sys.argv[2])
runs = [line.split() for line in open(f"{out}/gates.txt")]
slower = faster = counters = timed = 0
for i in range(1, n + 1):
    for t in read_summary(f"{out}/gate-{i}.json")["tests"]:
        timed += "median_ns" in t["properties"]
        for c in t["changes"]:
            slower += c["verdict"] == "slower"
            faster += c["verdict"] == "faster"
            counters += c["verdict"] == "counter_changed"
walls = sorted(int(r[1]) for r in runs)
print(f"{n} gates: exit codes {sorted(set(r[0] for r in runs))}, wall s min {walls[0]} median {walls[len(walls)//2]} max {walls[-1]}; "
      f"{timed} timed tests: {slower} SLOWER (false alarms), {faster} faster, {counters} counter changes")
PY
      row "gates=$n of unchanged code" "$(tail -n 1 "$out/gates-summary.txt" | cut -c1-60)" ;;
    fresh)
      model=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | tr 'A-Z ' 'a-z-')
      rm -rf baselines/sm_*/"$model" examples/adopt/baselines/sm_*/"$model"
      row "fresh: removed the $model baselines" "exit $?" ;;
    record=*)
      spec=${step#record=}; runs=${spec%%:*}; filter=; [[ $spec == *:* ]] && filter=${spec#*:}
      built
      dirs=()
      for i in $(seq 1 "$runs"); do
        timed "$bankgate" record --build build/gate --no-build ${filter:+--filter "$filter"} >"$out/record-$i.log" 2>&1
        row "record run $i ${filter:-(all)}" "exit $? (${elapsed}s)"
        mkdir -p "$out/records/run-$i" && cp -r "$(result record_candidates)/." "$out/records/run-$i/"
        dirs+=("$out/records/run-$i")
      done
      [ -d "$out/records/refresh" ] && dirs+=("$out/records/refresh")
      python3 ci/counter_determinism.py "${dirs[@]}" | tee "$out/determinism.txt" | tail -n 60
      row "counters identical in every run" "exit ${PIPESTATUS[0]}"
      # The attribution's cost, as each test recorded it in its GoogleTest report (the last recording's).
      # (attribute form attribution_host_ms="x" in older GoogleTest, <property name=... value="x"/> in newer)
      grep -hoE 'attribution_host_ms("? value)?="[0-9.]+"' "$(result gtest_results)"/*.xml | grep -oE '[0-9.]+"$' |
        tr -d '"' | sort -n |
        awk '{a[NR]=$1} END {if (NR) printf "attribution host ms per test: n=%d min=%s median=%s max=%s\n", NR, a[1], a[int((NR+1)/2)], a[NR]}' |
        tee -a "$out/determinism.txt" ;;
    probe=*)
      spec=${step#probe=}; n=${spec%%:*}; filter=${spec#*:}
      built
      suite=build/gate/tests/suites/catalogue_suite
      for i in $(seq 1 "$n"); do
        BANKGATE_CANDIDATE_DIR="$out/probe-candidates" BANKGATE_BASELINE_DIR="$PWD/baselines" \
          "$suite" --gtest_filter="$filter" --gtest_repeat=3 >"$out/probe-$i.log" 2>&1
      done
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
      row "probe=$spec" "$(wc -l <"$out/probe-summary.txt") tests" ;;
    aa=*)
      n=${step#aa=}
      built
      for i in $(seq 1 "$n"); do
        timed "$bankgate" compare --base build/gate --head build/gate --json "$out/aa-$i.json" >"$out/aa-$i.log" 2>&1
        echo "$? $elapsed" >>"$out/aa.txt"
      done
      python3 - "$out" "$n" <<'PY' | tee "$out/aa-summary.txt"
import re, sys
sys.path.insert(0, "ci")
from bankgate_outputs import duration_findings, read_compare
out, n = sys.argv[1], int(sys.argv[2])
verdicts, noise = {}, {}
for i in range(1, n + 1):
    for test, f in duration_findings(read_compare(f"{out}/aa-{i}.json")):
        verdicts[f["verdict"]] = verdicts.get(f["verdict"], 0) + 1
        m = re.search(r"noise ([0-9.]+)%", f["detail"])
        if m: noise.setdefault(test, []).append(float(m.group(1)))
print(f"{n} A/A compares: verdicts {verdicts}")
for test, values in sorted(noise.items(), key=lambda kv: -max(kv[1]))[:12]:
    print(f"  {test:44} round-to-round noise % {' '.join(f'{v:.2f}' for v in values)}")
PY
      row "aa=$n A/A compares" "$(head -n 1 "$out/aa-summary.txt" | cut -c1-70)" ;;
    machine)
      nvidia-smi --query-gpu=name,uuid,serial,pci.bus_id,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,temperature.memory,power.draw,power.limit,ecc.mode.current \
        --format=csv >"$out/machine.csv" 2>&1
      nvidia-smi -q >"$out/nvidia-smi-q.txt" 2>&1
      row "machine" "$(tail -n 1 "$out/machine.csv" | cut -d, -f2,3 | cut -c1-60)" ;;
    build)
      timed built
      row "build" "exit $? (${elapsed}s)" ;;
    hopper)
      built
      suite=build/gate/tests/suites/hopper_suite
      cuobjdump -sass "$suite" >"$out/catalogue.sass" 2>&1
      awk '/Function :/ { f = $3 } match($0, /(UTMALDG|UTMASTG|UTMAPF|UBLKCP|UBLKRED|HGMMA|SYNCS\.[A-Z.0-9]+|LDSM[.A-Z0-9]*|STSM[.A-Z0-9]*|LD\.E[.A-Z0-9]*|STS\.64)/) {
             n[f " " substr($0, RSTART, RLENGTH)]++ } END { for (k in n) print k, n[k] }' "$out/catalogue.sass" |
        grep -iE 'tma|wgmma|cluster' | sort >"$out/hopper-sass.txt"
      cat "$out/hopper-sass.txt"
      timed timeout 300 "$suite" --gtest_filter='TmaTile.*:WgmmaGemm.*:ClusterMulticast.*' >"$out/hopper-suite.log" 2>&1
      row "hopper: suite run (output checks)" "exit $? (${elapsed}s)"
      grep -E '^\[ +(OK|FAILED|SKIPPED) +\]|wrong output|failed' "$out/hopper-suite.log" | head -n 20
      bash ci/sass-metric-names.sh >"$out/sass-metric-names.txt" 2>&1
      row "hopper: per-instruction metrics of the chip" "$(grep -cE 'tma|gmma|dshared' "$out/sass-metric-names.txt") of TMA/wgmma/cluster kind"
      grep -E 'tma|gmma|dshared' "$out/sass-metric-names.txt" | head -n 20 ;;
    pool=*)
      rounds=${step#pool=}
      built
      timed "$bankgate" compare --base build/gate --head build/gate --rounds "$rounds" --json "$out/pool.json" >"$out/pool.log" 2>&1
      row "pool: compare against itself, $rounds rounds" "exit $? (${elapsed}s)"
      for side in base head; do
        mkdir -p "$out/records/pool-$side" && cp -r "$(result "compare_$side")/." "$out/records/pool-$side/"
      done ;;
    gpus=*)
      n=${step#gpus=}
      built
      bash ci/write-resource-spec.sh "$out/spec.json" 2>"$out/spec.txt"
      count=$(grep -o '"id"' "$out/spec.json" | wc -l)
      for i in $(seq 1 "$n"); do
        timed "$bankgate" gate --build build/gate --no-build --resource-spec "$out/spec.json" -j "$count" >"$out/gpus-all-$i.log" 2>&1
        echo "all $count $? $elapsed" >>"$out/gpus.txt"
        timed env CUDA_VISIBLE_DEVICES=0 "$bankgate" gate --build build/gate --no-build >"$out/gpus-one-$i.log" 2>&1
        echo "one 1 $? $elapsed" >>"$out/gpus.txt"
      done
      row "gates on $count GPUs, then on one (exit, s)" "$(awk '{printf "%s:%s/%ss ", $1, $3, $4}' "$out/gpus.txt")" ;;
    counters)
      timed bash ci/bench-counters.sh "$out/counters" >"$out/bench-counters.log" 2>&1
      row "counter cost bench" "exit $? (${elapsed}s)"
      tail -n 8 "$out/bench-counters.log" ;;
    ncu)
      timed env BANKGATE_NCU_REPEATS=2 bash ci/ncu-crosscheck.sh >"$out/ncu-crosscheck.log" 2>&1
      row "ncu cross-check (2 ncu runs)" "exit $? (${elapsed}s)"
      grep -E 'DIFFERENT|ncu cross-check:' "$out/ncu-crosscheck.log" | tail -n 8 ;;
    planted)
      pb=build/planted
      { . ci/lib.sh && bankgate_ensure_dependencies &&
        cmake -S . -B "$pb" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBANKGATE_PLANTED_REGRESSION=ON &&
        cmake --build "$pb"; } >"$out/planted-build.log" 2>&1
      row "planted: configure and build" "exit $?"
      timed "$pb/cli/bankgate" gate --build "$pb" --no-build >"$out/planted-gate.log" 2>&1
      row "planted: gate (1 expected)" "exit $? (${elapsed}s)"
      grep -E '^\[bankgate\] [A-Za-z0-9_/]+\.[A-Za-z0-9_/]+ \(kernel' "$out/planted-gate.log" | sort -u >"$out/planted-failures.txt"
      row "planted: failing checks" "$(wc -l <"$out/planted-failures.txt")"
      echo "== the planted regressions' failure messages (first of each test)"
      for t in $(grep -oE '^\[bankgate\] [^ ]+' "$out/planted-failures.txt" | awk '{print $2}' | sort -u); do
        grep -m 1 -A14 -F "[bankgate] $t (kernel" "$out/planted-gate.log" | grep -vE '^\s+(baseline file|if intended)'
      done
      # The failing run's files, as `bankgate summary` reads them: the fixture of the report test.
      mkdir -p "$out/planted-run" && cp -r "$(bankgate_result_path "$pb/cli/bankgate" "$pb" gate)/." "$out/planted-run/" &&
        cp -r "$(bankgate_result_path "$pb/cli/bankgate" "$pb" gtest_results)" "$out/planted-run/" ;;
    commits)
      # The pull-request loop as an adopter runs it: examples/adopt in a git repository of its own, base as
      # committed and head with its padding removed (a bank conflict), judged by bankgate compare-commits on
      # this GPU; then base against itself, which must pass. bankgate comes from this checkout (subdirectory).
      pr=/tmp/bankgate-outside
      rm -rf "$pr" && mkdir -p "$pr/project" && cp -r examples/adopt/. "$pr/project/"
      { built && cd "$pr/project" && git init -q && git add -A && git -c user.name=ci -c user.email=ci@example.invalid commit -qm base &&
          sed -i 's/tile\[transpose_tile\]\[transpose_tile + 1\]/tile[transpose_tile][transpose_tile]/' transpose.cu &&
          git -c user.name=ci -c user.email=ci@example.invalid commit -qam "head: no padding" && cd - >/dev/null; } >"$out/commits-setup.log" 2>&1
      row "compare-commits: outside project set up" "exit $?"
      commit_args=(--source "$pr/project" --work "$pr/work" --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90
                   --cmake-arg=-DBANKGATE_FROM=subdirectory "--cmake-arg=-DBANKGATE_SOURCE_DIR=$PWD")
      timed env -u BANKGATE_GIT_COMMIT -u BANKGATE_GIT_DIRTY "$bankgate" compare-commits "${commit_args[@]}" --json "$out/commits.json" --markdown "$out/commits.md" \
        --html "$out/commits.html" HEAD~1 HEAD >"$out/commits.log" 2>&1
      row "compare-commits HEAD~1 HEAD (padding removed)" "exit $? (${elapsed}s; 1 expected)"
      timed env -u BANKGATE_GIT_COMMIT -u BANKGATE_GIT_DIRTY "$bankgate" compare-commits "${commit_args[@]}" --json "$out/commits-same.json" HEAD~1 HEAD~1 >"$out/commits-same.log" 2>&1
      row "compare-commits HEAD~1 HEAD~1 (unchanged)" "exit $? (${elapsed}s; 0 expected)"
      tail -n 25 "$out/commits.log" ;;
    shards=*)
      # The gate split in N parts, run one after another on this GPU as N runners would run them, then merged:
      # every test must be in exactly one part and the merged verdict must be the whole gate's.
      n=${step#shards=}; sd=/tmp/bankgate-shards
      built; rm -rf "$sd" && mkdir -p "$sd"
      for i in $(seq 1 "$n"); do
        timed "$bankgate" gate --build build/gate --no-build --shard "$i/$n" >"$out/shard-$i.log" 2>&1
        row "gate --shard $i/$n" "exit $? (${elapsed}s): $(grep -m1 -o 'shard [0-9]* of [0-9]*: [^(]*' "$out/shard-$i.log")"
        cp -r "$(result gate)" "$sd/$i"
      done
      "$bankgate" summary --shards "$sd" --baselines baselines --sources . --reports "$out/shards-merged" >"$out/shards-merge.log" 2>&1
      row "summary --shards (merged $n parts)" "exit $? ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["tests"]), "tests,", d["verdict"])' "$out/shards-merged/summary.json"))" ;;
    *) echo "unknown step '$step'" >&2; exit 64 ;;
  esac
done

tar -czf "$out/baselines.tgz" baselines examples/adopt/baselines docs/catalogue.md 2>/dev/null
# Every log and report in one file (a lent machine returns few files).
tar -czf "$out.logs.tgz" -C "$out" --exclude=baselines.tgz . && find "$out" -type f ! -name baselines.tgz -delete &&
  mv "$out.logs.tgz" "$out/logs.tgz"
echo
echo "== device round"
printf '%s\n' "${rows[@]}"
