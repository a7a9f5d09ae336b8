#!/usr/bin/env bash
# Validates bankgate end to end on a GPU machine, with one build shared by every part:
#   refresh   ci/refresh-baselines.sh: the GPU suites, the review table, promotion into baselines/ (--new-gpu
#             with NEW_GPU=1 or an empty baselines/) and the catalogue's kernel table (docs/catalogue.md) regenerated
#   unit      the GPU-free tests of that build (after refresh: one checks docs/catalogue.md against the baselines)
#   rerun     a second run of unchanged code, shown as a dry-run refresh table: counters must not change
#   gate      ci/gate.sh against those baselines, which must pass; its markdown summary is kept
#   planted   a counter regression (setRowReadColIpad without its padding) and a timing regression
#             (setRowReadRow sleeping 1 us), each built into this tree, gated (exit 1 wanted), then undone
#   sass      the shared-memory instruction report (ci/sass-report.sh)
#   ncu       the ncu cross-check of every counter (ci/ncu-crosscheck.sh; BANKGATE_NCU_REPEATS honoured)
#   cost      the cost of collecting counters against ncu (ci/bench-collector-cost.sh)
#   arch      examples/adopt built for sm_80, as a project without CMAKE_CUDA_ARCHITECTURES gets another GPU's code:
#             the driver JIT-compiles its PTX, and the gate must call its test NOT MEASURED, saying so (exit 2)
#   multi     TwoPass.TransposeRoundTrip, a case launching two kernels: recorded kernel by kernel (each named, with
#             its counters, durations, per-line figures and stated ratios), gated against that recording (pass), then
#             with the planted regressions built in (BANKGATE_PLANTED_REGRESSION) gated again: regressed, the change
#             named by its kernel; the build is restored after
# PARTS picks and orders them (default: all, in this order). Logs, markdown summaries and the baselines go to
# $VALIDATION_OUT (default build/validation); a summary table is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${VALIDATION_OUT:-build/validation}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
parts=${PARTS:-refresh unit rerun gate planted sass ncu cost arch multi}
export BANKGATE_BUILD_DIR=${BANKGATE_BUILD_DIR:-build/validation-build}
build_dir=$BANKGATE_BUILD_DIR
summary=()
step() {  # step NAME EXPECTED_STATUS COMMAND...: runs, logs, records status and wall time
  local name=$1 expected=$2; shift 2
  local start; start=$(date +%s.%N)
  "$@" >"$out/logs/$name.log" 2>&1
  local status=$?
  local wall; wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
  local verdict=ok; [ "$status" = "$expected" ] || verdict=UNEXPECTED
  summary+=("$(printf '%-22s exit %-3s (want %s)  %7ss  %s' "$name" "$status" "$expected" "$wall" "$verdict")")
  echo "== $name: exit $status in ${wall}s"; tail -n 25 "$out/logs/$name.log"
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,clocks_event_reasons.active \
  --format=csv >"$out/logs/gpu.txt" 2>&1
# The unit tests need the tests' own dependencies (PyYAML, jsonschema); the GPU parts only the build's.
case " $parts " in
  *" unit "*) bankgate_ensure_test_dependencies ;;
  *) bankgate_ensure_dependencies ;;
esac
mkdir -p "$(dirname "$build_dir")"
step build 0 bankgate_build "$build_dir"

# examples/adopt with bankgate as a subdirectory, built for sm_80 on this GPU, gated: exit 2, its one test NOT
# MEASURED with the reason (cupti_collector/src/cuda_binary.cpp). Prints what it checked; returns 0 when all held.
foreign_arch_check() {
  local build="$out/foreign-arch" gpu_sm
  gpu_sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.[:space:]')
  # shellcheck disable=SC2086  # BANKGATE_CMAKE_ARGS holds several words on purpose; the architecture comes last
  cmake -S examples/adopt -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$BANKGATE_NVCC" \
    ${BANKGATE_CMAKE_ARGS:-} -DBANKGATE_FROM=subdirectory -DBANKGATE_SOURCE_DIR="$PWD" -DCMAKE_CUDA_ARCHITECTURES=80 &&
    cmake --build "$build" || return 3
  local gate status=0
  gate=$("$build/bankgate/cli/bankgate" gate --build "$build" --no-build 2>&1) || status=$?
  printf '%s\n' "$gate"
  local reason="built for sm_80, this GPU is sm_$gpu_sm: the driver JIT-compiled PTX; set CMAKE_CUDA_ARCHITECTURES=$gpu_sm"
  local held=0
  [ "$status" = 2 ] && echo "ok: the gate exits 2 (not measured)" || { echo "UNEXPECTED: the gate exited $status, not 2"; held=1; }
  grep -q "Transpose.PaddedTile *NOT MEASURED" <<<"$gate" && echo "ok: Transpose.PaddedTile is NOT MEASURED" ||
    { echo "UNEXPECTED: Transpose.PaddedTile is not NOT MEASURED"; held=1; }
  grep -qF "$reason" "$build/bankgate/gate/summary.md" && echo "ok: the summary says: $reason" ||
    { echo "UNEXPECTED: the summary does not say: $reason"; held=1; }
  return $held
}

# TwoPass.TransposeRoundTrip (tests/suites/two_pass_suite.cpp) launches transposePadded, then transposeSwizzled:
# recorded, each kernel's record is checked; promoted into a folder of its own, the gate passes against it; with
# the planted one-warp conflicts of the tiled transposes built in, it regresses, the change named by its kernel.
# Prints what it checked; returns 0 when all held.
multi_kernel_check() {
  local tool="$build_dir/cli/bankgate" work="$out/multi-kernel" candidates held=0
  candidates=$(bankgate_result_path "$tool" "$build_dir" record_candidates) || return 3
  rm -rf "$work" && mkdir -p "$work/baselines"
  "$tool" record --build "$build_dir" --no-build --filter 'TwoPass.*'
  python3 - "$candidates" <<'PY' || held=1
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
  "$tool" promote --build "$build_dir" --baselines "$work/baselines" --filter 'TwoPass.*' --new-gpu --force || return 3
  "$tool" gate --build "$build_dir" --no-build --filter 'TwoPass.*' --baselines "$work/baselines" &&
    echo "ok: the gate passes against its own recording" || { echo "UNEXPECTED: the gate fails against its own recording"; held=1; }
  cmake -S . -B "$build_dir" -DBANKGATE_PLANTED_REGRESSION=ON >/dev/null && cmake --build "$build_dir" >/dev/null || return 3
  local gate status=0
  gate=$("$tool" gate --build "$build_dir" --no-build --filter 'TwoPass.*' --baselines "$work/baselines" 2>&1) || status=$?
  printf '%s\n' "$gate"
  cmake -S . -B "$build_dir" -DBANKGATE_PLANTED_REGRESSION=OFF >/dev/null && cmake --build "$build_dir" >/dev/null || return 3
  [ "$status" = 1 ] && echo "ok: with the planted conflicts the gate regresses (exit 1)" ||
    { echo "UNEXPECTED: with the planted conflicts the gate exited $status, not 1"; held=1; }
  python3 - "$build_dir/bankgate/gate/summary.json" <<'PY' || held=1
import json, sys
test = [t for t in json.load(open(sys.argv[1]))["tests"] if t["name"] == "TwoPass.TransposeRoundTrip"][0]
first = test["changes"][0]
assert test["outcome"] == "regressed", f"outcome {test['outcome']}"
assert first.get("kernel") in ("transposePadded", "transposeSwizzled"), f"first change: {first}"
print(f"ok: the regression is named by its kernel: {first['display_name']}: {first['baseline']} -> {first['measured']}")
PY
  return $held
}

for part in $parts; do
  case $part in
    unit) step unit 0 ctest --test-dir "$build_dir" -L '^unit$' --output-on-failure --parallel 8 ;;
    refresh)
      # A GPU without baselines needs --new-gpu: NEW_GPU=1, or nothing in baselines/ at all.
      new_gpu=(); { [ "${NEW_GPU:-0}" = 1 ] || [ -z "$(find baselines -name '*.json' 2>/dev/null)" ]; } && new_gpu=(--new-gpu)
      step refresh 0 ci/refresh-baselines.sh "${new_gpu[@]}"
      tar -czf "$out/baselines.tgz" baselines docs/catalogue.md ;;  # one file: the device returns few files
    rerun) step rerun-dry-run 0 ci/refresh-baselines.sh --dry-run ;;
    gate) step gate 0 env GITHUB_STEP_SUMMARY="$out/gate-pass.md" ci/gate.sh --no-build ;;
    planted)
      kernel=kernels/square_tile.cu
      cp "$kernel" "$out/square_tile.cu.orig"
      sed -i 's/^constexpr int padding = 1;/constexpr int padding = 0;/' "$kernel"
      grep -q '^constexpr int padding = 0;' "$kernel" || echo "planting the counter regression failed" >&2
      cmake --build "$build_dir" >"$out/logs/planted-build.log" 2>&1
      step planted-counter 1 env GITHUB_STEP_SUMMARY="$out/planted-counter.md" BANKGATE_CTEST_ARGS="-R ^SquareTile\\." ci/gate.sh --no-build
      cp "$out/square_tile.cu.orig" "$kernel"
      sed -i 's/^__global__ void setRowReadRow(int\* out) {$/&\n  __nanosleep(1000);  \/\/ planted timing regression/' "$kernel"
      grep -q 'planted timing regression' "$kernel" || echo "planting the timing regression failed" >&2
      cmake --build "$build_dir" >>"$out/logs/planted-build.log" 2>&1
      step planted-timing 1 env GITHUB_STEP_SUMMARY="$out/planted-timing.md" BANKGATE_CTEST_ARGS="-R ^SquareTile\\." ci/gate.sh --no-build
      cp "$out/square_tile.cu.orig" "$kernel"
      cmake --build "$build_dir" >>"$out/logs/planted-build.log" 2>&1 ;;
    sass) step sass 0 ci/sass-report.sh "$build_dir" ;;
    ncu) step ncu-crosscheck 0 ci/ncu-crosscheck.sh ;;
    cost) step collector-cost 0 ci/bench-collector-cost.sh "$build_dir/tests/suites/catalogue_suite" ;;
    arch) step foreign-arch 0 foreign_arch_check ;;
    multi) step multi-kernel 0 multi_kernel_check ;;
    *) bankgate_die "unknown part '$part' in PARTS (unit refresh rerun gate planted sass ncu cost arch multi)" ;;
  esac
done

tar -czf "$out/logs.tgz" -C "$out" logs
echo
echo "== summary"
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
grep -h "Total Test time" "$out/logs"/*.log || true  # not every part runs ctest
