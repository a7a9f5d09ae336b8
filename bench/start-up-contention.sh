#!/usr/bin/env bash
# Which parts of a measuring process's start-up the CUDA driver serialises across processes of one host (needs
# two GPUs). bankgate-start-up-bench times each phase (driver, context, collector, first profiled kernel) in wall
# and CPU time, in these cases:
#   contexts-alone       one process, one GPU: the driver, then a primary context
#   contexts-2proc       two such processes at once, each seeing only its GPU
#   contexts-2thread     one process seeing both GPUs, a context on each made on two threads at once
#   collector-alone      one process, one GPU: the driver, bankgate's collector, a kernel's first launch, its
#                        counters and timing (twice each: the first call's extra cost apart)
#   collector-2proc      two such processes at once, each seeing only its GPU
# each with the CUDA defaults and with CUDA_DEVICE_MAX_CONNECTIONS=1 (fewer hardware queues made per context).
# Where strace is installed, one more round of the collector cases runs under it and the system calls that
# took the most wall time are listed. ROUNDS (default 5); logs go to $OUT (default build/start-up-contention);
# the table is printed last and written to $OUT/start-up-contention.md.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/start-up-contention}
rounds=${ROUNDS:-5}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bankgate_bench_build "$out/build.log"
build=$BANKGATE_BENCH_BUILD
bench="$build/bench/bankgate-start-up-bench"
[ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ] || bankgate_die "two GPUs are needed"
runs="$out/runs.jsonl"
: >"$runs"

one() {  # one CASE VARIANT VISIBLE ARGS...: a bench process, its JSON line tagged and appended to runs.jsonl
  local case=$1 variant=$2 visible=$3 line
  shift 3
  if [ "$variant" = default ]; then
    line=$(CUDA_VISIBLE_DEVICES="$visible" "$bench" "$@" 2>>"$out/errors.log")
  else
    line=$(env "$variant" CUDA_VISIBLE_DEVICES="$visible" "$bench" "$@" 2>>"$out/errors.log")
  fi
  [ -n "$line" ] && echo "{\"case\": \"$case\", \"variant\": \"$variant\", \"run\": $line}" >>"$runs"
}

for r in $(seq 1 "$rounds"); do
  for variant in default CUDA_DEVICE_MAX_CONNECTIONS=1; do
    one contexts-alone "$variant" 0 contexts 0
    one contexts-2proc "$variant" 0 contexts 0 & one contexts-2proc "$variant" 1 contexts 0 & wait
    one contexts-2thread "$variant" 0,1 contexts 0 1
    one collector-alone "$variant" 0 collector 0
    one collector-2proc "$variant" 0 collector 0 & one collector-2proc "$variant" 1 collector 0 & wait
  done
done

if command -v strace >/dev/null 2>&1; then
  CUDA_VISIBLE_DEVICES=0 strace -f -w -c -o "$out/strace-alone.txt" "$bench" collector 0 >/dev/null 2>&1
  CUDA_VISIBLE_DEVICES=0 strace -f -w -c -o "$out/strace-2proc-0.txt" "$bench" collector 0 >/dev/null 2>&1 &
  CUDA_VISIBLE_DEVICES=1 strace -f -w -c -o "$out/strace-2proc-1.txt" "$bench" collector 0 >/dev/null 2>&1 &
  wait
else
  echo "strace is not installed: no system-call figures" >"$out/strace-alone.txt"
fi
{
  echo "Produced by bench/start-up-contention.sh (ROUNDS=$rounds) on $(date -u +%Y-%m-%dT%H:%M:%SZ), commit ${BANKGATE_GIT_COMMIT:-unknown}, on:"
  echo; nvidia-smi --query-gpu=index,name,driver_version,persistence_mode --format=csv | sed 's/^/    /'; echo
  python3 bench/start_up_contention_table.py "$out"
} | tee "$out/start-up-contention.md"
