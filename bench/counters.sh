#!/usr/bin/env bash
# Host time of counter collection per kernel: the collector at 1, 12 and 64 kernels per call (with where the
# time goes, by phase) against Nsight Compute on the same binary and kernel, with the same metrics.
#   bench/counters.sh [OUT_DIR]     (needs a GPU and ncu; default OUT_DIR build/bench-counters)
# Writes OUT_DIR/collector.json, ncu timings, and prints a table last.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${1:-build/bench-counters}
mkdir -p "$out"
build_dir=${BANKGATE_BUILD_DIR:-build/bench}
bankgate_ensure_dependencies
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir" >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 3; }
bench="$build_dir/bench/bankgate-counter-bench"
metrics=$("$build_dir/cli/bankgate" metrics)
"$bench" --batches 1,12,64 --calls 30 >"$out/collector.json" || bankgate_die "the collector bench failed"
# The same with the four shared-memory LDS/STS counters alone (the gate's set before the whole memory path was
# counted): what the other counters cost.
shared4=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
shared4+=,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
"$bench" --batches 1,12,64 --calls 30 --metrics "$shared4" >"$out/collector-shared4.json" ||
  bankgate_die "the collector bench (four shared-memory counters) failed"
# One kernel per call on a collector of its own, with the API's defaults (a room for one), and in a room for two as
# the gate's collector is made: the counter-data image and the profiler's stop grow with the room for kernels.
"$bench" --batches 1 --calls 30 >"$out/collector-single.json" || bankgate_die "the collector bench (one kernel) failed"
"$bench" --batches 1 --calls 30 --room 2 >"$out/collector-single-room2.json" ||
  bankgate_die "the collector bench (one kernel, room 2) failed"
"$bench" --batches 1 --calls 30 --metrics "$shared4" >"$out/collector-single-shared4.json" ||
  bankgate_die "the collector bench (one kernel, four counters) failed"
n=64
now() { date +%s.%N; }
t0=$(now); "$bench" --launch-only $n >"$out/plain.json"; t1=$(now)
ncu --clock-control none --metrics "$metrics" "$bench" --launch-only $n >"$out/ncu.log" 2>&1 ||
  bankgate_die "ncu failed (see $out/ncu.log)"
t2=$(now)
python3 - "$out" "$t0" "$t1" "$t2" "$n" <<'PY'
import json, sys
out, t0, t1, t2, n = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
c = json.load(open(f"{out}/collector.json"))
four = json.load(open(f"{out}/collector-shared4.json"))
print("host ms per kernel, the gate's set against the four shared-memory counters alone: " +
      ", ".join(f"{a['kernels_per_call']}/call {a['host_ms_per_kernel']:.3f} vs {b['host_ms_per_kernel']:.3f}"
                for a, b in zip(c["batches"], four["batches"])) +
      f"; set-up {c['setup_ms']:.1f} vs {four['setup_ms']:.1f} ms, first kernel {c['first_call_ms']:.1f} vs {four['first_call_ms']:.1f} ms")
single = json.load(open(f"{out}/collector-single.json"))["batches"][0]
single4 = json.load(open(f"{out}/collector-single-shared4.json"))["batches"][0]
single2 = json.load(open(f"{out}/collector-single-room2.json"))["batches"][0]
def parts(b):
    return ", ".join(f"{p} {v:.3f}" for p, v in b["phase_ms_per_kernel"].items())
print(f"one kernel per call, API defaults (room 1): {single['host_ms_per_kernel']:.3f} ms ({parts(single)}) "
      f"vs {single4['host_ms_per_kernel']:.3f} with the four counters")
print(f"one kernel per call, room 2 (the gate's): {single2['host_ms_per_kernel']:.3f} ms ({parts(single2)})")
ncu_ms = ((t2 - t1) - (t1 - t0)) * 1000.0 / n
print(f"{c['device']}: {c['passes']} pass; collector set-up {c['setup_ms']:.1f} ms, first profiled kernel {c['first_call_ms']:.1f} ms")
print(f"Nsight Compute on the same binary and kernel: {ncu_ms:.1f} ms of host time per profiled kernel ({n} kernels, less a plain run)")
phases = list(c["batches"][0]["phase_ms_per_kernel"])
print(f"{'kernels/call':>12} {'ms/kernel':>9} {'x cheaper than ncu':>18}  " + " ".join(f"{p:>10}" for p in phases) + "  identical")
for b in c["batches"]:
    ms = b["host_ms_per_kernel"]
    print(f"{b['kernels_per_call']:>12} {ms:>9.3f} {ncu_ms / ms:>18.0f}  " +
          " ".join(f"{b['phase_ms_per_kernel'][p]:>10.3f}" for p in phases) + f"  {b['counters_identical_to_the_first_call']}")
json.dump({"ncu_ms_per_kernel": ncu_ms, **c}, open(f"{out}/summary.json", "w"), indent=2)
PY
