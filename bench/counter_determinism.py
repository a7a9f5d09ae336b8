#!/usr/bin/env python3
"""Counters of repeated recordings, side by side: for every test, whether each counter read the same in every
run, and its figures. Reads the candidate JSON files `bankgate record` leaves, one folder per run:
    bench/counter_determinism.py RUN_DIR...      (each RUN_DIR: a candidates folder, <arch>/<model>/<Suite>/<test>.json)
Exit 0 when every counter of every test is identical in every run, 1 otherwise, 2 on unreadable input."""
import json
import pathlib
import sys


def load_run(folder):
    counters = {}
    for path in sorted(pathlib.Path(folder).rglob("*.json")):
        try:
            document = json.loads(path.read_text())
        except (OSError, ValueError) as error:
            sys.exit(f"counter_determinism: {path}: {error}")
        for test, record in document.get("tests", {}).items():
            # A case that launched several kernels: each kernel's figures apart.
            for kernel in record.get("kernels", [record]):
                name = f"{document['suite']}.{test}" + (f" ({kernel['kernel']})" if "kernels" in record else "")
                counters[name] = {metric: entry["value"] for metric, entry in kernel.get("counters", {}).items()}
                # Every per-line figure counts too, not only how many lines there are.
                counters[name]["lines"] = json.dumps(kernel.get("lines", []), sort_keys=True)
                counters[name]["line count"] = len(kernel.get("lines", []))
    return counters


def main(folders):
    if len(folders) < 2:
        sys.exit("usage: counter_determinism.py RUN_DIR RUN_DIR [RUN_DIR...]")
    runs = [load_run(folder) for folder in folders]
    tests = sorted(set().union(*runs))
    differing = 0
    print(f"{'test':44} {'runs':>4} {'ld wavefronts':>14} {'st wavefronts':>14} {'gld sectors':>12} {'gst sectors':>12} "
          f"{'instructions':>12} {'lines':>5}  identical")
    for test in tests:
        seen = [run[test] for run in runs if test in run]
        metrics = sorted(set().union(*seen))
        same = len(seen) == len(runs) and all(s == seen[0] for s in seen)
        differing += not same
        first = seen[0]
        def value(key):
            return next((v for m, v in first.items() if key in m), "-")
        print(f"{test:44} {len(seen):>4} {value('wavefronts_mem_shared_op_ld'):>14} {value('wavefronts_mem_shared_op_st'):>14} "
              f"{value('sectors_pipe_lsu_mem_global_op_ld'):>12} {value('sectors_pipe_lsu_mem_global_op_st'):>12} "
              f"{value('sass_inst_executed.sum'):>12} {first.get('line count', 0):>5}  "
              f"{'yes' if same else 'NO: ' + ', '.join(m for m in metrics if len({str(s.get(m)) for s in seen}) > 1)}")
    print(f"{len(tests)} tests in {len(runs)} runs: {len(tests) - differing} identical, {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
