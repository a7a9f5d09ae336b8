#!/usr/bin/env python3
"""Compares the collector's counters (candidate files) with ncu's CSV for the same tests.

In launch-only mode each test launches its kernel once, in the order --gtest_list_tests prints, so the
i-th kernel ncu profiled in a binary belongs to the i-th test listed; the kernel names are checked too.
Usage: ncu_compare.py CANDIDATE_DIR NCU_DIR   (NCU_DIR holds <suite>.csv and <suite>.tests per binary)
"""
import csv
import io
import json
import pathlib
import sys


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


def base_name(kernel):
    """ncu may print namespaces or a parameter list; results use the bare function name."""
    name = kernel.replace("(anonymous namespace)::", "").split("(")[0]
    return name.split("::")[-1].split(" ")[-1]


def candidate(candidates, suite, test):
    found = list(candidates.glob(f"*/*/{suite}/{test}.json"))
    if not found:
        return None
    return json.loads(found[0].read_text())["tests"][test]


def main():
    candidates, ncu_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    table, mismatches = [], 0
    for tests_file in sorted(ncu_dir.glob("*.tests")):
        tests = listed_tests(tests_file)
        rows = ncu_rows(tests_file.with_suffix(".csv"))
        if len(rows) != len(tests):
            print(f"{tests_file.stem}: ncu profiled {len(rows)} kernels for {len(tests)} tests")
            mismatches += 1
        for (suite, test), row in zip(tests, rows):
            record = candidate(candidates, suite, test)
            if record is None:
                print(f"{suite}.{test}: no collector candidate (did the test run?)")
                mismatches += 1
                continue
            if base_name(row["Kernel Name"]) != record["kernel"].split("<")[0] and base_name(row["Kernel Name"]) != record["kernel"]:
                print(f"{suite}.{test}: ncu kernel {row['Kernel Name']} != collector kernel {record['kernel']}")
                mismatches += 1
            for metric, entry in sorted(record["counters"].items()):
                ours = float(entry["value"])
                theirs = float(row[metric].replace(",", ""))
                tolerance = entry["tolerance"]
                if ours == theirs:
                    verdict = "equal"
                elif tolerance["kind"] == "relative" and abs(ours - theirs) <= tolerance["amount"] * ours:
                    verdict = "within tolerance (multi-block contention)"
                elif tolerance["kind"] == "absolute" and abs(ours - theirs) <= tolerance["amount"]:
                    verdict = "within tolerance (multi-block contention)"
                else:
                    verdict = "DIFFERENT"
                mismatches += verdict == "DIFFERENT"
                table.append((f"{suite}.{test}", metric, f"{ours:g}", f"{theirs:g}", verdict))
    header = ("test", "metric", "collector", "ncu", "verdict")
    widths = [max(len(str(r[i])) for r in table + [header]) for i in range(5)]
    for r in [header] + table:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    kernels = len({r[0] for r in table})
    exact = sum(r[4] == "equal" for r in table)
    print(f"\nncu cross-check: {len(table)} counters of {kernels} kernels compared: {exact} equal, "
          f"{len(table) - exact - mismatches} within their written tolerance, {mismatches} different")
    return 1 if mismatches or not table else 0


if __name__ == "__main__":
    sys.exit(main())
