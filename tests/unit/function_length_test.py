#!/usr/bin/env python3
"""No function in bankgate's libraries or its command is longer than 60 lines (no build needed, standard
library only).

    function_length_test.py [REPO]

Looks at the .cpp, .cu and .hpp files under core/, cupti_collector/, gate/, gtest/ and cli/. A function is a
definition at namespace level or in a class body whose body opens with `{`; its length runs from the first
line of its head (template line, return type, name) to the line of its closing brace, both included. Lambdas
and local classes count as part of the function that holds them. The braces are counted on the code alone:
comments, string literals (raw strings included) and character literals are blanked first, so a '{' in a
message or a table of JSON escapes does not shift the count.

A long function is one that a reader cannot hold at once; the limit keeps each phase in a function named for
it. ALLOWED names exceptions; there is none (the command line, once one long list of options, is defined one
subcommand a file).

A self-test on a small made-up source and tree runs first, so that a parser that finds nothing cannot pass unnoticed.
Prints each function over the limit and exits 1 when there is any.
"""

import os
import re
import sys
import tempfile

LIMIT = 60
FOLDERS = ("core", "cupti_collector", "gate", "gtest", "history", "cli")
SUFFIXES = (".cpp", ".cu", ".hpp")
# "path:name" of the functions allowed to be longer.
ALLOWED = set()

IDENTIFIER_CHAR = re.compile(r"[A-Za-z0-9_]")
RAW_STRING_START = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def blank_non_code(text):
    """The text with comments, string and character literals and preprocessor lines blanked (quotes kept,
    contents dropped), line breaks kept, so that only the code's own braces and parentheses remain."""
    out = []
    i = 0
    n = len(text)
    at_line_start = True  # only whitespace since the last line break: a '#' here starts a directive
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor directive, with its continuation lines: not code to count braces in.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end) or " ")
            i = end
            continue
        raw = RAW_STRING_START.match(text, i)
        if raw and (i == 0 or not IDENTIFIER_CHAR.match(text[i - 1])):
            closing = ")" + raw.group(1) + '"'
            end = text.find(closing, raw.end())
            end = n if end < 0 else end + len(closing)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
            continue
        if c == '"' or (c == "'" and not is_digit_separator(text, i)):
            end = i + 1
            while end < n and text[end] != c and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            out.append(c + c)
            i = end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def is_digit_separator(text, i):
    """Whether the ' at i separates digits of a number (1'000'000), not opens a character literal."""
    start = i
    while start > 0 and (IDENTIFIER_CHAR.match(text[start - 1]) or text[start - 1] in "'."):
        start -= 1
    return start < i and text[start].isdigit()


def strip_template_prefix(head):
    """The head without a leading `template <...>` (its default arguments hold '=' and parentheses)."""
    match = re.match(r"\s*template\s*<", head)
    if not match:
        return head
    depth = 1
    i = match.end()
    while i < len(head) and depth > 0:
        depth += {"<": 1, ">": -1}.get(head[i], 0)
        i += 1
    return strip_template_prefix(head[i:])


NAMESPACE_HEAD = r"\s*((inline|export)\s+)?namespace\b|\s*extern\s*\"\""
CLASS_HEAD = r"\s*((typedef|static|const|constexpr|inline)\s+)*(class|struct|union)\b"
# Words whose parenthesized argument comes before a function's parameter list.
NOT_PARAMETERS = {"decltype", "alignas", "__launch_bounds__", "__attribute__", "__declspec", "noexcept", "requires"}
# What may follow a function's parameter list before its body.
AFTER_PARAMETERS = re.compile(r"^(|(const|noexcept|override|final|volatile|mutable|constexpr|requires|try)\b.*"
                              r"|&.*|->.*|:.*|\[\[.*)$", re.S)


def parse_head(head):
    """(name, what follows its parameter list) when the head (the code before a `{`) is a function's, or None
    when it opens something else: a namespace, a class, an initializer, a lambda held in a variable."""
    head = strip_template_prefix(head)
    head = re.sub(r"^\s*((public|private|protected)\s*:(?!:)\s*)+", "", head)
    if re.match(NAMESPACE_HEAD, head) or re.match(CLASS_HEAD, head) or re.match(r"\s*enum\b", head):
        return None
    operators = []
    # Operators by number, so that their symbols (=, (), <) do not read as an initializer or a parameter list.
    head = re.sub(r"\boperator\s*(\(\s*\)|\[\s*\]|<=>|->\*?|new\s*\[\]|delete\s*\[\]|new|delete|[^\s\w(]+"
                  r"|[\w:<>\s]+?(?=\())", lambda m: operators.append(m.group(1).strip()) or f"operator__{len(operators) - 1}",
                  head)
    depth = 0  # of [] and <>
    i = 0
    while i < len(head):
        c = head[i]
        if c == "=" and depth == 0:
            return None  # an initializer: `auto f = [](...) {`, `Table t = {`
        if c == "(":
            before = re.search(r"([\w:~]+)\s*$", head[:i])
            word = before.group(1) if before else ""
            close = matching_paren(head, i)
            if close is None:
                return None
            if word.split("::")[-1] in NOT_PARAMETERS:
                i = close + 1
                continue
            rest = head[close + 1:]
            word = re.sub(r"operator__(\d+)", lambda m: "operator" + operators[int(m.group(1))], word)
            return (word, rest) if word and AFTER_PARAMETERS.match(rest.strip()) else None
        if c in "[<":
            depth += 1
        elif c in "]>" and depth > 0:
            depth -= 1
        i += 1
    return None


def matching_paren(text, i):
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    return None


def in_constructor_initializers(head):
    """Whether the head ends inside a constructor's initializer list, `X::X(int a) : a_(a), b_`, where a `{`
    opens a member's initializer, not the body."""
    parsed = parse_head(head)
    if parsed is None:
        return False
    rest = parsed[1]
    return bool(re.match(r"\s*:(?!:)", rest)) and bool(re.search(r"[\w>]\s*$", rest))


def functions(text):
    """(name, first line, last line) of each function defined in the source text, lines counted from 1."""
    code = blank_non_code(text)
    found = []
    # Scopes: "namespace" and "class" bodies hold definitions; inside a "function" or "other" braces are counted.
    stack = ["namespace"]
    head = []  # (char, line) since the last ; { or } in a namespace or class body
    pending = []  # the braces open inside a head (a member's initializer): they belong to the head
    line = 1
    for c in code:
        if c == "\n":
            line += 1
        scope = stack[-1]
        collecting = scope in ("namespace", "class")
        if collecting and pending:
            head.append((c, line))
            if c == "{":
                pending.append(True)
            elif c == "}":
                pending.pop()
            continue
        if c == "{":
            if collecting:
                text_of_head = "".join(ch for ch, _ in head)
                if paren_depth(text_of_head) > 0 or in_constructor_initializers(text_of_head):
                    head.append((c, line))
                    pending.append(True)
                    continue
                parsed = parse_head(text_of_head)
                if parsed is not None:
                    first = next((ln for ch, ln in skip_labels(head) if not ch.isspace()), line)
                    stack.append(("function", parsed[0], first))
                elif re.match(NAMESPACE_HEAD, strip_template_prefix(text_of_head)):
                    stack.append("namespace")
                elif re.match(CLASS_HEAD, strip_template_prefix(text_of_head)):
                    stack.append("class")
                else:
                    stack.append("other")
                head = []
            else:
                stack.append("other")
            continue
        if c == "}":
            closed = stack.pop() if len(stack) > 1 else "namespace"
            if isinstance(closed, tuple):
                found.append((closed[1], closed[2], line))
            if stack[-1] in ("namespace", "class"):
                head = []
            continue
        if collecting:
            if c == ";":
                head = []
            else:
                head.append((c, line))
    return found


def skip_labels(head):
    """The head without leading access labels (`public:`), which are not part of the definition."""
    text = "".join(ch for ch, _ in head)
    match = re.match(r"\s*((public|private|protected)\s*:(?!:)\s*)+", text)
    return head[match.end():] if match else head


def paren_depth(text):
    return text.count("(") - text.count(")")


def long_functions(root):
    problems = []
    for folder in FOLDERS:
        for directory, subdirectories, files in os.walk(os.path.join(root, folder)):
            subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
            for file_name in sorted(files):
                if not file_name.endswith(SUFFIXES):
                    continue
                path = os.path.join(directory, file_name)
                relative = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for name, first, last in functions(text):
                    length = last - first + 1
                    short_name = name.split("::")[-1]
                    if length > LIMIT and f"{relative}:{short_name}" not in ALLOWED:
                        problems.append(f"{relative}:{first}: {name} is {length} lines (at most {LIMIT})")
    return problems


SELF_TEST_SOURCE = r'''
#include <string>
#define BRACE {
namespace a::b {
namespace {
// a comment with a brace {
const char* text = R"x(raw { string )" with { braces)x";
constexpr char open = '{';
constexpr long big = 1'000'000;
struct Table { int x; } table[] = { {1}, {2} };
const auto twice = [](int v) { return 2 * v; };
}  // namespace

class Widget : public Base {
 public:
  Widget(int a) : a_{a}, b_(a) {
    /* a block comment } */
  }
  int get() const { return a_; }
  bool operator==(const Widget& o) const {
    return a_ == o.a_;
  }
 private:
  int a_ = 0;
  int b_;
};

template <typename T = int>
std::string
Widget::escape(char c) {
  if (c == '}') return "\\}";
  if (c == '"') return "\"{";
  return std::string(1, c);
}

auto later(int x) -> std::vector<int> {
  return {x};
}
'''


def self_test():
    """The parser on SELF_TEST_SOURCE, and the whole check on a made-up tree: a function one line over the
    limit is found, one at the limit is not."""
    long_body = "int long_one() {\n" + "  step();\n" * 59 + "}\n"  # 61 lines
    just_fits = "int just_fits() {\n" + "  step();\n" * 58 + "}\n"  # 60 lines
    found = functions(SELF_TEST_SOURCE + long_body + just_fits + "}  // namespace a::b\n")
    names = [(name, last - first + 1) for name, first, last in found]
    expected = [("Widget", 3), ("get", 1), ("operator==", 3), ("Widget::escape", 7), ("later", 3),
                ("long_one", 61), ("just_fits", 60)]
    if names != expected:
        print(f"self-test: found {names}, expected {expected}")
        return False
    with tempfile.TemporaryDirectory() as root:
        sources = {"gate/src/rules.cpp": SELF_TEST_SOURCE + long_body + just_fits + "}\n",
                   "kernels/outside.cu": long_body}  # not a checked folder
        for relative, text in sources.items():
            os.makedirs(os.path.join(root, os.path.dirname(relative)), exist_ok=True)
            with open(os.path.join(root, relative), "w", encoding="utf-8") as f:
                f.write(text)
        problems = long_functions(root)
    wanted = [f"gate/src/rules.cpp:{SELF_TEST_SOURCE.count(chr(10)) + 1}: long_one is 61 lines (at most {LIMIT})"]
    if problems != wanted:
        print(f"self-test: the made-up tree gave {problems}, expected {wanted}")
        return False
    return True


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not self_test():
        return 1
    problems = long_functions(root)
    for problem in problems:
        print(problem)
    checked = sum(1 for folder in FOLDERS for _, _, files in os.walk(os.path.join(root, folder))
                  for name in files if name.endswith(SUFFIXES))
    if checked == 0:
        print(f"no source files found under {root}")
        return 1
    print(f"{checked} files checked, {len(problems)} functions over {LIMIT} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
