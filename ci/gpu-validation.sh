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
# PARTS picks and orders them (default: all, in this order). Logs, markdown summaries and the baselines go to
# $VALIDATION_OUT (default build/validation); a summary table is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${VALIDATION_OUT:-build/validation}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
parts=${PARTS:-refresh unit rerun gate planted sass ncu cost}
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
    *) bankgate_die "unknown part '$part' in PARTS (unit refresh rerun gate planted sass ncu cost)" ;;
  esac
done

tar -czf "$out/logs.tgz" -C "$out" logs
echo
echo "== summary"
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
grep -h "Total Test time" "$out/logs"/*.log || true  # not every part runs ctest
