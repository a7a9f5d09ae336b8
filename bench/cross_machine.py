#!/usr/bin/env python3
"""The committed-baseline gate across machines, judged without a GPU from one recording per machine.

Each RUNNER folder is what `bankgate record` left on one machine of one GPU model (candidates with their
samples; tools/gpu-round.sh record=1 keeps them). For every way of choosing the baseline's machines:
  single  the baseline promoted from one machine (the default tolerance, 3% + 64 ns), every other machine
          judged against it: both directions of every pair
  merged  the baseline merged from two machines (`bankgate promote --runner`: the tolerance widened by the
          runners' spread), every machine outside the pair judged against it
the duration verdicts are counted; on unchanged code every SLOWER (and faster) is a false alarm. A per-test
table follows: each machine's median, the spread between machines, and the smallest slowdown the committed
baseline's tolerance lets fail on that test.

  bench/cross_machine.py --bankgate BIN --gpu sm_90/nvidia-h200 --baselines baselines RUNNER...
"""
import argparse
import collections
import itertools
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))  # bankgate_command, bankgate_outputs
from bankgate_outputs import read_review, timed_tests  # noqa: E402



def bankgate(binary, *args):
    done = subprocess.run([binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"cross_machine: bankgate {' '.join(args[:1])} exited {done.returncode}: {done.stderr.strip()}")


def promoted(binary, gpu, runners, into):
    extra = [arg for r in runners[1:] for arg in ("--runner", str(r))]
    bankgate(binary, "promote", "--candidates", str(runners[0]), *extra, "--baselines", str(into), "--gpu", gpu,
             "--new-gpu", "--force")


def verdicts(binary, gpu, runner, baselines, work):
    out = work / "review.json"
    bankgate(binary, "review", "--candidates", str(runner), "--baselines", str(baselines), "--gpu", gpu, "--json", str(out))
    rows = read_review(out)["rows"]
    counters_changed = sum(1 for r in rows if not r["timing"] and r["verdict"] != "pass")
    timed = [r for r in rows if r["timing"]]
    return collections.Counter(r["verdict"] for r in timed), counters_changed, timed


def judge_all(binary, gpu, runners, size, work):
    """Baselines from every `size` machines, each other machine judged: (trials, verdicts, counter changes, alarms)."""
    total = collections.Counter()
    counters = trials = 0
    alarms = []
    for chosen in itertools.combinations(runners, size):
        baselines = work / ("b-" + "-".join(r.name for r in chosen))
        promoted(binary, gpu, list(chosen), baselines)
        for other in runners:
            if other in chosen:
                continue
            counts, changed, timed = verdicts(binary, gpu, other, baselines, work)
            total.update(counts)
            counters += changed
            trials += 1
            alarms += [f"{'+'.join(r.name for r in chosen)} -> {other.name}: {t['suite']}.{t['test']} {t['verdict']} "
                       f"{t['baseline']:.0f} -> {t['measured']:.0f} ns" for t in timed if t["verdict"] in ("slower", "faster")]
    return trials, total, counters, alarms


def medians(runner, gpu):
    return {name: t["median_ns"] for _, name, t in timed_tests((runner / gpu).glob("*/*.json"))}


def committed_tolerances(baselines, gpu):
    return {name: (t["median_ns"], t["tolerance"]["relative"], t["tolerance"]["absolute_ns"])
            for _, name, t in timed_tests((baselines / gpu).glob("*.json"))}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bankgate", required=True)
    parser.add_argument("--gpu", required=True, help="ARCH/MODEL, e.g. sm_90/nvidia-h200")
    parser.add_argument("--baselines", type=pathlib.Path, help="the committed baselines, for the per-test table")
    parser.add_argument("runners", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    if len(args.runners) < 3:
        sys.exit("cross_machine: give three machines' recordings or more")
    alarms_in_all = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, size in (("single", 1), ("merged", 2)):
            trials, total, counters, alarms = judge_all(args.bankgate, args.gpu, args.runners, size, pathlib.Path(tmp))
            alarms_in_all += len(alarms)
            print(f"{label}: {trials} gates of one machine against baselines from {size} other(s): duration verdicts "
                  f"{dict(sorted(total.items()))}; counter changes {counters}")
            for alarm in alarms:
                print(f"  {alarm}")
    if args.baselines:
        by_runner = {r.name: medians(r, args.gpu) for r in args.runners}
        tolerances = committed_tolerances(args.baselines, args.gpu)
        print(f"\n| test | {' | '.join(by_runner)} | spread | committed tolerance | fails from |")
        print(f"|---|{'---|' * len(by_runner)}---|---|---|")
        for test, (median, relative, absolute) in sorted(tolerances.items()):
            values = [m[test] for m in by_runner.values() if test in m]
            spread = max(values) - min(values)
            print(f"| {test} | {' | '.join(f'{v:.0f}' for v in values)} | {spread:.0f} ns ({100 * spread / min(values):.1f}%) "
                  f"| {100 * relative:.0f}% + {absolute:.0f} ns | +{100 * (relative + absolute / median):.1f}% |")
    return 1 if alarms_in_all else 0


if __name__ == "__main__":
    sys.exit(main())
