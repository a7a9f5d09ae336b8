#!/usr/bin/env python3
"""The measuring run of a made-up GPU suite, for the GPU-free tests of the history and of bisect
(history_cli_test.sh, bisect_test.sh). A ctest entry of a made-up project, labelled gpu, runs it where
bankgate_add_gpu_suite() would run a suite's measuring test, and it writes what such a run writes, from the
project's files at its commit:
  loads.txt      the shared loads of SquareTile.setRowReadRow (32 is as it should be)
  duration.txt   its median in ns (768 where absent), or "noisy N": each run of the build a median of 0.8 N, N and
                 1.2 N in turn, so that rounds cannot tell it from N or from a change of a few percent
The candidate goes where the command's run manifest says (BANKGATE_RUN_MANIFEST); with RECORDS, the suite's plan
and the test's result record too (regressed where the loads are not 32, and then exit 1), as run-suite and the
suite process write them.

  fake_gpu_suite.py PROJECT BUILD [RECORDS]
"""
import datetime
import json
import os
import pathlib
import subprocess
import sys

project, build = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
records = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
loads = int((project / "loads.txt").read_text())
commit = subprocess.run(["git", "-C", str(project), "rev-parse", "HEAD"], capture_output=True, text=True,
                        check=True).stdout.strip()


def median_ns():
    """This run's median: duration.txt's, or for a noisy one the next of its three levels (a count in BUILD)."""
    path = project / "duration.txt"
    words = path.read_text().split() if path.exists() else ["768"]
    if words[0] != "noisy":
        return float(words[0])
    count = build / "fake-suite-runs.txt"
    runs = int(count.read_text()) if count.exists() else 0
    count.write_text(str(runs + 1))
    return float(words[1]) * (0.8, 1.0, 1.2)[runs % 3]


median = median_ns()
samples = [median] * 24
timing = {"median_ns": median, "mad_ns": 0, "p10_ns": median, "p90_ns": median, "min_ns": median,
          "samples": len(samples), "median_se_ns": 0, "tolerance": {"relative": 0.03, "absolute_ns": 64},
          "l2": "warm", "launches_per_sample": 1, "warmup_launches": 2, "dropped_samples": 0, "sm_clock_mhz": 1980}
exact = {"kind": "exact"}
candidate = {
    "schema_version": 4, "suite": "SquareTile", "gpu": {"arch": "sm_90", "model": "nvidia-h200"},
    "provenance": {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0",
                   "multiprocessor_count": 132, "driver_version": 13000, "driver_release": "580.159.04",
                   "cuda_runtime_version": 13000, "cupti_version": 130000, "git_commit": commit,
                   "git_dirty": False, "command": "fake suite",
                   "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")},
    "tests": {"setRowReadRow": {
        "kernel": "setRowReadRow", "correct": True,
        "counters": {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": {"value": loads,
                                                                                         "tolerance": exact},
                     "smsp__sass_inst_executed_op_shared_ld.sum": {"value": 32, "tolerance": exact}},
        "timing": timing, "samples_ns": samples,
        "lines": [{"file": "square.cu", "line": 12, "kind": "shared_load", "opcode": "LDS", "executions": 32,
                   "wavefronts": loads, "ideal_wavefronts": 32, "sectors": 0, "ideal_sectors": 0}]}}}
folder = pathlib.Path(json.load(open(os.environ["BANKGATE_RUN_MANIFEST"]))["candidate_dir"])
(folder / "sm_90" / "nvidia-h200" / "SquareTile").mkdir(parents=True, exist_ok=True)
(folder / "sm_90" / "nvidia-h200" / "SquareTile" / "setRowReadRow.json").write_text(json.dumps(candidate))
if records is None:
    sys.exit(0)
outcome = "passed" if loads == 32 else "regressed"
records.mkdir(parents=True, exist_ok=True)
(records / "fake_suite.0.plan.json").write_text(json.dumps(
    {"filter": "", "problem": "", "program": "fake_suite", "schema": "bankgate-test-plan", "schema_version": 1,
     "shard": 0, "tests": ["SquareTile.setRowReadRow"]}))
(records / "SquareTile.setRowReadRow.result.json").write_text(json.dumps(
    {"schema": "bankgate-test-result", "schema_version": 1, "suite": "SquareTile", "test": "setRowReadRow",
     "outcome": outcome, "seconds": 0.1, "messages": [], "properties": {}, "wrong_output": False, "findings": []}))
sys.exit(0 if outcome == "passed" else 1)
