"""The processes of one command, from `strace -f -tt -e trace=execve,exit_group -o FILE`: each program a process
ran, when it started and how long it ran, in milliseconds from the command's start. For the command's own cost
outside its suite processes (tools/gpu-round.sh overhead).

    python3 tools/process_timeline.py FILE
"""
import re
import sys
from datetime import datetime

LINE = re.compile(r"^(\d+)\s+(\d\d:\d\d:\d\d\.\d+)\s+(.*)$")
EXEC = re.compile(r'execve\("[^"]*", \[(.*?)\]')
EXIT = re.compile(r"\+\+\+ exited with (\d+)")


def seconds(stamp):
    return (datetime.strptime(stamp, "%H:%M:%S.%f") - datetime(1900, 1, 1)).total_seconds()


def main(path):
    runs = {}  # pid -> [start, end, argv, exit]
    order = []
    first = None
    for line in open(path, errors="replace"):
        m = LINE.match(line)
        if not m:
            continue
        pid, t, rest = m.group(1), seconds(m.group(2)), m.group(3)
        first = t if first is None else first
        e = EXEC.search(rest)
        if e and "= -1" not in rest:
            argv = re.findall(r'"((?:[^"\\]|\\.)*)"', e.group(1))
            runs[pid] = [t, None, argv, None]
            order.append(pid)
        x = EXIT.search(rest)
        if x and pid in runs:
            runs[pid][1], runs[pid][3] = t, x.group(1)
    print(f"{'start ms':>9} {'ran ms':>8}  exit  program")
    for pid in order:
        start, end, argv, code = runs[pid]
        ran = f"{1000 * (end - start):8.1f}" if end is not None else "       ?"
        words = [a if len(a) < 60 else a[:57] + "..." for a in argv[:6]]
        print(f"{1000 * (start - first):9.1f} {ran}  {code or '?':>4}  {' '.join(words)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
