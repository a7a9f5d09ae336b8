#!/usr/bin/env python3
"""Every repository path that the README, the docs and the code's comments name must exist: a comment or a doc
that points at a file which was moved or never written sends the reader nowhere.

    tests/unit/doc_paths_test.py [REPOSITORY]

Looks at words that start with one of the repository's top folders (gate/src/<file>.cpp, cmake/<file>.cmake,
...) in Markdown files and in the comments of source, CMake and script files; words with
placeholders (<arch>, *, $VAR, {a,b}) are patterns, and build outputs (.a, .so, .o) live in a build folder: both
are left out. A word may also name a public header by its include path (gate/protocol/settings.hpp for
<bankgate/gate/protocol/settings.hpp>). Measured results (the RESULTS-*.md files of bench/) are tables, not prose. Prints
"N passed, M failed".
"""
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
folders = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "build")))
path_word = re.compile(r"(?<![\w./$-])((?:%s)/[\w./+-]*[\w/])" % "|".join(map(re.escape, folders)))
comment_of = {  # where a comment starts, by file kind; Markdown is all prose
    ".cpp": r"//", ".hpp": r"//", ".cu": r"//", ".cuh": r"//", ".h": r"//",
    ".sh": r"#", ".py": r"#", ".cmake": r"#", ".txt": r"#", ".in": r"#", ".yml": r"#",
}


def prose(path):
    text = path.read_text(errors="replace")
    if path.suffix == ".md":
        return text.splitlines()
    marker = comment_of.get(path.suffix) or ("#" if path.name == "CMakeLists.txt" else None)
    if marker is None:
        return []
    # A '#' comment starts a line or follows a space and is followed by one ("#include" in a string is code).
    start = re.compile(r"(?:^|\s)#(?:\s|$)" if marker == "#" else re.escape(marker))
    lines = []
    for line in text.splitlines():
        found = start.search(line)
        if found:
            lines.append(line[found.end():])
    if path.suffix == ".py":  # docstrings are prose too
        lines += [m for block in re.findall(r'"""(.*?)"""', text, re.S) for m in block.splitlines()]
    return lines


include_roots = [p for p in root.glob("*/include/bankgate") if p.is_dir()]


def exists(word):
    word = word.rstrip(".")
    return (root / word).exists() or any((include / word).exists() for include in include_roots)


tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout.split()
missing = []
checked = 0
for name in tracked:
    path = root / name
    if "fixtures" in path.parts or not path.is_file() or path.name.startswith("RESULTS"):
        continue
    for number, line in enumerate(prose(path), 1):
        for word in path_word.findall(line):
            if any(c in line[line.find(word):line.find(word) + len(word) + 1] for c in "<*{$") or word.endswith((".a", ".so", ".o")):
                continue
            checked += 1
            if not exists(word):
                missing.append(f"{name}: names {word}, which does not exist")
for problem in sorted(set(missing)):
    print("FAIL -", problem)
print(f"{checked - len(missing)} passed, {len(missing)} failed")
sys.exit(1 if missing else 0)
