#!/usr/bin/env python3
"""Every git ref that the README, the docs and the examples pin bankgate to (`GIT_TAG ...` of FetchContent or
ExternalProject) must be a commit an adopter can fetch: only branch main is published, tags are not, so a pin
is a full 40-digit commit hash that lies on the history of this checkout (main, or a branch made from it).
A pin of a tag, a branch or a short hash, or of a commit git does not know here or that is on no history of
HEAD, fails the test with the page and line.

    tests/unit/doc_refs_test.py [REPOSITORY]

Reads the tracked Markdown pages, CMake files and CI templates. A pin written as a placeholder
(`${BANKGATE_GIT_TAG}`, `<commit>`) is left out. Exits 77 (Skipped, with the reason) where REPOSITORY is no
git checkout of its own (a source tarball) or a shallow clone that lacks a pinned commit. A self-test on a
small made-up repository runs first, so that a checker that finds nothing cannot pass unnoticed.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

PIN = re.compile(r"\bGIT_TAG\s+\"?([^\s\")]+)")
PLACEHOLDER = re.compile(r"[<>{}$]")
FULL_HASH = re.compile(r"[0-9a-f]{40}")
SKIPPED = 77


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)


def pinned_files(root):
    listed = git(root, "ls-files").stdout.splitlines()
    return [name for name in listed
            if name.endswith((".md", ".cmake", ".yml", ".yaml")) or pathlib.PurePath(name).name == "CMakeLists.txt"]


def pins(root):
    """(file, line number, ref) for every literal pin."""
    for name in pinned_files(root):
        if name == "tests/unit/doc_refs_test.py":
            continue
        text = (root / name).read_text(errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for ref in PIN.findall(line):
                if not PLACEHOLDER.search(ref):
                    yield name, number, ref


def problem(root, ref):
    """Why `ref` is no pin an adopter can fetch, or None; "missing" where a shallow clone may lack it."""
    if not FULL_HASH.fullmatch(ref):
        return (f"pins '{ref}', which is not a full commit hash: tags are not published, so pin a commit of main by "
                f"its 40 digits (git rev-parse main)")
    if git(root, "cat-file", "-e", f"{ref}^{{commit}}").returncode != 0:
        return "missing"
    if git(root, "merge-base", "--is-ancestor", ref, "HEAD").returncode != 0:
        return f"pins {ref}, a commit that is not on the history of HEAD (only main is published)"
    return None


def check(root):
    """(problems as 'file:line: ...', commits this checkout lacks)."""
    problems, missing = [], []
    for name, number, ref in pins(root):
        found = problem(root, ref)
        if found == "missing":
            missing.append(f"{name}:{number}: {ref}")
        elif found:
            problems.append(f"{name}:{number}: {found}")
    return problems, missing


def self_test():
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        env = ["-c", "user.name=test", "-c", "user.email=test@example.com"]
        git(root, "init", "-q", "-b", "main")
        (root / "README.md").write_text("first\n")
        git(root, "add", "-A")
        git(root, *env, "commit", "-qm", "first")
        first = git(root, "rev-parse", "HEAD").stdout.strip()
        git(root, "tag", "v1.0.0")
        git(root, "checkout", "-q", "-b", "side")
        git(root, *env, "commit", "-q", "--allow-empty", "-m", "side")
        side = git(root, "rev-parse", "HEAD").stdout.strip()
        git(root, "checkout", "-q", "main")
        unknown = "0123456789abcdef0123456789abcdef01234567"
        (root / "README.md").write_text(
            f"GIT_TAG {first}\nGIT_TAG v1.0.0\nGIT_TAG \"{first[:12]}\"\nGIT_TAG {side}\nGIT_TAG ${{BANKGATE_GIT_TAG}}\n")
        (root / "docs").mkdir()
        (root / "docs" / "CMakeLists.txt").write_text(f"FetchContent_Declare(x GIT_TAG {unknown})\n")
        git(root, "add", "-A")
        git(root, *env, "commit", "-qm", "pins")
        problems, missing = check(root)
    want = [
        "README.md:2: pins 'v1.0.0', which is not a full commit hash",
        f"README.md:3: pins '{first[:12]}', which is not a full commit hash",
        f"README.md:4: pins {side}, a commit that is not on the history of HEAD",
    ]
    got_all = len(problems) == len(want) and all(p.startswith(w) for p, w in zip(problems, want))
    if not got_all or missing != [f"docs/CMakeLists.txt:1: {unknown}"]:
        print("FAIL - the self-test on a made-up repository found:", *problems, "missing:", *missing,
              "instead of:", *want, f"missing: docs/CMakeLists.txt:1: {unknown}", sep="\n  ")
        return False
    print(f"ok   - the self-test finds each of {len(want) + 1} planted pins and passes the good one")
    return True


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]).resolve()
    if not self_test():
        return 1
    top = git(root, "rev-parse", "--show-toplevel")
    if top.returncode != 0 or pathlib.Path(top.stdout.strip()).resolve() != root:
        print(f"SKIPPED: {root} is no git checkout of its own (a source tarball?): its pins cannot be looked up")
        return SKIPPED
    problems, missing = check(root)
    for found in problems:
        print("FAIL -", found)
    shallow = git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    if missing and not shallow:
        for found in missing:
            print(f"FAIL - {found}: git knows no such commit here; pin a commit of main (git rev-parse main)")
    failed = len(problems) + (0 if shallow else len(missing))
    print(f"{len(list(pins(root))) - len(problems) - len(missing)} passed, {failed} failed")
    if problems or (missing and not shallow):
        return 1
    if missing:
        print("SKIPPED: a shallow clone lacks the pinned commits", *missing, "(fetch the whole history: git fetch --unshallow)")
        return SKIPPED
    return 0


if __name__ == "__main__":
    sys.exit(main())
