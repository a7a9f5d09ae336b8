#!/usr/bin/env python3
"""A/A compares drawn from pools of rounds (tools/gpu-round.sh pool=R), judged without a GPU.

Each pool is one long same-runner compare of a build against itself: R base rounds and R head rounds,
each round's base and head run back to back. An A/A compare takes ROUNDS of those rounds, their base runs as
one side and their head runs as the other, as `bankgate compare` interleaves its sides; it is judged by
`bankgate compare` on the candidate folders. The rounds are drawn by a seeded shuffle: the compares of one
shuffle share no run (independent), later shuffles draw again from the same pool. Every verdict other than
ok is counted: SLOWER and faster are false alarms, INCONCLUSIVE is the rule declining to decide.

  bench/aa_pool.py --bankgate build/cli/bankgate --pairs 100 POOL_RECORDS_DIR...
(POOL_RECORDS_DIR holds pool-base/round-N and pool-head/round-N, as tools/gpu-round.sh pool=R leaves them.)
"""
import argparse
import collections
import itertools
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))  # bankgate_command, bankgate_outputs
from bankgate_command import protocol  # noqa: E402
from bankgate_outputs import duration_findings, read_compare  # noqa: E402


def round_dirs(side):
    rounds = sorted(side.glob("round-*"), key=lambda p: int(p.name.split("-")[1]))
    if not rounds:
        sys.exit(f"aa_pool: no round-N folders in {side}")
    return rounds


def compares_of(pool, size, wanted):
    """Up to `wanted` A/A compares of `size` interleaved rounds: [(label, base rounds, head rounds)]."""
    base, head = round_dirs(pool / "pool-base"), round_dirs(pool / "pool-head")
    indices = list(range(min(len(base), len(head))))
    compares = []
    for shuffle in itertools.count():
        if len(compares) >= wanted or len(indices) < size:
            return compares[:wanted]
        random.Random(shuffle).shuffle(indices)
        for i in range(len(indices) // size):
            chosen = sorted(indices[i * size:(i + 1) * size])
            label = f"shuffle {shuffle}, rounds {' '.join(str(r + 1) for r in chosen)}"
            compares.append((label, [base[r] for r in chosen], [head[r] for r in chosen]))


def lay_out(rounds, into):
    for i, source in enumerate(rounds, start=1):
        shutil.copytree(source, into / f"round-{i}")


def judge(bankgate, compare, work):
    label, base, head = compare
    sides = []
    for name, rounds in (("base", base), ("head", head)):
        folder = work / name
        shutil.rmtree(folder, ignore_errors=True)
        lay_out(rounds, folder)
        sides.append(folder)
    result = work / "result.json"
    codes = protocol(explicit=bankgate)["exit_codes"]
    done = subprocess.run([bankgate, "compare", "--base", str(sides[0]), "--head", str(sides[1]), "--json", str(result)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (codes["ok"], codes["regression"], codes["inconclusive"]):
        sys.exit(f"aa_pool: bankgate compare exited {done.returncode}: {done.stderr.strip()}")
    return done.returncode, read_compare(result)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bankgate", required=True)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side of one compare (default 5)")
    parser.add_argument("--pairs", type=int, default=100, help="compares in all, shared alike among the pools")
    parser.add_argument("pools", nargs="+", type=pathlib.Path)
    args = parser.parse_args()

    share = -(-args.pairs // len(args.pools))
    chosen = [(pool, c) for pool in args.pools for c in compares_of(pool, args.rounds, share)][:args.pairs]

    exits = collections.Counter()
    alarms_seen = []
    verdicts = collections.Counter()
    by_test = collections.defaultdict(collections.Counter)
    with tempfile.TemporaryDirectory() as tmp:
        for pool, compare in chosen:
            code, result = judge(args.bankgate, compare, pathlib.Path(tmp))
            exits[code] += 1
            for test, finding in duration_findings(result):
                verdicts[finding["verdict"]] += 1
                by_test[test][finding["verdict"]] += 1
                if finding["verdict"] in ("slower", "faster"):
                    alarms_seen.append(f"{pool}: {compare[0]}: {test} {finding['verdict']} {finding['detail']}")
    alarms = verdicts["slower"] + verdicts["faster"]
    print(f"{len(chosen)} A/A compares of {args.rounds}+{args.rounds} rounds from {len(args.pools)} pool(s): "
          f"{sum(verdicts.values())} duration verdicts: {dict(sorted(verdicts.items()))}; "
          f"false alarms {alarms}; compare exit codes {dict(sorted(exits.items()))}")
    for alarm in alarms_seen:
        print(f"  false alarm: {alarm}")
    for test, counts in sorted(by_test.items()):
        if set(counts) != {"pass"}:
            print(f"  {test:40} {dict(sorted(counts.items()))}")
    return 1 if alarms else 0


if __name__ == "__main__":
    sys.exit(main())
