#!/usr/bin/env python3
"""The README and the pages of docs/ must send their reader somewhere real: every link to a file of the
repository (and the heading it names after '#'), every `backticked/path` of the repository, and every
`bankgate SUBCOMMAND` they show must exist.

    docs_links_test.py REPOSITORY --command PATH/TO/bankgate

Looks at README.md and docs/*.md as they are on disk (a page not yet committed is checked too). A path is a
word whose first part is a top-level file or folder of the repository (ci/gate.sh, docs/cli.md,
.github/workflows/...); build folders, placeholders (<arch>, *, $VAR) and web links are left out, and a
public header may be named by its include path (gate/protocol/settings.hpp). Paths and subcommands are read in
`code spans` and fenced code blocks, where commands and files are written; links anywhere. The subcommands
(aliases too) are the ones `bankgate --help` lists.

A self-test on a small made-up tree runs first, so that a checker that finds nothing cannot pass unnoticed.
Prints each problem and exits 1 when there is any.
"""
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import bankgate_command  # noqa: E402  (lives in tools/: the scripts' way to ask the command)

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`]+)`")
# The command where it is run: first on a line, after a path (build/cli/bankgate), a backtick or a shell
# separator; "the bankgate command" in a comment is prose.
SUBCOMMAND = re.compile(r"(?:^\s*|/|`|(?:&&|[;|(])\s*)bankgate\s+([a-z][a-z0-9-]*)", re.M)
WORD = re.compile(r"[^\s'\"()\[\]=,;]+")
PLACEHOLDER = re.compile(r"[<>*{}$]")


def top_level(root):
    """The repository's own top-level names: tracked or not ignored by git (build folders are ignored)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True, check=False)
    names = {line.split("/")[0] for line in listed.stdout.splitlines() if line} if listed.returncode == 0 else set()
    # No checkout here (or a folder inside another's): every name but build folders.
    return names or {p.name for p in root.iterdir() if not p.name.startswith(("build", ".git"))}


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page):
    """Every anchor of a markdown page; a repeated heading gets -1, -2, ... as on GitHub."""
    seen = {}
    for line in code_and_prose(page.read_text())[1]:
        if line.startswith("#"):
            base = slug(line.lstrip("#").replace("`", ""))
            seen[base] = seen.get(base, -1) + 1
            yield base if seen[base] == 0 else f"{base}-{seen[base]}"


def code_and_prose(text):
    """(lines inside fenced code blocks, lines outside them)."""
    code, prose, fenced = [], [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            code.append(line)
        else:
            prose.append(line)
    return code, prose


def link_problems(root, page, prose):
    for line in prose:
        for target in LINK.findall(line):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page.resolve()
            if root.resolve() not in (file, *file.parents) or not file.exists():
                yield f"links to {target}, which does not exist"
            elif anchor and file.suffix == ".md" and anchor not in set(anchors(file)):
                yield f"links to {target}, but {file.name} has no heading '#{anchor}'"


def exists(root, word):
    """A repository path, or a public header named by its include path (gate/protocol/settings.hpp)."""
    word = re.sub(r":\d+$", "", word.rstrip(".:"))  # kernels/async_copy.cu:84 names a line of the file
    return (root / word).exists() or any((include / word).exists() for include in root.glob("*/include/bankgate"))


def path_problems(root, names, snippets):
    for snippet in snippets:
        for word in WORD.findall(snippet):
            first = word.split("/")[0]
            looks_like_a_path = "/" in word.rstrip("/") or "." in word
            if not looks_like_a_path or first not in names or PLACEHOLDER.search(word):
                continue
            if not exists(root, word):
                yield f"names {word}, which does not exist"


def subcommand_problems(subcommands, snippets):
    for snippet in snippets:
        for name in SUBCOMMAND.findall(snippet):
            if name not in subcommands:
                yield f"shows `bankgate {name}`, but bankgate has no subcommand '{name}'"


def problems(root, subcommands):
    """Every problem of README.md and docs/*.md under root, as 'page: problem'."""
    names = top_level(root)
    found = []
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        code, prose = code_and_prose(page.read_text())
        snippets = code + [span for line in prose for span in CODE_SPAN.findall(line)]
        for problem in [*link_problems(root, page, prose), *path_problems(root, names, snippets),
                        *subcommand_problems(subcommands, snippets)]:
            found.append(f"{page.relative_to(root)}: {problem}")
    return found


def self_test():
    """A made-up tree with one mistake of each kind: each must be found, and nothing else."""
    with tempfile.TemporaryDirectory() as folder:
        root = pathlib.Path(folder)
        (root / "ci").mkdir()
        (root / "docs").mkdir()
        (root / "ci" / "gate.sh").write_text("")
        (root / "docs" / "a.md").write_text("# A page\n\n## Two words\n")
        (root / "README.md").write_text(
            "See [a](docs/a.md), [b](docs/a.md#two-words), [web](https://example.com), [gone](docs/gone.md) and\n"
            "[bad anchor](docs/a.md#three-words). Run `ci/gate.sh`, not `ci/nothing.sh`; `build/x` and\n"
            "`ci/<name>.sh` are no repository paths. `bankgate gate --build build` and `bankgate frobnicate`.\n"
            "```sh\nbuild/cli/bankgate gate\nci/missing.sh --flag  # the bankgate command, run\n```\n")
        got = sorted(problems(root, {"gate"}))
    want = sorted([
        "README.md: links to docs/gone.md, which does not exist",
        "README.md: links to docs/a.md#three-words, but a.md has no heading '#three-words'",
        "README.md: names ci/nothing.sh, which does not exist",
        "README.md: names ci/missing.sh, which does not exist",
        "README.md: shows `bankgate frobnicate`, but bankgate has no subcommand 'frobnicate'",
    ])
    if got != want:
        print("FAIL - the self-test on a made-up tree found:", *got, "instead of:", *want, sep="\n  ")
        return False
    print(f"ok   - the self-test finds each of {len(want)} planted mistakes and nothing else")
    return True


def main(argv):
    if len(argv) != 4 or argv[2] != "--command":
        print(__doc__.strip(), file=sys.stderr)
        return 64
    if not self_test():
        return 1
    root = pathlib.Path(argv[1])
    try:
        subcommands = {name for entry in bankgate_command.subcommands(argv[3]) for name in entry["names"]}
    except (OSError, RuntimeError) as e:
        print(f"FAIL - cannot ask {argv[3]} for its subcommands: {e}")
        return 1
    found = problems(root, subcommands)
    for problem in found:
        print("FAIL -", problem)
    print("ok   - every link, path and subcommand of README.md and docs/*.md exists" if not found else
          f"{len(found)} problems: fix the page, or the path it names")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
