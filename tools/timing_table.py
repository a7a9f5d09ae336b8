#!/usr/bin/env python3
"""What the committed baselines' timing gate can catch, test by test: docs/timing.md's table.

For each GPU model under BASELINES: each test's median, its tolerance (relative + absolute) and the smallest
slowdown that fails against it, relative + absolute / median. Written between the markers of FILE, or checked:

  tools/timing_table.py --baselines baselines --write docs/timing.md
  tools/timing_table.py --baselines baselines --check docs/timing.md   (exit 1 and the command to run if stale)
"""
import argparse
import pathlib
import sys

from bankgate_outputs import timed_tests

BEGIN, END = "<!-- bankgate:timing-table:begin -->", "<!-- bankgate:timing-table:end -->"


def rows(baselines):
    models = {}
    for suite, name, t in timed_tests(baselines.glob("sm_*/*/*.json")):
        tol = t["tolerance"]
        merged = "merged from" in tol.get("reason", "")
        models.setdefault(f"{suite['gpu']['arch']}/{suite['gpu']['model']}", []).append(
            (name, t["median_ns"], tol["relative"], tol["absolute_ns"], merged))
    return models


def table(baselines):
    out = []
    for gpu, entries in sorted(rows(baselines).items()):
        out += [f"#### {gpu}", "", "| test | median | tolerance | fails from | runners' spread in it |", "|---|---|---|---|---|"]
        for name, median, relative, absolute, merged in entries:
            med = f"{median / 1000:.2f} µs" if median >= 1000 else f"{median:.0f} ns"
            out.append(f"| {name} | {med} | {100 * relative:.0f}% + {absolute:.0f} ns | +{100 * (relative + absolute / median):.1f}% "
                       f"| {'yes' if merged else 'no'} |")
        out.append("")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baselines", type=pathlib.Path, required=True)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=pathlib.Path)
    group.add_argument("--check", type=pathlib.Path)
    args = parser.parse_args()
    path = args.write or args.check
    text = path.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"{path}: the markers {BEGIN} and {END} are missing")
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    wanted = f"{before}{BEGIN}\n{table(args.baselines)}{END}{after}"
    if args.write:
        path.write_text(wanted)
        return 0
    if wanted != text:
        print(f"{path}: the timing table differs from the baselines in {args.baselines}; regenerate it:\n"
              f"  python3 tools/timing_table.py --baselines {args.baselines} --write {path}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
