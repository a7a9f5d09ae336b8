#!/usr/bin/env python3
"""Counts the shared-memory instructions of each kernel in `cuobjdump -sass` output.

The counters give transactions per request, but not which instructions made the requests: ptxas may fuse
four 32-bit shared loads into one LDS.128 (TiledMatmul's load figure of 1.2 rather than 1), and
__pipeline_memcpy_async becomes LDGSTS, whose shared side the profiler may not book as a shared store
(AsyncCopy's store figure of 0). This report shows the machine code's side of those figures.

Usage: sass_report.py [--kernel REGEX] [--lines] [SASS_FILE]   (reads standard input without SASS_FILE)

Counts are static: instructions in the code, each loop body once. Columns by opcode and access width:
LDS / STS are 32 bits or narrower (.U8, .S16, ...), .64 and .128 the wider forms; LDGSTS likewise by the
bytes each thread copies; LDSM is ldmatrix; "other" lists remaining shared-memory opcodes (STSM, ATOMS).
Shared-memory instructions predicated on @!PT never move data (ptxas places them beside LDGSTS sequences) and
are not counted in the opcode columns; the "@!PT" column counts them, because they are still issued: the
hardware request counter smsp__inst_executed_op_shared_{ld,st} counts them (AsyncCopy's 3 per warp make its
load figure 8W/11 there), the SASS-instrumented one the gate reads does not (W).
"""
import argparse
import re
import shutil
import subprocess
import sys

import bankgate_command  # beside this file: the rules (here, kernel names) are the command's

COLUMNS = ("LDS", "LDS.64", "LDS.128", "STS", "STS.64", "STS.128", "LDSM", "LDGSTS", "LDGSTS.64", "LDGSTS.128")
WIDE = ("LDS", "STS", "LDGSTS")  # opcodes whose columns split by width

FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
ARCH = re.compile(r"\bcode for (sm_\w+)")
# "/*0320*/   @!P0 LDGSTS.E.BYPASS.128 [R24], desc[UR4][R16.64] ;"
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-fA-F]+\*/\s+(?:(@!?U?P(?:T|\d+))\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")
NEVER = ("@!PT", "@!UPT")


def column_of(opcode):
    """The report column of a shared-memory opcode, or None for an instruction that is not one."""
    parts = opcode.split(".")
    base = parts[0]
    if base in WIDE:
        width = "128" if "128" in parts[1:] else "64" if "64" in parts[1:] else ""
        return base + ("." + width if width else "")
    if base == "LDSM":
        return "LDSM"
    if base in ("STSM", "ATOMS"):
        return "other"
    return None


class Kernel:
    def __init__(self, mangled, arch):
        self.mangled, self.arch, self.name = mangled, arch, mangled
        self.counts = {column: 0 for column in COLUMNS}
        self.other = {}
        self.lines = []
        self.never_executed = 0


def parse(text):
    """Kernels in the order cuobjdump lists them, with their shared-memory instruction counts."""
    kernels, arch, current = [], "", None
    for line in text.splitlines():
        found = ARCH.search(line)
        if found:
            arch, current = found.group(1), None
            continue
        found = FUNCTION.match(line)
        if found:
            current = Kernel(found.group(1), arch)
            kernels.append(current)
            continue
        found = INSTRUCTION.match(line)
        if not found or current is None:
            continue
        predicate, opcode = found.groups()
        column = column_of(opcode)
        if column is None:
            continue
        if predicate in NEVER:
            current.never_executed += 1
            continue
        if column == "other":
            current.other[opcode] = current.other.get(opcode, 0) + 1
        else:
            current.counts[column] += 1
        current.lines.append(line.split(";")[0].strip() + " ;")
    return kernels


def demangle(kernels, tool=None):
    """Names kernels by their bare function name, through c++filt or cu++filt where one is installed."""
    tool = tool or shutil.which("c++filt") or shutil.which("cu++filt")
    if not tool or not kernels:
        return
    result = subprocess.run([tool], input="\n".join(k.mangled for k in kernels) + "\n", capture_output=True,
                            text=True, check=False)
    names = result.stdout.splitlines()
    if result.returncode != 0 or len(names) != len(kernels):
        return
    bare = bankgate_command.bare_names(names)
    for kernel, name in zip(kernels, names):
        kernel.name = bare[name]


def natural_key(text):
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def render(kernels, show_lines=False):
    kernels = sorted(kernels, key=lambda k: (natural_key(k.name), k.arch))
    header = ("kernel", "arch") + COLUMNS + ("@!PT", "other")
    rows = []
    for k in kernels:
        other = " ".join(f"{op}x{n}" for op, n in sorted(k.other.items()))
        rows.append((k.name, k.arch) + tuple(str(k.counts[c]) for c in COLUMNS) + (str(k.never_executed), other))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [header] + rows]
    skipped = sum(k.never_executed for k in kernels)
    out.append("")
    out.append(f"{len(kernels)} kernels; static counts (a loop body counts once); LDS/STS: 32-bit or narrower"
               + (f"; {skipped} never-executed @!PT instructions (issued, so counted as requests) in the @!PT column"
                  if skipped else ""))
    if show_lines:
        for k in kernels:
            if k.lines:
                out.append("")
                out.append(f"{k.name} ({k.arch}, {k.mangled}):")
                out.extend("  " + line for line in k.lines)
    return "\n".join(out) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description="Shared-memory instructions per kernel in cuobjdump -sass output.")
    parser.add_argument("sass", nargs="?", help="cuobjdump -sass output (default: standard input)")
    parser.add_argument("--kernel", help="only kernels whose name matches this regular expression")
    parser.add_argument("--lines", action="store_true", help="also list each kernel's shared-memory instructions")
    parser.add_argument("--no-demangle", action="store_true", help="keep the mangled names")
    args = parser.parse_args(argv)
    if args.sass and args.sass != "-":
        with open(args.sass, encoding="utf-8", errors="replace") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    kernels = parse(text)
    if not kernels:
        print("sass-report: no kernel (no 'Function :' line) in the SASS given; is it cuobjdump -sass output of a "
              "build with device code?", file=sys.stderr)
        return 2
    if not args.no_demangle:
        demangle(kernels)
    if args.kernel:
        pattern = re.compile(args.kernel)
        kernels = [k for k in kernels if pattern.search(k.name) or pattern.search(k.mangled)]
        if not kernels:
            print(f"sass-report: no kernel matches '{args.kernel}'", file=sys.stderr)
            return 2
    sys.stdout.write(render(kernels, args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
