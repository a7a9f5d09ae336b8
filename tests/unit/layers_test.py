#!/usr/bin/env python3
"""bankgate's layers, checked on the #include lines of its sources (no build needed, standard library only).

    layers_test.py [REPO] [--command PATH/TO/bankgate --build BUILD_DIR [--make-program PATH/TO/ninja]]

The layers, lowest first: core < collector < gate < gtest < cli, the history store on gate (only the command
includes it), and the catalogue's kernels beside them on core. Each may include its own files and those of the
layers ALLOWED names, nothing else: nothing includes a layer above it, the gate and the command never include
the collector (so they build and link without CUDA), the command never includes the GoogleTest layer. Foreign headers likewise: CUPTI and NVTX in the collector
only, the CUDA runtime only where code runs on a GPU, GoogleTest only in its layer, CLI11 only in the command.
Inside the collector, only its own implementation includes its façade (collector.hpp).

Inside the gate, five units in a folder each (gate/include/bankgate/gate/<unit>/, gate/src/<unit>/), lowest first:
text < rules < store < protocol < reports. A unit includes its own files and those of the units below it only:
the rules a verdict follows read no file, the store knows no process, the protocol renders nothing.

No include cycles: a header and the sources of the same name in one layer (report.hpp, report.cpp) are one
unit, and no chain of includes between units leads back to where it started. (A cycle of units is what
makes two parts impossible to understand, test or move apart, even where no single file includes itself.)

With --command and --build, the built `bankgate` command must link no CUDA, CUPTI or NVIDIA library and not
the collector (its link line, from the build folder: Ninja or Makefiles), and need none at run time (the ELF
file's needed libraries; the linker drops unused ones there, so only the link line shows a stray dependency).

A self-test on small made-up trees runs first, so that a checker that finds nothing cannot pass unnoticed.
Prints each problem and exits 1 when there is any.
"""

import os
import re
import struct
import subprocess
import sys
import tempfile

# Layer -> (its folder, the layers it may include besides itself).
ALLOWED = {
    "core": ("core", set()),
    "collector": ("cupti_collector", {"core"}),
    "gate": ("gate", {"core"}),
    "gtest": ("gtest", {"core", "collector", "gate"}),
    "history": ("history", {"core", "gate"}),
    "cli": ("cli", {"core", "gate", "history"}),
    "kernels": ("kernels", {"core"}),
}

# Where <bankgate/...> headers are found.
INCLUDE_DIRS = ["core/include", "cupti_collector/include", "gate/include", "gtest/include", "history/include",
                "kernels/include"]

# The gate's units, lowest first (gate/CMakeLists.txt says what each holds).
GATE_UNITS = ["text", "rules", "store", "protocol", "reports"]
GATE_UNIT_FOLDERS = ("gate/include/bankgate/gate/", "gate/src/")

# Foreign headers: which layers may include them.
FOREIGN = [
    (re.compile(r"^(cupti|nvperf|generated_nvtx|nvtx3/|nvml\.h)"), {"collector"}, "CUPTI, NVTX or NVML"),
    (re.compile(r"^(cuda|driver_types|vector_types|crt/)"), {"collector", "gtest", "kernels"}, "the CUDA toolkit"),
    (re.compile(r"^(gtest|gmock)/"), {"gtest"}, "GoogleTest"),
    (re.compile(r"^CLI/"), {"cli"}, "CLI11"),
    (re.compile(r"^(sqlite3\.h|libpq-fe\.h)"), {"history"}, "SQLite or libpq"),
]

# A public header that, inside its layer, only its own implementation includes: the parts it is made of take
# what they need from the headers it includes (users of the layer include it freely).
FACADES = {"cupti_collector/include/bankgate/collector.hpp": {"cupti_collector/src/collector.cpp"}}

SOURCE_SUFFIXES = (".hpp", ".h", ".cpp", ".cc", ".cuh", ".cu")
INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# Libraries the command must not need: the CUDA runtime and driver, CUPTI, NVTX, NVML, the profiler's.
CUDA_LIBRARY = re.compile(r"^lib(cuda|cudart|cupti|nvperf|nvToolsExt|nvidia-ml|nvrtc)")
# The same, and the collector, as they appear on a link line (paths to the libraries, or -l options).
CUDA_ON_LINK_LINE = re.compile(r"\blib(cuda|cudart|cupti|nvperf|nvToolsExt|nvidia-ml|nvrtc)[._-]"
                               r"|\s-l(cuda|cudart|cupti|nvperf_host|nvperf_target|nvToolsExt|nvidia-ml)\b"
                               r"|bankgate-collector")


def layer_of(relative):
    for layer, (folder, _) in ALLOWED.items():
        if relative.startswith(folder + "/"):
            return layer
    return None


def unit_of(relative):
    """A header and the sources of the same name in one layer are one unit: ("gate", "report")."""
    return layer_of(relative), os.path.splitext(os.path.basename(relative))[0]


def gate_unit_of(relative):
    """The gate unit a file of the gate layer belongs to; "" for one in no unit folder, None outside the gate."""
    for folder in GATE_UNIT_FOLDERS:
        if relative.startswith(folder):
            first = relative[len(folder):].split("/")[0]
            return first if first in GATE_UNITS else ""
    return None


def gate_unit_problems(relative, where, target):
    """A file of the gate including one of a unit above its own, or a gate file in no unit folder."""
    unit, aim = gate_unit_of(relative), gate_unit_of(target)
    if unit is None or aim is None or not unit or not aim:
        return []
    if GATE_UNITS.index(aim) > GATE_UNITS.index(unit):
        below = ", ".join(GATE_UNITS[:GATE_UNITS.index(unit)]) or "none"
        return [f"{where}: the gate's {unit} unit includes {target} of its {aim} unit ({unit} may include only "
                f"itself and the units below it: {below})"]
    return []


def project_files(root):
    files = []
    for folder, _ in ALLOWED.values():
        for directory, subdirs, names in os.walk(os.path.join(root, folder)):
            subdirs.sort()
            files += [os.path.relpath(os.path.join(directory, n), root)
                      for n in sorted(names) if n.endswith(SOURCE_SUFFIXES)]
    return files


def resolve(root, including, style, name):
    """The project file an include names (relative to root), None for a foreign header; a problem for a
    <bankgate/...> header no layer has or two layers have."""
    if style == '"':
        beside = os.path.normpath(os.path.join(os.path.dirname(including), name))
        if os.path.isfile(os.path.join(root, beside)):
            return beside, None
    found = [os.path.join(d, name) for d in INCLUDE_DIRS if os.path.isfile(os.path.join(root, d, name))]
    if len(found) > 1:
        return None, f"{including}: <{name}> is in more than one layer: {', '.join(found)}"
    if found:
        return found[0], None
    if style == '"' or name.startswith("bankgate/"):
        return None, f"{including}: includes {name}, which is no file of bankgate's layers"
    return None, None


def read_includes(root, relative):
    with open(os.path.join(root, relative), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE_LINE.match(line)
            if match:
                yield number, match.group(1), match.group(2)


def cycles(edges):
    """Strongly connected components of more than one unit (Tarjan), each as a list of units."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]

    def visit(unit):
        index[unit] = low[unit] = counter[0]
        counter[0] += 1
        stack.append(unit)
        on_stack.add(unit)
        for target in sorted(edges.get(unit, ())):
            if target not in index:
                visit(target)
                low[unit] = min(low[unit], low[target])
            elif target in on_stack:
                low[unit] = min(low[unit], index[target])
        if low[unit] == index[unit]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == unit:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for unit in sorted(edges):
        if unit not in index:
            visit(unit)
    return found


def cycle_path(edges, component):
    """One closed chain of units inside `component`, starting from its first unit."""
    inside = set(component)
    start = component[0]
    path, seen = [start], {start}
    while True:
        following = sorted(t for t in edges[path[-1]] if t in inside)
        if start in following and len(path) > 1:
            return path + [start]
        step = next((t for t in following if t not in seen), None)
        if step is None:  # every neighbour seen: close the loop at the first one on the path
            target = next(t for t in following if t in path)
            return path[path.index(target):] + [target]
        path.append(step)
        seen.add(step)


def check(root):
    problems = []
    edges = {}     # unit -> units it includes
    examples = {}  # (unit, unit) -> "file:line includes file"
    for relative in project_files(root):
        layer = layer_of(relative)
        if gate_unit_of(relative) == "" and relative.endswith(SOURCE_SUFFIXES):
            problems.append(f"{relative}: a file of the gate in no unit folder (one of {', '.join(GATE_UNITS)})")
        for number, style, name in read_includes(root, relative):
            where = f"{relative}:{number}"
            target, problem = resolve(root, relative, style, name)
            if problem:
                problems.append(problem.replace(relative, where, 1))
                continue
            if target is None:
                for pattern, layers, what in FOREIGN:
                    if pattern.match(name) and layer not in layers:
                        problems.append(f"{where}: the {layer} layer includes <{name}> "
                                        f"({what}: only {', '.join(sorted(layers))})")
                continue
            target_layer = layer_of(target)
            if target_layer != layer and target_layer not in ALLOWED[layer][1]:
                allowed = ", ".join(sorted(ALLOWED[layer][1])) or "nothing"
                problems.append(f"{where}: the {layer} layer includes {target} of the {target_layer} layer "
                                f"({layer} may include only itself and {allowed})")
            problems += gate_unit_problems(relative, where, target)
            if target in FACADES and target_layer == layer and relative not in FACADES[target]:
                problems.append(f"{where}: includes the façade {target}, which inside its layer only "
                                f"{', '.join(sorted(FACADES[target]))} includes; include the header it is made of instead")
            source, aim = unit_of(relative), unit_of(target)
            if source != aim:
                edges.setdefault(source, set()).add(aim)
                edges.setdefault(aim, set())
                examples.setdefault((source, aim), f"{where} includes {target}")
    for component in cycles(edges):
        path = cycle_path(edges, component)
        chain = "; ".join(examples[(a, b)] for a, b in zip(path, path[1:]))
        names = " -> ".join(f"{layer}:{stem}" for layer, stem in path)
        problems.append(f"include cycle {names}: {chain}")
    return problems


def needed_libraries(path):
    """The DT_NEEDED entries of a 64-bit little-endian ELF file, or None for any other file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segments = [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize) for i in range(phnum)]
    loads = [s for s in segments if s[0] == 1]  # PT_LOAD: (type, flags, offset, vaddr, paddr, filesz, memsz, align)
    dynamic = next((s for s in segments if s[0] == 2), None)  # PT_DYNAMIC
    if dynamic is None:
        return []  # linked statically: needs no library at all

    def file_offset(address):
        for s in loads:
            if s[3] <= address < s[3] + s[5]:
                return s[2] + address - s[3]
        raise ValueError(f"address {address:#x} lies in no loaded segment")

    entries = [struct.unpack_from("<qQ", data, dynamic[2] + i) for i in range(0, dynamic[5], 16)]
    strtab = file_offset(next(value for tag, value in entries if tag == 5))  # DT_STRTAB
    names = []
    for tag, value in entries:
        if tag == 0:  # DT_NULL
            break
        if tag == 1:  # DT_NEEDED
            end = data.index(b"\0", strtab + value)
            names.append(data[strtab + value:end].decode())
    return names


def link_line(build, make_program):
    """The command's link line in a build folder of the Makefile or Ninja generator, or None for others."""
    link_txt = os.path.join(build, "cli", "CMakeFiles", "bankgate.dir", "link.txt")
    if os.path.isfile(link_txt):
        with open(link_txt, encoding="utf-8") as f:
            return f.read().strip()
    if os.path.isfile(os.path.join(build, "build.ninja")):
        # Every command that builds the target, in order: the last one links it.
        run = subprocess.run([make_program or "ninja", "-C", build, "-t", "commands", "bankgate"],
                             capture_output=True, text=True, check=True)
        lines = [line for line in run.stdout.splitlines() if line.strip()]
        return lines[-1] if lines else ""
    return None


def check_command(path, build, make_program):
    problems = []
    line = link_line(build, make_program)
    if line is None:
        print(f"note: {build} is neither a Ninja nor a Makefile build folder; the link line was not checked")
    else:
        stray = sorted({m.group(0).strip().rstrip('._-') for m in CUDA_ON_LINK_LINE.finditer(line)})
        if stray:
            problems.append(f"the command links {', '.join(stray)}; it must link bankgate::gate and bankgate::core "
                            f"only, never the collector or CUDA. Its link line: {line}")
    needed = needed_libraries(path)
    if needed is None:
        problems.append(f"{path}: not a 64-bit little-endian ELF file; cannot read which libraries it needs")
    elif any(CUDA_LIBRARY.match(n) for n in needed):
        cuda = [n for n in needed if CUDA_LIBRARY.match(n)]
        problems.append(f"{path}: the command needs {', '.join(cuda)} at run time (needs: {', '.join(needed)})")
    return problems


def self_test():
    """The checker finds what it is for, and nothing in a tree that is clean."""
    clean = {
        "core/include/bankgate/results.hpp": "#pragma once\n#include <string>\n",
        "core/src/results.cpp": "#include <bankgate/results.hpp>\n",
        "cupti_collector/include/bankgate/collector.hpp": "#include <bankgate/results.hpp>\n",
        "cupti_collector/src/collector.cpp":
            "#include <bankgate/collector.hpp>\n#include <cupti.h>\n#include \"timer.hpp\"\n",
        "cupti_collector/src/timer.hpp": "#include <bankgate/results.hpp>\n",
        "gate/include/bankgate/gate/reports/report.hpp": "#include <bankgate/gate/rules/comparison.hpp>\n",
        "gate/src/reports/report.cpp": "#include <bankgate/gate/reports/report.hpp>\n",
        "gate/include/bankgate/gate/rules/comparison.hpp": "#include <bankgate/results.hpp>\n",
        "gate/src/rules/comparison.cpp": "#include <bankgate/gate/rules/comparison.hpp>\n",
        "gate/include/bankgate/gate/reports/colour.hpp": "#include <string>\n",
        "gtest/include/bankgate/gtest/fixture.hpp": "#include <bankgate/collector.hpp>\n#include <gtest/gtest.h>\n",
        "cli/main.cpp": "#include <bankgate/gate/reports/report.hpp>\n#include <CLI/CLI.hpp>\n",
    }
    broken = [  # (file, its text, words the problem found must hold)
        ("gate/src/rules/comparison.cpp", "#include <bankgate/gate/rules/comparison.hpp>\n#include <bankgate/gate/reports/report.hpp>\n",
         "include cycle gate:comparison -> gate:report -> gate:comparison"),
        ("gate/src/reports/report.cpp", "#include <bankgate/gate/reports/report.hpp>\n#include <bankgate/collector.hpp>\n",
         "the gate layer includes cupti_collector/include/bankgate/collector.hpp"),
        ("gate/src/reports/report.cpp", "#include <bankgate/gtest/fixture.hpp>\n", "the gate layer includes gtest/"),
        ("cli/main.cpp", "#include <bankgate/gtest/fixture.hpp>\n", "the cli layer includes gtest/"),
        ("core/src/results.cpp", "#include <bankgate/results.hpp>\n#include <bankgate/gate/reports/report.hpp>\n",
         "the core layer includes gate/include/bankgate/gate/reports/report.hpp"),
        ("cupti_collector/src/timer.hpp", "#include <bankgate/collector.hpp>\n", "includes the façade"),
        ("gate/include/bankgate/gate/rules/comparison.hpp", "#include <cuda_runtime_api.h>\n", "the CUDA toolkit"),
        ("gate/src/reports/report.cpp", "#include <bankgate/gate/reports/report.hpp>\n#include <sqlite3.h>\n",
         "SQLite or libpq"),
        ("cli/main.cpp", "#include <bankgate/gate/missing.hpp>\n", "no file of bankgate's layers"),
        ("gate/src/rules/comparison.cpp", "#include <bankgate/gate/reports/colour.hpp>\n",
         "the gate's rules unit includes gate/include/bankgate/gate/reports/colour.hpp of its reports unit"),
        ("gate/include/bankgate/gate/loose.hpp", "#pragma once\n", "a file of the gate in no unit folder"),
    ]
    failures = []
    with tempfile.TemporaryDirectory(prefix="bankgate-layers-") as scratch:
        def problems_of(files, name):
            root = os.path.join(scratch, name)
            for relative, text in files.items():
                os.makedirs(os.path.join(root, os.path.dirname(relative)), exist_ok=True)
                with open(os.path.join(root, relative), "w", encoding="utf-8") as f:
                    f.write(text)
            return check(root)

        found = problems_of(clean, "clean")
        if found:
            failures.append(f"a clean tree has problems: {found}")
        for number, (relative, text, expected) in enumerate(broken):
            found = problems_of({**clean, relative: text}, f"broken-{number}")
            if not any(expected in p for p in found):
                failures.append(f"{relative} changed: expected a problem with '{expected}', got {found}")
    return failures


def main(argv):
    args = list(argv[1:])
    options = {}
    for name in ("--command", "--build", "--make-program"):
        if name in args:
            at = args.index(name)
            options[name] = args[at + 1]
            del args[at:at + 2]
    command = options.get("--command")
    if command and "--build" not in options:
        print("--command needs --build BUILD_DIR (where its link line is read)")
        return 64
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))

    failures = self_test()
    for f in failures:
        print(f"SELF-TEST FAILED: {f}")
    problems = check(root)
    if command:
        problems += check_command(command, options["--build"], options.get("--make-program"))
    for p in problems:
        print(p)
    checked = len(project_files(root))
    print(f"{checked} files of {len(ALLOWED)} layers checked{' and the command' if command else ''}: "
          f"{len(problems)} problem(s)")
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
