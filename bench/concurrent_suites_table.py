#!/usr/bin/env python3
"""The table of bench/concurrent-suites.sh: per kind of run, the median over rounds of each part of a suite
process's wall time, and the speed-up of one process per GPU over one process for all.
Usage: concurrent_suites_table.py RUNS_DIR [REPEAT]. With REPEAT > 1 GoogleTest's report holds the last repetition only, so only wall times are shown."""
import collections
import json
import pathlib
import re
import statistics
import sys

PHASES = ["prepare_ms", "output_check_ms", "counter_host_ms", "timing_host_ms", "gate_rules_ms"]


def test_records(report):
    for suite in report.get("testsuites", []):
        for test in suite.get("testsuite", []):
            yield test


def one_run(json_file):
    started, ended, status = open(json_file.with_suffix(".wall")).read().split()
    started, ended = float(started), float(ended)
    tests = list(test_records(json.load(open(json_file))))
    parts = collections.Counter()
    for t in tests:
        for phase in PHASES:
            parts[phase] += float(t.get(phase, 0.0)) / 1000
        parts["set-up of the first test (driver, collector)"] += (
            float(t.get("device_probe_ms", 0.0)) + float(t.get("collector_setup_ms", 0.0))) / 1000
        parts["tests' time (GoogleTest)"] += float(t["time"].rstrip("s"))
    # GoogleTest's timestamps have whole seconds: what lies outside the tests is the wall time less theirs.
    parts["outside the tests (process start and exit)"] = ended - started - parts["tests' time (GoogleTest)"]
    parts["wall"] = ended - started
    measured = sum(1 for t in tests if "timing_host_ms" in t)
    return measured, int(status), parts


def main():
    runs = collections.defaultdict(list)
    for json_file in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
        kind = re.sub(r"-\d+$", "", json_file.stem)
        runs[kind].append(one_run(json_file))
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    def per_gpu(prefix):
        return sorted((k for k in runs if k.startswith(prefix + "-")), key=lambda k: int(k.split("-")[1]))
    together, shared = per_gpu("together"), per_gpu("shared")
    kinds = [k for k in ["alone-all", "alone-part0"] if k in runs] + together + shared
    rows = ["wall"]
    if repeat == 1:
        rows += ["outside the tests (process start and exit)", "tests' time (GoogleTest)",
                 "set-up of the first test (driver, collector)"] + PHASES
    rounds = len(runs[kinds[0]])
    print(f"Median seconds per suite process over {rounds} rounds, each process running its tests {repeat} time(s); "
          "exit statuses: " + ", ".join(f"{k} {sorted({s for _, s, _ in runs[k]})}" for k in kinds))
    print()
    print("| part | " + " | ".join(f"{k} ({runs[k][0][0]} tests measured)" for k in kinds) + " |")
    print("| --- |" + " --- |" * len(kinds))
    for row in rows:
        print(f"| {row} | " + " | ".join(f"{statistics.median(p[row] for _, _, p in runs[k]):.3f}" for k in kinds) + " |")
    for label, group in (("each a fixed share", together), ("sharing the tests out as they go", shared)):
        if "alone-all" not in runs or not group:
            continue
        speedups = [alone[2]["wall"] / max(runs[k][i][2]["wall"] for k in group)
                    for i, alone in enumerate(runs["alone-all"])]
        print()
        print(f"{len(group)} GPUs, {label}, against one GPU, round by round (all tests in one process against the "
              f"slowest of the {len(group)} at once): median {statistics.median(speedups):.2f} x, "
              f"min {min(speedups):.2f}, max {max(speedups):.2f} (linear: {len(group)}x)")

if __name__ == "__main__":
    main()
