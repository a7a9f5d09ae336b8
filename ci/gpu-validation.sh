#!/usr/bin/env bash
# Validates bankgate end to end on a GPU machine, in one go:
#   1. the project's tests (ci/test.sh), GPU suites included
#   2. a refresh of this GPU's baselines (ci/refresh-baselines.sh; --new-gpu where it has none)
#   3. the gate against them (ci/gate.sh), which must pass
#   4. the ncu cross-check of every counter (ci/ncu-crosscheck.sh)
#   5. a planted regression (setRowReadColIpad without its padding, in a scratch copy), which must fail the gate
#   6. the cost of collecting counters against ncu (ci/bench-collector-cost.sh)
# Logs and a baselines archive go to $VALIDATION_OUT (default build/validation); a summary table is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${VALIDATION_OUT:-build/validation}
mkdir -p "$out/logs"
export BANKGATE_BUILD_DIR=build/validation-build
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

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >"$out/logs/gpu.txt" 2>&1
step tests 0 ci/test.sh
new_gpu=(); [ -d "baselines/$(ls "$BANKGATE_BUILD_DIR/candidates" 2>/dev/null | head -1)" ] || new_gpu=(--new-gpu)
step refresh 0 ci/refresh-baselines.sh "${new_gpu[@]}"
step gate 0 ci/gate.sh
step ncu-crosscheck 0 ci/ncu-crosscheck.sh

scratch=$(mktemp -d)
tar --exclude=./build --exclude=./.git -cf - . | tar -C "$scratch" -xf -
sed -i 's/^constexpr int padding = 1;/constexpr int padding = 0;/' "$scratch/kernels/square_tile.cu"
grep -q '^constexpr int padding = 0;' "$scratch/kernels/square_tile.cu" || echo "planting the regression failed" >&2
step planted-regression 1 env BANKGATE_BUILD_DIR="$scratch/build" BANKGATE_CTEST_ARGS="-R ^SquareTile\\." bash "$scratch/ci/gate.sh"
rm -rf "$scratch"
step collector-cost 0 ci/bench-collector-cost.sh "$BANKGATE_BUILD_DIR/tests/suites/square_tile_suite"

tar -czf "$out/baselines.tgz" baselines
tar -czf "$out/logs.tgz" -C "$out" logs
echo
echo "== summary"
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
grep -h "counters in" "$out/logs/gate.log" | sed 's/^.*\[bankgate\] //' | head -40
grep -h "Total Test time" "$out/logs"/*.log
