#!/usr/bin/env python3
"""Every printed command goes through the one quoting function, checked as a rule over the sources.

A command the tools print for a person to paste (refresh or recover advice, a build that failed, a command to
run later) is built by gate/text's command_line() or as_command_line(), which shell-quote each word: pasting it
runs that command and nothing else, whatever a folder's or a test's name holds (a folder named b$(touch PWNED)
ran touch when its recover advice was joined by hand). Checked in the sources of cli/, gate/, gtest/ and history/:

1. shell_quote() is called only inside gate/src/text/text.cpp, by command_line(): no command is quoted word by
   word elsewhere, where one word could be forgotten.
2. A string literal that starts a command (bankgate, ctest, cmake or git followed by a subcommand or an option,
   or a fragment " subcommand --option" after another word) and leaves it open (no ')', '`' or ';' after it in
   the literal) is joined to nothing but literals and calls of command_line(), as_command_line() or
   std::to_string() (or bracket(), a CMake file's quoting): a word from input is never joined in unquoted. A command written whole in a literal
   ("bankgate refresh --build <your build> --new-gpu") is fine.

The rule's own checks are tested on planted code first, so that it cannot pass by finding nothing.

  printed_commands_test.py SOURCE_DIR
"""
import pathlib
import re
import sys

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
COMMAND = re.compile(r"(?:^|[\s(`'])(?:bankgate|ctest|cmake|git)(?: [a-z][a-z-]*)*(?: --?[a-zA-Z][a-zA-Z-]*)")
FRAGMENT = re.compile(r"^ (?:[a-z][a-z-]* ){1,2}--?[a-z]")  # " promote --build ": the words after a program's name
CLOSED = re.compile(r"[)`;\n]|\\n")
# bracket() quotes a word of a CMake file (discover's list of tests), that file's own quoting.
QUOTING_CALLS = ("command_line(", "as_command_line(", "std::to_string(", "bracket(")
FOLDERS = ("cli", "gate", "gtest", "history")


def strip_comments(text):
    """The code with // and /* */ comments blanked (string literals kept), so that prose in comments is no code."""
    out, i = [], 0
    while i < len(text):
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text[i] == '"':
            m = LITERAL.match(text, i)
            end = m.end() if m else i + 1
            out.append(text[i:end])
            i = end
        elif text[i] == "'" and re.match(r"'(?:[^'\\\n]|\\.)'", text[i:]):
            end = i + len(re.match(r"'(?:[^'\\\n]|\\.)'", text[i:]).group(0))
            out.append(text[i:end])
            i = end
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def operand_after(code, at):
    """The operand joined by '+' or '<<' right after position `at`, or None where nothing is joined."""
    m = re.match(r"\s*(?:\+|<<)\s*", code[at:])
    if not m:
        return None
    return code[at + m.end():at + m.end() + 60]


def operand_before(code, at):
    """The call or name joined by '+' right before position `at` ('' where it is a literal or nothing)."""
    head = code[:at].rstrip()
    if not head.endswith("+"):
        return None
    head = head[:-1].rstrip()
    if head.endswith('"'):
        return ""
    depth, i = 0, len(head)
    while i > 0:
        c = head[i - 1]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and not (c.isalnum() or c in "_:.>-"):
            break
        i -= 1
    return head[i:]


def is_quoting(operand):
    operand = re.sub(r"^(?:[a-z]+::)+(?=(?:command_line|as_command_line)\()", "", operand.strip())
    return operand.startswith('"') or operand.startswith(QUOTING_CALLS)


def offenders(path, text):
    found = []
    code = strip_comments(text)
    line_of = lambda at: code.count("\n", 0, at) + 1
    if not str(path).endswith(("gate/src/text/text.cpp", "gate/include/bankgate/gate/text/text.hpp")):
        for m in re.finditer(r"\bshell_quote\s*\(", code):
            found.append(f"{path}:{line_of(m.start())}: shell_quote() outside command_line(): build the command "
                         "with command_line() or as_command_line()")
    for m in LITERAL.finditer(code):
        body = m.group(0)[1:-1]
        starts = [c.end() for c in COMMAND.finditer(body)]
        fragment = FRAGMENT.match(body)
        if fragment:
            before = operand_before(code, m.start())
            if before and not is_quoting(before):
                found.append(f"{path}:{line_of(m.start())}: {before.strip()} joined unquoted before the command "
                             f"words {m.group(0)}")
            starts.append(fragment.end())
        if not starts or CLOSED.search(body, max(starts)):
            continue
        after = operand_after(code, m.end())
        if after is not None and not is_quoting(after):
            found.append(f"{path}:{line_of(m.start())}: {m.group(0)} joined to {after.split(chr(10))[0].strip()!r}, "
                         "not through command_line()")
    return found


def self_test():
    planted = {
        'return "bankgate recover --baselines " + root.string();': 1,
        'out << this_command() + " promote --build " + build;': 2,
        'x = "(cmake -S " + g::shell_quote(s) + ")";': 2,
        'x = "bankgate recover --baselines " + std::to_string(n);': 0,
        'x = command_line({"bankgate", "recover", "--baselines", root});': 0,
        'fail(problem + " (record them again with: bankgate refresh --build <your build> --new-gpu)");': 0,
        'progress("bankgate compare: round " + std::to_string(r));': 0,
        '// "bankgate recover --baselines " + root\nint x;': 0,
        'x = "run `" + g::as_command_line(argv) + "` again";': 0,
    }
    wrong = []
    for code, expected in planted.items():
        got = offenders(pathlib.Path("cli/planted.cpp"), code)
        if len(got) != expected:
            wrong.append(f"planted {code!r}: {len(got)} offender(s), expected {expected}: {got}")
    return wrong


def main():
    root = pathlib.Path(sys.argv[1])
    failures = self_test()
    checked = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".cu", ".cuh", ".h"):
                continue
            checked += 1
            failures += offenders(path.relative_to(root), path.read_text(errors="replace"))
    for f in failures:
        print("FAIL - " + f)
    print(f"{checked} source files checked; {len(failures)} offender(s)")
    if checked < 50:
        print(f"FAIL - only {checked} source files found under {root}: the wrong folder?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
