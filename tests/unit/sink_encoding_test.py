"""Text from a pull request reaches every sink encoded for it: the built command on hostile files, no GPU.

    sink_encoding_test.py PATH/TO/bankgate

A pull request names its tests and writes their messages; the run's plans and result records carry them to
`bankgate summary`, a baselines folder's file names to `check-baselines`, and a baseline's text to
`readme-table`. Each sink is read back by what reads it in earnest:
  - the refresh command in the JSON, markdown, HTML and JUnit reports: split by the shell's rules (shlex) into the
    same words in every report, the filter one argument that selects the test, and run by bash (nothing but
    bankgate runs);
  - the markdown summary and the README table: rendered by cmark-gfm, GitHub's own renderer, with the extensions
    github.com uses: no image, link or raw HTML, no heading or table row but bankgate's own, every message inside
    its code block, every cell's text as it was;
  - the HTML report: parsed; no element or attribute that a name or message brought;
  - the JUnit report: parsed by expat (xml.etree), which refuses what XML 1.0 forbids (&#27;);
  - the terminal: no control character sent raw (ESC, BEL, CR, the C1 CSI), no right-to-left override, and no
    line that a newline in a name started.
The names: a quote followed by a command, a backtick fence with a forged heading, <img onerror>, ESC[31m with an
OSC 8 hyperlink, a newline with a forged verdict line, invalid UTF-8, a right-to-left override.
"""
import html.parser
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import quoteattr

TOOL = None
ROOT = pathlib.Path(__file__).resolve().parents[2]
README_FIXTURES = ROOT / "tests" / "unit" / "fixtures" / "readme_table"

FORGED = "bankgate gate passed: 6 GPU tests"
# Each test's name, as ctest's JUnit file carries it (bytes: one is not UTF-8), and the filter its refresh
# command must give: the name itself, with '\' before a filter's own characters and "\xHH" for each byte of what
# a line cannot hold.
NAMES = {
    b"Q.it's; touch PWNED #": "Q.it's; touch PWNED #",
    "X.y' --new-gpu; touch PWNED; '".encode(): r"X.y' \-\-new\-gpu; touch PWNED; '",
    "Fence.name``` `\n## bankgate gate passed".encode(): r"Fence.name``` `\x0a## bankgate gate passed",
    b"Html.<img src=x onerror=alert(1)>": "Html.<img src=x onerror=alert(1)>",
    b"Esc.red\x1b[31mRED\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07":
        r"Esc.red\x1b[31mRED\x1b]8;;https\://evil.example/\x07click\x1b]8;;\x07",
    f"Nl.test\n{FORGED}".encode(): r"Nl.test\x0abankgate gate passed\: 6 GPU tests",
    b"Bad.t\xff\xc0\xafest": "Bad.t\ufffd\ufffd\ufffdest",  # the reader made it UTF-8
    "Rtl.test\u202egnp.exe".encode(): r"Rtl.test\xe2\x80\xaegnp.exe",  # U+202E is three bytes
}
MEASURING_RUN = f"bankgate.measure.evil\n{FORGED}\x1b[2J".encode()
# A failure message that closes a code fence, forges a verdict, an image, a link and live HTML, and drives a terminal.
MESSAGE = ("no baseline for this test on NVIDIA H200\n```\n~~~~\n## bankgate gate passed\n"
           "![pixel](https://evil.example/p.png) [click](https://evil.example/) <img src=x onerror=alert(1)>\n"
           "\x1b[2J\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07\n````")
REFERENCES = {"\n": "&#10;", "\x1b": "&#x1b;", "\x07": "&#x7;"}  # XML keeps these only as references


def attribute(raw):
    """Bytes as an XML attribute value, quoted; bytes that are not UTF-8 go through as they are."""
    return quoteattr(raw.decode("utf-8", "surrogateescape"), REFERENCES).encode("utf-8", "surrogateescape")


def write_run(folder):
    """The plan of a measuring run whose program has a hostile name and could not run its tests (the run's problems
    quote it), the plan of every test, and the result record of each saying it has no baseline (as the suite
    process writes it: UTF-8, a byte that is not as U+FFFD)."""
    reports = folder / "gtest-results"
    reports.mkdir()
    names = [name.decode("utf-8", "replace") for name in NAMES]
    plan = {"schema": "bankgate-test-plan", "schema_version": 1, "shard": 0, "filter": ""}
    (reports / "evil.0.plan.json").write_text(json.dumps(dict(plan, program=MEASURING_RUN.decode(), tests=[],
                                                              problem="it could not list its tests")), encoding="utf-8")
    (reports / "suite.0.plan.json").write_text(json.dumps(dict(plan, program="suite", tests=names, problem="")),
                                               encoding="utf-8")
    for name in names:
        suite, _, test = name.partition(".")
        record = {"schema": "bankgate-test-result", "schema_version": 1, "suite": suite, "test": test,
                  "outcome": "not_measured", "seconds": 0.5, "messages": [MESSAGE], "properties": {},
                  "wrong_output": False, "findings": []}
        (reports / (name.replace("/", "_") + ".result.json")).write_text(json.dumps(record), encoding="utf-8")
    return reports


class Rendered(html.parser.HTMLParser):
    """What a browser builds from HTML: its elements with their attributes, the text of its headings, code spans
    and code blocks, and its table rows as the texts of their cells."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.headings, self.codes, self.blocks, self.rows = [], [], [], [], []
        self._open, self._text = [], ""
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        if tag in ("h1", "h2", "h3", "h4", "code", "pre", "td", "th"):
            self._open.append((tag, len(self._text)))

    def handle_endtag(self, tag):
        opened = [i for i, (name, _) in enumerate(self._open) if name == tag]
        if not opened:
            return
        name, start = self._open[opened[-1]]
        del self._open[opened[-1]:]
        text = self._text[start:]
        if tag.startswith("h") and tag != "th":
            self.headings.append((tag, text))
        elif tag == "code":
            self.codes.append(text)
        elif tag == "pre":
            self.blocks.append(text)
        elif self.rows:
            self.rows[-1].append(text)

    def handle_data(self, data):
        self._text += data


def gfm(markdown):
    """HTML as GitHub renders the markdown: cmark-gfm with the extensions github.com uses."""
    if shutil.which("cmark-gfm") is None:
        raise AssertionError("cmark-gfm is missing: install it (Debian's cmark-gfm; ci/lib.sh's "
                             "bankgate_ensure_test_dependencies does)")
    done = subprocess.run(["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter"],
                          input=markdown.encode(), capture_output=True, check=True)
    return Rendered(done.stdout.decode())


def filter_of(command):
    """The one word after --filter, as sh splits the command."""
    words = shlex.split(command)
    return words[words.index("--filter") + 1]


def pattern_bytes(pattern):
    """A filter pattern as (kind, byte) pairs: ('byte', b), ('any', None), ('star', None), with its escapes read
    ('\\xHH' a byte, '\\' before anything else that thing); ('separator', c) for an unescaped ':' or '-'."""
    raw, out, i = pattern.encode(), [], 0
    while i < len(raw):
        c = raw[i:i + 1]
        if c == b"\\" and re.fullmatch(rb"x[0-9a-fA-F]{2}", raw[i + 1:i + 4]):
            out.append(("byte", bytes([int(raw[i + 2:i + 4], 16)])))
            i += 4
            continue
        if c == b"\\" and i + 1 < len(raw):
            out.append(("byte", raw[i + 1:i + 2]))
            i += 2
            continue
        out.append(("any", None) if c == b"?" else ("star", None) if c == b"*" else
                   ("separator", c) if c in (b":", b"-") else ("byte", c))
        i += 1
    return out


def selects(pattern, name):
    """Whether a filter pattern (one, no ':' or '-' of its own) selects `name`, byte by byte."""
    regex = b"".join(b"." if k == "any" else b".*" if k == "star" else re.escape(b) for k, b in pattern_bytes(pattern))
    return re.fullmatch(regex, name.encode(), re.S) is not None


class Summary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        reports = write_run(cls.dir)
        cls.out = cls.dir / "reports"
        cls.out.mkdir()
        cls.done = subprocess.run([TOOL, "summary", "--gtest-results", reports, "--markdown", cls.out / "step.md",
                                   "--json", cls.out / "summary.json", "--junit-out", cls.out / "junit.xml",
                                   "--html", cls.out / "report.html"], capture_output=True, timeout=60)
        cls.console = cls.done.stdout + cls.done.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_run_could_not_measure_and_every_report_is_written(self):
        self.assertEqual(self.done.returncode, 2, self.console.decode(errors="replace"))
        for name in ("step.md", "summary.json", "junit.xml", "report.html"):
            self.assertGreater((self.out / name).stat().st_size, 0, name)

    # The shell: the refresh command -------------------------------------------------------------------------
    def commands(self, sink):
        """Each test's advised command in one report: json, markdown (as rendered), html or junit."""
        if sink == "json":
            return [t["refresh"] for t in json.loads((self.out / "summary.json").read_text(encoding="utf-8"))["tests"]]
        if sink == "markdown":
            return [c for c in gfm((self.out / "step.md").read_text(encoding="utf-8")).codes if " refresh " in c]
        if sink == "html":
            return [c for c in Rendered((self.out / "report.html").read_text(encoding="utf-8")).codes if " refresh " in c]
        advice = "record a baseline on this GPU: "
        return [line[len(advice):] for e in ElementTree.parse(self.out / "junit.xml").getroot().iter("error")
                for line in (e.text or "").splitlines() if line.startswith(advice)]

    def check_commands(self, sink):
        """Each command splits into bankgate's words, the filter one of them, which selects its test and no other."""
        commands = self.commands(sink)
        for command in commands:
            self.assertNotIn("\n", command)
            words = shlex.split(command)
            self.assertEqual((words[1], words[-2]), ("refresh", "--filter"), f"{command!r} split as {words}")
        self.assertEqual(sorted(filter_of(c) for c in commands), sorted(NAMES.values()), commands)
        names = [t["name"] for t in json.loads((self.out / "summary.json").read_text(encoding="utf-8"))["tests"]]
        for name, pattern in zip(names, (filter_of(c) for c in self.commands("json"))):
            self.assertEqual([n for n in names if selects(pattern, n)], [name], f"{pattern!r} selects not {name!r} alone")
            self.assertFalse(set(pattern) & set("\n\x1b"), pattern)
            self.assertFalse([p for p in pattern_bytes(pattern) if p[0] in ("separator", "any", "star")], pattern)

    def test_the_json_summary_gives_each_name_as_one_argument_that_selects_it(self):
        self.check_commands("json")

    def test_the_markdown_gives_each_name_as_one_argument_that_selects_it(self):
        self.check_commands("markdown")

    def test_the_html_report_gives_each_name_as_one_argument_that_selects_it(self):
        self.check_commands("html")

    def test_the_junit_report_gives_each_name_as_one_argument_that_selects_it(self):
        self.check_commands("junit")

    def test_running_the_advised_command_runs_nothing_but_bankgate(self):
        sandbox = self.dir / "sandbox"
        sandbox.mkdir()
        for command in self.commands("json"):
            self.assertEqual(subprocess.run(["bash", "-n", "-c", command]).returncode, 0, command)
            subprocess.run(["bash", "-c", command], cwd=sandbox, capture_output=True, timeout=60, env={**os.environ, "CI": "true"})
        self.assertEqual(list(sandbox.iterdir()), [], "running the advice made files: more than bankgate ran")

    # Markdown ------------------------------------------------------------------------------------------------
    def test_the_markdown_renders_no_image_link_html_or_heading_of_its_own(self):
        page = gfm((self.out / "step.md").read_text(encoding="utf-8"))
        tags = {tag for tag, _ in page.elements}
        self.assertFalse(tags & {"img", "a", "script", "b"}, f"live elements: {tags}")
        self.assertFalse([a for tag, attrs in page.elements for a in attrs if (tag, a) != ("code", "class")], "attributes")
        self.assertEqual([h for h, _ in page.headings], ["h2", "h3"] + ["h4"] * len(NAMES) + ["h3"], page.headings)
        self.assertTrue(page.headings[0][1].startswith("bankgate gate FAILED"), page.headings[0])
        self.assertIn("Fence.name``` `\\x0a## bankgate gate passed: could not be measured", [t for _, t in page.headings])

    def test_every_message_stays_inside_its_code_block(self):
        page = gfm((self.out / "step.md").read_text(encoding="utf-8"))
        self.assertEqual(len(page.blocks), len(NAMES))
        for block in page.blocks:
            self.assertTrue(block.startswith("no baseline for this test"), block)
            self.assertIn("\n## bankgate gate passed\n![pixel](https://evil.example/p.png)", block)
            self.assertTrue(block.endswith("\\x07\n````\n"), repr(block))

    def test_the_table_of_all_tests_has_a_row_of_four_cells_per_test_named_whole(self):
        page = gfm((self.out / "step.md").read_text(encoding="utf-8"))
        self.assertEqual([len(r) for r in page.rows], [4] * (len(NAMES) + 1), page.rows)
        self.assertIn("Html.<img src=x onerror=alert(1)>", [r[0] for r in page.rows])

    # HTML ----------------------------------------------------------------------------------------------------
    def test_the_html_report_holds_no_element_a_name_or_message_brought(self):
        page = Rendered((self.out / "report.html").read_text(encoding="utf-8"))
        self.assertFalse({tag for tag, _ in page.elements} & {"img", "script", "iframe"})
        self.assertFalse([a for _, attrs in page.elements for a in attrs if a.startswith("on")])
        self.assertTrue([t for h, t in page.headings if h == "h3" and t.startswith("Html.<img src=x onerror=alert(1)> ")])

    # XML -----------------------------------------------------------------------------------------------------
    def test_the_junit_report_is_xml_1_0_with_the_controls_shown(self):
        root = ElementTree.parse(self.out / "junit.xml").getroot()  # expat refuses &#27; and the like
        names = {c.get("classname") + "." + c.get("name") for c in root.iter("testcase")}
        self.assertIn("Esc.red\\x1b[31mRED\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07", names)
        self.assertIn("Nl.test\n" + FORGED, names)

    # The terminal --------------------------------------------------------------------------------------------
    def test_the_console_shows_controls_escaped_and_no_line_a_name_started(self):
        for raw in (b"\x1b", b"\x07", b"\r", b"\xc2\x9b", "\u202e".encode()):
            self.assertNotIn(raw, self.console, f"raw {raw!r} in the console output")
        text = self.console.decode()
        self.assertFalse([line for line in text.splitlines() if line.startswith(FORGED)], text)
        self.assertIn("Nl.test\\x0abankgate gate passed", text)
        self.assertIn("the measuring run of bankgate.measure.evil\\x0abankgate gate passed: 6 GPU tests\\x1b[2J (shard 0) "
                      "could not run its tests", text)
        self.assertIn("Rtl.test\\u202egnp.exe", text)

    def test_check_baselines_names_a_hostile_file_on_one_line(self):
        folder = self.dir / "baselines" / "sm_90" / "nvidia-h200"
        folder.mkdir(parents=True)
        (folder / f"\x1b[2J\x1b]0;owned\x07Evil\n{FORGED}\u202e.json").write_text("{}")
        done = subprocess.run([TOOL, "check-baselines", "--baselines", self.dir / "baselines"], capture_output=True, timeout=60)
        output = done.stdout + done.stderr
        self.assertEqual(done.returncode, 2, output)
        for raw in (b"\x1b", b"\x07", "\u202e".encode()):
            self.assertNotIn(raw, output)
        self.assertFalse([line for line in output.decode().splitlines() if line.startswith(FORGED)], output.decode())
        self.assertIn("Evil\\x0a" + FORGED, output.decode())


class ReadmeTable(unittest.TestCase):
    WHY = ("<img src=x onerror=alert(1)> ![pixel](https://evil.example/p.png) [click](https://evil.example/) <b>bold</b> "
           "*em* ~~gone~~ `code` a | b <!-- bankgate:kernel-table:end --> &lt; \\| x www.evil.example @owner/team a@evil.example")
    KERNEL = "k``<b>x</b>|y`"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.baselines = pathlib.Path(self.tmp.name) / "baselines"
        shutil.copytree(README_FIXTURES / "baselines", self.baselines)
        copy = self.baselines / "sm_90" / "nvidia-h200" / "Copy.json"
        document = json.loads(copy.read_text())
        test = document["tests"]["Async16"]
        test["expected"]["why"], test["kernel"] = self.WHY, self.KERNEL
        copy.write_text(json.dumps(document))

    def tearDown(self):
        self.tmp.cleanup()

    def test_a_baselines_text_renders_as_that_text_in_its_cell(self):
        done = subprocess.run([TOOL, "readme-table", "--baselines", self.baselines, "--gpu", "sm_90/nvidia-h200"],
                              capture_output=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = gfm(done.stdout.decode())
        tags = {tag for tag, _ in page.elements}
        self.assertFalse(tags & {"img", "a", "b", "em", "del", "script"}, f"live elements: {tags}")
        self.assertEqual({len(r) for r in page.rows}, {9}, page.rows)
        row = [r for r in page.rows if r[0] == "Copy.Async16"][0]
        self.assertEqual((row[1], row[8].replace("@\u2060", "@")), (self.KERNEL, self.WHY))


if __name__ == "__main__":
    TOOL = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
