#!/usr/bin/env bash
# Where a suite process's time goes when it runs alone and when one runs on each of several GPUs at once (needs
# two GPUs or more). The catalogue's tests are split in as many parts as GPUs (every k-th test, as shards are):
#   alone-all     all tests, GPU 0 alone
#   alone-part0   the first part alone on GPU 0
#   together-<i>  every part at once, part i on GPU i (each process sees only its GPU, as under a resource spec)
#   shared-<i>    one process per GPU at once, each given every test, sharing them out as they go (claims,
#                 start-ups taking turns), as the shards of a suite do in a `bankgate gate --resource-spec`
# GPUS (default: every GPU nvidia-smi lists) picks how many. REPEAT (default 1) runs each process's tests that
# many times (--gtest_repeat), as a project with that many times the kernels would: the start-up stays the same
# and the measuring grows. With REPEAT 1 the table also splits each process's time into parts.
# ROUNDS (default 3) rounds of each; per-test phases come from the tests' own records (GoogleTest JSON),
# process start-up and exit from the wall time less the tests' own. Logs go to $OUT (default
# build/concurrent-suites); the table is printed last and written to $OUT/concurrent-suites.md.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
out=${OUT:-build/concurrent-suites}
rounds=${ROUNDS:-3}
repeat=${REPEAT:-1}
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)
bankgate_bench_build "$out/build.log"
build=$BANKGATE_BENCH_BUILD
suite="$build/tests/suites/catalogue_suite"
# The shared runs stand in for bankgate run-suite, so they pass what it passes, by the command's names for it.
protocol_name() { "$build/cli/bankgate" protocol --get "environment.$1"; }
claims_dir=$(protocol_name claims_dir) || exit 3
shard=$(protocol_name shard) || exit 3
results_dir=$(protocol_name results_dir) || exit 3
running_file=$(protocol_name running_file) || exit 3
gpus=${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$gpus" -ge 2 ] || bankgate_die "two GPUs or more are needed (nvidia-smi lists $gpus)"

"$suite" --gtest_list_tests --gtest_output="json:$out/tests.json" >/dev/null ||
  bankgate_die "$suite could not list its tests"
mapfile -t tests < <(python3 -c 'import json, sys
for s in json.load(open(sys.argv[1]))["testsuites"]:
    for t in s["testsuite"]:
        print(s["name"] + "." + t["name"])' "$out/tests.json")
part() {  # part I [STEP]: the filter of every STEP-th test (default: one per GPU) from the I-th
  local i joined="" step=${2:-$gpus}
  for ((i = $1; i < ${#tests[@]}; i += step)); do joined+="${joined:+:}${tests[$i]}"; done
  echo "$joined"
}

run() {  # run NAME GPU FILTER [ENV=VALUE...]: one suite process, its wall time in NAME.wall
  local name=$1 gpu=$2 filter=$3 t0
  shift 3
  t0=$(date +%s.%N)
  env "$@" CUDA_VISIBLE_DEVICES="$gpu" BANKGATE_DEVICE=0 BANKGATE_REQUIRE_GPU=1 BANKGATE_ATTRIBUTE=0 \
    BANKGATE_CANDIDATE_DIR="$out/candidates/$name" "$suite" --gtest_filter="$filter" --gtest_repeat="$repeat" \
    --gtest_output="json:$out/runs/$name.json" >"$out/runs/$name.log" 2>&1
  echo "$t0 $(date +%s.%N) $?" >"$out/runs/$name.wall"
}
for r in $(seq 1 "$rounds"); do
  run "alone-all-$r" 0 "$(part 0 1)"
  run "alone-part0-$r" 0 "$(part 0)"
  for ((g = 0; g < gpus; ++g)); do run "together-$g-$r" "$g" "$(part "$g")" & done
  wait
  for ((g = 0; g < gpus; ++g)); do
    run "shared-$g-$r" "$g" "$(part 0 1)" "$claims_dir=$out/claims/$r" "$shard=$g" \
      "$results_dir=$out/results/$r" "$running_file=$out/results/$r/.running-$g" &
  done
  wait
done
python3 bench/concurrent_suites_table.py "$out/runs" "$repeat" | tee "$out/concurrent-suites.md"
