"""The table of bench/start-up-contention.sh: median wall, user and system ms of each start-up phase, per case."""

import json
import pathlib
import statistics
import sys


def phases(run):
    """(phase name, {wall_ms, user_ms, sys_ms}) of one bench process, in order."""
    if run["mode"] == "contexts":
        yield "driver", run["driver"]
        for ctx in run["contexts"]:
            yield f"context (device {ctx['device']}, own thread)", ctx
        yield "all contexts", run["all_contexts"]
    else:
        yield "driver", run["driver"]
        yield "collector", run["collector"]
        for name, ms in run["collector_phases_ms"].items():
            yield f"  collector: {name}", {"wall_ms": ms}
        for step in ("first_launch", "first_counters", "second_counters", "first_timing", "second_timing"):
            yield step.replace("_", " "), run[step]
    yield "process total", {"wall_ms": run["total_wall_ms"]}


def cell(values):
    return f"{statistics.median(values):.0f}" if values else ""


def main(out):
    out = pathlib.Path(out)
    rows = {}  # (variant, case) -> phase -> kind -> values
    for line in (out / "runs.jsonl").read_text().splitlines():
        record = json.loads(line)
        table = rows.setdefault((record["variant"], record["case"]), {})
        for name, figures in phases(record["run"]):
            for kind, value in figures.items():
                if kind.endswith("_ms"):
                    table.setdefault(name, {}).setdefault(kind, []).append(value)
    print("Median ms over every process of a case (two per round where two run at once): wall / user CPU / system CPU.\n")
    for variant in sorted({v for v, _ in rows}):
        print(f"## {variant}\n")
        print("| case | phase | wall | user | system |")
        print("| --- | --- | --- | --- | --- |")
        for (v, case), table in sorted(rows.items()):
            if v != variant:
                continue
            for name, kinds in table.items():
                print(f"| {case} | {name} | {cell(kinds.get('wall_ms', []))} | {cell(kinds.get('user_ms', []))} "
                      f"| {cell(kinds.get('sys_ms', []))} |")
        print()
    for strace in sorted(out.glob("strace-*.txt")):
        print(f"## {strace.stem}: system calls by wall time (strace -f -w -c)\n")
        print("```")
        print("\n".join(strace.read_text().splitlines()[:14]))
        print("```\n")


if __name__ == "__main__":
    main(sys.argv[1])
