#!/usr/bin/env python3
"""Compares the collector's counters (candidate files) with ncu's CSV for the same tests.

In launch-only mode each test launches its kernel once, in the order --gtest_list_tests prints, so the
i-th kernel ncu profiled in a binary belongs to the i-th test listed; the kernel names are checked too.
Usage: ncu_compare.py CANDIDATE_DIR NCU_DIR [BANKGATE_COMMAND]   (NCU_DIR holds <suite>.csv and <suite>.tests
per binary). A value outside ncu's own spread is judged by the gate's rule through the bankgate command's JSON.

Where ncu ran a binary several times (BANKGATE_NCU_REPEATS in tools/ncu-crosscheck.sh), the further runs are
<suite>.run2.csv, <suite>.run3.csv, ...; ncu's own run-to-run spread (min and max) is then shown per counter,
and a collector value inside that spread agrees with ncu as much as ncu agrees with itself. Multi-block
kernels need this: L1 contention moves their wavefront counts from run to run, under ncu as under the
collector, so a single ncu run can lie outside the gate's tolerance of the collector's single run.
"""
import csv
import io
import json
import pathlib
import subprocess
import sys
import tempfile

import bankgate_command  # beside this file: the rules are the command's
from bankgate_outputs import read_review


def listed_tests(path):
    suite, tests = None, []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.strip().rstrip(".")
        else:
            tests.append((suite, line.strip().split()[0]))
    return tests


def ncu_rows(path):
    text = path.read_text()
    start = text.find('"ID"')
    if start < 0:
        sys.exit(f"{path}: no ncu CSV table found (see the .ncu.log beside it)")
    rows = list(csv.reader(io.StringIO(text[start:])))
    header, data = rows[0], [r for r in rows[1:] if r and r[0].isdigit()]
    return [dict(zip(header, r)) for r in data]


def ncu_runs(ncu_dir, stem):
    """The CSV of every ncu run of one binary, in run order: <stem>.csv, then <stem>.run2.csv, ..."""
    extra = []
    for path in ncu_dir.glob(f"{stem}.run*.csv"):
        number = path.name[len(stem) + len(".run"):-len(".csv")]
        if number.isdigit():
            extra.append((int(number), path))
    return [ncu_dir / f"{stem}.csv"] + [path for _, path in sorted(extra)]


def spread_verdict(ours, theirs):
    """Where the collector's value lies against ncu's values for one counter (one per ncu run); None when
    outside ncu's own run-to-run spread, for the gate's rule to judge."""
    low, high = min(theirs), max(theirs)
    if ours == low == high:
        return "equal"
    if low <= ours <= high:
        return "within ncu's run-to-run spread"
    return None


def nearest(ours, theirs):
    return min(theirs) if ours < min(theirs) else max(theirs)


def judge_with_the_gate(command, candidates, nearest_values, work):
    """The gate's own rule (`bankgate review`, the counter's written tolerance against a baseline) with ncu's
    nearest run as the baseline: a folder of baseline files made from the collector's candidates with ncu's
    counter values put in. Returns {(suite, test, kernel label, metric): verdict} from the command's JSON."""
    suites = {}
    for path in sorted(candidates.glob("*/*/*/*.json")):
        arch, model, suite = path.parts[-4:-1]
        document = json.loads(path.read_text())
        document.pop("baselines", None)
        for test, record in document["tests"].items():
            for label, kernel in kernel_records(record):
                kernel.pop("timing", None)
                kernel.pop("samples_ns", None)
                kernel.pop("derived", None)  # the collector's ratios: with ncu's counters put in, they are not theirs
                for metric, entry in kernel["counters"].items():
                    # ncu reports counts as decimals ("70439.0"); a baseline holds them as whole numbers.
                    value = nearest_values.get((suite, test, label, metric), entry["value"])
                    entry["value"] = int(value) if float(value).is_integer() else value
        merged = suites.setdefault((arch, model, suite), document)
        merged["tests"].update(document["tests"])
    for (arch, model, suite), document in suites.items():
        target = work / "ncu-baselines" / arch / model / f"{suite}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    result = work / "review.json"
    subprocess.run([command, "review", "--candidates", str(candidates), "--baselines", str(work / "ncu-baselines"),
                    "--json", str(result)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if not result.exists():
        sys.exit(f"{command} review wrote no JSON verdicts ({result})")
    rows = read_review(result)["rows"]
    return {(r["suite"], r["test"], r.get("kernel", ""), r["metric"]): r["verdict"] for r in rows}


# Launch figures of ours that Nsight Compute gives another way, or not at all.
OCCUPANCY_LIMITS = ("launch__occupancy_limit_blocks", "launch__occupancy_limit_registers",
                    "launch__occupancy_limit_shared_mem", "launch__occupancy_limit_warps")
NOT_IN_NCU = {"launch__local_memory_per_thread"}  # the driver's figure; ncu has no metric for it


def ncu_value(row, metric):
    """ncu's value of one of our counters in one row, or None where ncu does not report it."""
    if metric == "launch__resident_blocks_per_sm":
        if not all(limit in row for limit in OCCUPANCY_LIMITS):
            return None
        return min(float(row[limit].replace(",", "")) for limit in OCCUPANCY_LIMITS)
    if metric not in row:
        return None
    return float(row[metric].replace(",", ""))


def candidate(candidates, suite, test):
    found = list(candidates.glob(f"*/*/{suite}/{test}.json"))
    if not found:
        return None
    return json.loads(found[0].read_text())["tests"][test]


def kernel_records(record):
    """A candidate test's kernels in launch order, each with the label the command's findings give it: "" for a test
    of one kernel, the function's name (with " (launch N)" for a repeat) for each of a case that launched several."""
    if "kernels" not in record:
        return [("", record)]
    launches, labelled = {}, []
    for kernel in record["kernels"]:
        launches[kernel["kernel"]] = launches.get(kernel["kernel"], 0) + 1
        n = launches[kernel["kernel"]]
        labelled.append((kernel["kernel"] if n == 1 else f"{kernel['kernel']} (launch {n})", kernel))
    return labelled


def counted(n, noun):
    """ "1 test", "2 tests". """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def launched_kernels(candidates, tests):
    """(suite, test, label, kernel record) for every kernel the listed tests launch, in launch order (one row of ncu's
    each), and the problems met: a test without a candidate is taken as one kernel."""
    kernels, problems = [], 0
    for suite, test in tests:
        record = candidate(candidates, suite, test)
        if record is None:
            print(f"{suite}.{test}: no collector candidate (did the test run?)")
            problems += 1
            kernels.append((suite, test, "", None))
            continue
        kernels += [(suite, test, label, kernel) for label, kernel in kernel_records(record)]
    return kernels, problems


def compare_kernel(suite, test, label, record, rows, names, multiple_runs):
    """One kernel's counters against ncu's rows for it: (table rows, counters beyond ncu's spread with ncu's nearest
    value, exact counters that moved between ncu runs, problems)."""
    table, outside, unstable_exact, problems = [], {}, [], 0
    name = f"{suite}.{test}" + (f" ({label})" if label else "")
    for row in rows:
        if names[row["Kernel Name"]] not in (record["kernel"].split("<")[0], record["kernel"]):
            print(f"{name}: ncu kernel {row['Kernel Name']} != collector kernel {record['kernel']}")
            return table, outside, unstable_exact, problems + 1
    for metric, entry in sorted(record["counters"].items()):
        ours = float(entry["value"])
        if metric in NOT_IN_NCU:
            continue
        theirs = [ncu_value(row, metric) for row in rows]
        if any(value is None for value in theirs):
            print(f"{name}: ncu reported no {metric}")
            problems += 1
            continue
        line = [name, metric, f"{ours:g}", f"{theirs[0]:g}"]
        if multiple_runs:
            spread = (max(theirs) - min(theirs)) / min(theirs) if min(theirs) else 0.0
            line += [f"{min(theirs):g}", f"{max(theirs):g}", f"{spread:.2%}"]
            if entry["tolerance"]["kind"] == "exact" and min(theirs) != max(theirs):
                unstable_exact.append(f"{name} {metric}")
        where = spread_verdict(ours, theirs)
        if where is None:
            outside[(suite, test, label, metric)] = nearest(ours, theirs)
        table.append(tuple(line + [where or (suite, test, label, metric)]))
    return table, outside, unstable_exact, problems


def main():
    candidates, ncu_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    command = bankgate_command.command(sys.argv[3] if len(sys.argv) > 3 else None)
    table, problems, repeated, unstable_exact, outside = [], 0, False, [], {}
    names = {}  # ncu's kernel names as results name them, asked of the command once per binary
    for tests_file in sorted(ncu_dir.glob("*.tests")):
        tests = listed_tests(tests_file)
        runs = [ncu_rows(path) for path in ncu_runs(ncu_dir, tests_file.stem)]
        names.update(bankgate_command.bare_names([row["Kernel Name"] for rows in runs for row in rows], command))
        repeated = repeated or len(runs) > 1
        kernels, missing = launched_kernels(candidates, tests)
        problems += missing
        for number, rows in enumerate(runs, 1):
            if len(rows) != len(kernels):
                run = f" (run {number} of {len(runs)})" if len(runs) > 1 else ""
                launched = "" if len(kernels) == len(tests) else f" ({counted(len(kernels), 'kernel')})"
                print(f"{tests_file.stem}: ncu profiled {counted(len(rows), 'kernel')} for "
                      f"{counted(len(tests), 'test')}{launched}{run}")
                problems += 1
        for index, (suite, test, label, record) in enumerate(kernels):
            rows = [rows[index] for rows in runs if index < len(rows)]
            if not rows or record is None:
                continue
            rows_of, outside_of, unstable_of, problems_of = compare_kernel(suite, test, label, record, rows, names, len(runs) > 1)
            table += rows_of
            outside.update(outside_of)
            unstable_exact += unstable_of
            problems += problems_of
    if outside:
        with tempfile.TemporaryDirectory() as work:
            verdicts = judge_with_the_gate(command, candidates, outside, pathlib.Path(work))
        judged = {key: ("within tolerance (multi-block contention)" if verdicts.get(key) == "pass" else "DIFFERENT")
                  for key in outside}
        table = [r[:-1] + (judged[r[-1]],) if isinstance(r[-1], tuple) else r for r in table]
    header = ("test", "metric", "collector", "ncu", "verdict")
    if repeated:
        header = ("test", "metric", "collector", "ncu (run 1)", "ncu min", "ncu max", "ncu spread", "verdict")
        table = [r if len(r) == len(header) else r[:4] + ("", "", "") + r[4:] for r in table]
    widths = [max(len(str(r[i])) for r in table + [header]) for i in range(len(header))]
    for r in [header] + table:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    kernels = len({r[0] for r in table})
    exact = sum(r[-1] == "equal" for r in table)
    spread = sum(r[-1] == "within ncu's run-to-run spread" for r in table)
    tolerated = sum(r[-1].startswith("within tolerance") for r in table)
    different = sum(r[-1] == "DIFFERENT" for r in table)
    in_spread = f"{spread} within ncu's own run-to-run spread, " if repeated else ""
    print(f"\nncu cross-check: {len(table)} counters of {kernels} kernels compared: {exact} equal, {in_spread}"
          f"{tolerated} within their written tolerance, {different + problems} different")
    if unstable_exact:
        # The gate compares these exactly; a counter ncu itself does not reproduce would make it flaky.
        print("counters gated exactly that changed between ncu runs:\n  " + "\n  ".join(unstable_exact))
    return 1 if different or problems or not table else 0


if __name__ == "__main__":
    sys.exit(main())
