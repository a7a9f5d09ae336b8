#!/usr/bin/env python3
"""The gates part of bench/gate-speed.sh as markdown: wall times on one GPU and on all, each suite's measuring
run, the per-process start-up and per-test phases the tests recorded, and the verdicts of every gate.

    gate_speed_table.py GATES_FOLDER GPUS

GATES_FOLDER holds walls.txt ("one|all I EXIT SECONDS" per gate) and, per gate, the command's summary.json
(KIND-I.json) and ctest's JUnit report (KIND-I.xml); the gates' console logs are ../logs/gate-KIND-I.log.
The measuring tests' names are the command's (BANKGATE_COMMAND, else `bankgate` on PATH)."""

import collections
import pathlib
import re
import statistics
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
import bankgate_command  # noqa: E402  (lives in tools/: the scripts' way to ask the command)
from bankgate_outputs import read_summary  # noqa: E402


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def spread(values, unit, digits=1):
    if not values:
        return "none"
    return (f"median {statistics.median(values):.{digits}f} {unit}, min {min(values):.{digits}f}, "
            f"max {max(values):.{digits}f}")


def measuring_runs(xml_path, prefix):
    """{measuring run: seconds} of the measuring tests (named `prefix`<suite>), from ctest's JUnit report."""
    if not xml_path.exists():
        return {}
    root = ET.parse(xml_path).getroot()
    return {case.get("name")[len(prefix):]: float(case.get("time", "nan"))
            for case in root.iter("testcase") if case.get("name", "").startswith(prefix)}


def ctest_seconds(log_path):
    """ctest's "Total Test time (real)" in the gate's log (its JUnit report rounds the total to whole seconds)."""
    found = re.search(r"Total Test time \(real\) =\s*([0-9.]+) sec", log_path.read_text()) if log_path.exists() else None
    return float(found.group(1)) if found else None


def main(folder, gpus):
    folder = pathlib.Path(folder)
    prefix = bankgate_command.protocol()["measure_test_prefix"]
    walls = collections.defaultdict(dict)
    codes = collections.defaultdict(set)
    for line in (folder / "walls.txt").read_text().split("\n"):
        if line.strip():
            kind, i, code, seconds = line.split()
            walls[kind][int(i)] = float(seconds)
            codes[kind].add(code)

    print("## The catalogue gate's wall time\n")
    print("`bankgate gate --no-build` of unchanged code against the committed baselines; wall time of the command, "
          f"ctest's part of it, and the sum of the suites' measuring runs ({prefix}*, one process per suite, or per shard).\n")
    print("| GPUs | gates | exit codes | tests per gate | wall time | ctest | sum of measuring runs |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    per_suite = collections.defaultdict(lambda: collections.defaultdict(list))
    tests_per_gate = {}
    for kind, label in (("one", "1"), ("all", str(gpus))):
        if not walls[kind]:
            continue
        ctest_times, sums = [], []
        for i in walls[kind]:
            runs = measuring_runs(folder / f"{kind}-{i}.xml", prefix)
            ctest_time = ctest_seconds(folder.parent / "logs" / f"gate-{kind}-{i}.log")
            for suite, seconds in runs.items():
                per_suite[suite][kind].append(seconds)
            if ctest_time is not None:
                ctest_times.append(ctest_time)
            sums.append(sum(runs.values()))
            summary = folder / f"{kind}-{i}.json"
            if summary.exists():
                tests_per_gate[kind] = len(read_summary(summary)["tests"])
        print(f"| {label} | {len(walls[kind])} | {', '.join(sorted(codes[kind]))} | {tests_per_gate.get(kind, '?')} | "
              f"{spread(list(walls[kind].values()), 's', 2)} | {spread(ctest_times, 's', 2)} | {spread(sums, 's', 2)} |")
    paired = [walls["one"][i] / walls["all"][i] for i in walls["all"] if i in walls["one"] and walls["all"][i] > 0]
    if paired:
        print(f"\nSpeed-up on {gpus} GPUs, gate by gate against the one-GPU gate just before it: "
              f"{spread(paired, 'x', 2)} (linear: {gpus}x).")

    print("\n### Each suite's measuring run (median seconds over the gates)\n")
    header = "| measuring run | 1 GPU |" + (f" {gpus} GPUs |" if walls["all"] else "")
    print(header + "\n" + "| --- " * (header.count("|") - 1) + "|")
    tests_of = collections.Counter()
    first = folder / "one-1.json"
    if first.exists():
        for t in read_summary(first)["tests"]:
            tests_of[t["suite"]] += 1
    for suite in sorted(per_suite):
        row = f"| {suite} | {statistics.median(per_suite[suite]['one']):.2f} |"
        if walls["all"]:
            row += f" {statistics.median(per_suite[suite]['all']):.2f} |" if per_suite[suite]["all"] else " |"
        print(row)
    print(f"\nTests per GoogleTest suite: {', '.join(f'{s} {n}' for s, n in sorted(tests_of.items()))}.")

    print("\n## Per process and per test (the tests' own records, every one-GPU gate)\n")
    props = collections.defaultdict(list)
    verdicts = collections.Counter()
    outcomes = collections.Counter()
    timed = 0
    for kind in ("one", "all"):
        for i in walls[kind]:
            summary = folder / f"{kind}-{i}.json"
            if not summary.exists():
                outcomes["no summary"] += 1
                continue
            for t in read_summary(summary)["tests"]:
                outcomes[t["outcome"]] += 1
                timed += "median_ns" in t.get("properties", {})
                for change in t.get("changes", []):
                    verdicts[change.get("verdict", "?")] += 1
                if kind != "one":
                    continue
                p = t.get("properties", {})
                for name in ("device_probe_ms", "collector_setup_ms", "counter_host_ms", "timing_host_ms", "prepare_ms",
                             "output_check_ms", "gate_rules_ms"):
                    if name in p:
                        props[name].append(float(p[name]))
                if "collector_setup_ms" in p and "counter_host_ms" in p:
                    props["first_counters_ms"].append(float(p["counter_host_ms"]))
                elif "counter_host_ms" in p:
                    props["later_counters_ms"].append(float(p["counter_host_ms"]))
    rows = [("CUDA driver initialisation and device probe, once per suite process", "device_probe_ms"),
            ("collector set-up, once per suite process", "collector_setup_ms"),
            ("counters of the first test of a process (first profiled kernel)", "first_counters_ms"),
            ("counters of every other test", "later_counters_ms"),
            ("timing phase per test", "timing_host_ms"),
            ("the test's own preparation (inputs, buffers, CPU reference) per test", "prepare_ms"),
            ("output check (one launch, compared with the reference) per test", "output_check_ms"),
            ("candidate, baseline comparison and report per test", "gate_rules_ms")]
    print("| host time | n | median ms | p90 ms | max ms |\n| --- | --- | --- | --- | --- |")
    for label, key in rows:
        v = props[key]
        if v:
            print(f"| {label} | {len(v)} | {statistics.median(v):.1f} | {quantile(v, 0.9):.1f} | {max(v):.1f} |")

    # The set-up of each suite process by phase, one GPU against all at once: what grows when processes start
    # together on several GPUs.
    phases = {kind: collections.defaultdict(list) for kind in ("one", "all")}
    for kind in phases:
        for i in walls[kind]:
            summary = folder / f"{kind}-{i}.json"
            tests = read_summary(summary)["tests"] if summary.exists() else []
            for t in tests:
                if "device_probe_ms" in t.get("properties", {}):
                    phases[kind]["device probe (before the collector)"].append(float(t["properties"]["device_probe_ms"]))
                for name, value in phase_values(t, "collector_setup_phases_ms"):
                    phases[kind][name].append(value)
    if phases["one"]:
        print("\nStart-up by phase, median ms per suite process (1 GPU" + (f"; {gpus} GPUs at once" if phases["all"] else "") + "):\n")
        print("| phase | 1 GPU |" + (f" {gpus} GPUs |" if phases["all"] else "") + "\n| --- | --- |" + (" --- |" if phases["all"] else ""))
        for name in phases["one"]:
            row = f"| {name} | {statistics.median(phases['one'][name]):.1f} |"
            if phases["all"].get(name):
                row += f" {statistics.median(phases['all'][name]):.1f} |"
            print(row)

    print_phase_sums(folder, walls["one"])

    all_gates = len(walls["one"]) + len(walls["all"])
    print(f"\n## Verdicts of all {all_gates} gates\n")
    print(f"Test outcomes: {', '.join(f'{k} {n}' for k, n in sorted(outcomes.items()))}. "
          f"Timed tests: {timed}; timing false alarms (SLOWER): **{verdicts['slower']}**; faster: {verdicts['faster']}; "
          f"counter changes: **{verdicts['counter_changed']}**"
          + (f"; other findings: {', '.join(f'{k} {n}' for k, n in sorted(verdicts.items()) if k not in ('SLOWER', 'faster', 'CHANGED'))}"
             if set(verdicts) - {"SLOWER", "faster", "CHANGED"} else "") + ".")


def phase_values(test, key):
    """The (name, milliseconds) pairs of a test's phases property: "probe 0.1, context 70.2, ..."."""
    parts = (part.split() for part in test.get("properties", {}).get(key, "").split(",") if part.strip())
    return [(name, float(value)) for name, value in parts]


def print_phase_sums(folder, gates):
    """The timing and counter phases of every test of a one-GPU gate, summed over the gate (median over gates)."""
    sums = {"timing_phases_ms": [], "counter_phases_ms": []}
    for i in gates:
        summary = folder / f"one-{i}.json"
        if not summary.exists():
            continue
        for key in sums:
            total = collections.Counter()
            for t in read_summary(summary)["tests"]:
                for name, value in phase_values(t, key):
                    total[name] += value
            if total:
                sums[key].append(total)
    for key, title in (("timing_phases_ms", "The timing phase by part"), ("counter_phases_ms", "Counters by part")):
        if not sums[key]:
            continue
        names = list(sums[key][0])
        print(f"\n{title}, summed over a gate's tests (median over the gates; calls: of the callable):\n")
        print("| part | per gate |\n| --- | --- |")
        for name in names:
            value = statistics.median(total[name] for total in sums[key])
            print(f"| {name} | {value:.0f} |" if name == "calls" else f"| {name} | {value:.1f} ms |")
        if key == "timing_phases_ms":
            calls = statistics.median(total["calls"] for total in sums[key])
            launch = statistics.median(total["launch"] for total in sums[key])
            if calls:
                print(f"\nHost time of a call of the callable while timed: {1000 * launch / calls:.2f} us.")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))
