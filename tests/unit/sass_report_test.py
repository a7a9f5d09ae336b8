#!/usr/bin/env python3
"""tools/sass_report.py and tools/sass-report.sh on a hand-written excerpt of cuobjdump -sass output
(tests/unit/fixtures/sass/kernels.sass: lines as cuobjdump 13.0 prints them for sm_90, with LDSM, STSM, ATOMS,
predicated and never-executed instructions and a second architecture added). No GPU and no cuobjdump needed:
the shell script is run with a stand-in cuobjdump that prints the fixture.

Run: python3 -m unittest discover -s tests/unit -p sass_report_test.py   (CTest runs it as unit test sass_report)
"""
import io
import os
import pathlib
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "unit" / "fixtures" / "sass" / "kernels.sass"
sys.path.insert(0, str(ROOT / "tools"))
import sass_report  # noqa: E402  (lives in tools/, beside the script that runs it)


def by_key(kernels):
    return {(k.arch, k.mangled): k for k in kernels}


class ParseTest(unittest.TestCase):
    def setUp(self):
        self.kernels = sass_report.parse(FIXTURE.read_text())
        self.found = by_key(self.kernels)

    def test_every_function_of_every_architecture_is_found(self):
        self.assertEqual(
            [(k.arch, k.mangled) for k in self.kernels],
            [("sm_90", "_Z9asyncCopyI4int4EvPKT_PS1_"), ("sm_90", "_Z8syncCopyIiEvPKT_PS0_"),
             ("sm_90", "_Z11tiledMatmulILi32EEvPKfS1_Pfiii"), ("sm_90", "_Z7mmaTilePKfPf"),
             ("sm_89", "_Z9asyncCopyI4int4EvPKT_PS1_")])

    def test_async_copy_counts_ldgsts_and_wide_loads_but_not_never_executed_ones(self):
        k = self.found[("sm_90", "_Z9asyncCopyI4int4EvPKT_PS1_")]
        self.assertEqual(k.counts["LDGSTS.128"], 2)
        self.assertEqual(k.counts["LDS.128"], 2)
        self.assertEqual(k.counts["LDS"], 0, "@!PT LDS never executes and is not counted")
        self.assertEqual(k.never_executed, 2)
        self.assertEqual(sum(k.counts.values()), 4, "LDG, STG, LDGDEPBAR, DEPBAR, LDC are not shared-memory accesses")

    def test_predicated_and_narrow_accesses_count_in_their_width(self):
        k = self.found[("sm_90", "_Z8syncCopyIiEvPKT_PS0_")]
        self.assertEqual((k.counts["LDS"], k.counts["STS"], k.counts["STS.64"]), (2, 1, 1))

    def test_tiled_matmul_fused_row_reads_show_as_lds128(self):
        k = self.found[("sm_90", "_Z11tiledMatmulILi32EEvPKfS1_Pfiii")]
        self.assertEqual((k.counts["LDS"], k.counts["LDS.64"], k.counts["LDS.128"], k.counts["STS"]), (4, 1, 1, 2))

    def test_ldsm_has_a_column_and_stsm_atoms_go_to_other(self):
        k = self.found[("sm_90", "_Z7mmaTilePKfPf")]
        self.assertEqual(k.counts["LDSM"], 2)
        self.assertEqual(k.other, {"STSM.16.M88.2": 1, "ATOMS.ADD": 2})

    def test_architectures_are_kept_apart(self):
        k = self.found[("sm_89", "_Z9asyncCopyI4int4EvPKT_PS1_")]
        self.assertEqual((k.counts["LDGSTS.128"], k.counts["LDS.128"]), (1, 1))

    def test_lines_keep_the_address_and_drop_the_encoding(self):
        k = self.found[("sm_90", "_Z8syncCopyIiEvPKT_PS0_")]
        self.assertEqual(k.lines[2], "/*0140*/               @P0 LDS.U8 R9, [R0+0x3] ;")


class ColumnTest(unittest.TestCase):
    def test_columns(self):
        cases = {"LDS": "LDS", "LDS.U8": "LDS", "LDS.S16": "LDS", "LDS.64": "LDS.64", "LDS.U.128": "LDS.128",
                 "STS.128": "STS.128", "LDGSTS.E": "LDGSTS", "LDGSTS.E.64": "LDGSTS.64",
                 "LDGSTS.E.BYPASS.LTC128B.128": "LDGSTS.128", "LDGSTS.E.LTC128B": "LDGSTS",
                 "LDSM.16.M88.4": "LDSM", "STSM.16.M88.2": "other", "ATOMS.CAS": "other",
                 "LDG.E.128": None, "LDGDEPBAR": None, "ULDC.64": None, "LDC": None, "STL": None}
        for opcode, column in cases.items():
            self.assertEqual(sass_report.column_of(opcode), column, opcode)


class NameTest(unittest.TestCase):
    def test_bare_names_match_the_tests_kernel_names(self):
        cases = {
            "void asyncCopy<int4>(int4 const*, int4*)": "asyncCopy<int4>",
            "void tiledMatmul<16>(float const*, float const*, float*, int, int, int)": "tiledMatmul<16>",
            "void tiledMatmul<(int)16>(const float *, const float *, float *, int, int, int)": "tiledMatmul<16>",
            "void strideRead<(unsigned int)33>(const int *, int *)": "strideRead<33>",
            "bankgate::kernels::(anonymous namespace)::setRowReadColDynIpad(int*)": "setRowReadColDynIpad",
            "transposePadded(float const*, float*, int, int)": "transposePadded",
            "void ns::f<ns::T<1> >(ns::T<1>*)": "f<ns::T<1> >",
            "_Z7mmaTilePKfPf": "_Z7mmaTilePKfPf",
        }
        # The rule is the command's (bankgate kernel-name), asked through tools/bankgate_command.py.
        self.assertEqual(sass_report.bankgate_command.bare_names(list(cases)), cases)

    def test_demangling_through_a_filter_program(self):
        with tempfile.TemporaryDirectory() as tmp:
            tool = pathlib.Path(tmp) / "fake++filt"
            tool.write_text("#!/bin/sh\nwhile read -r name; do echo \"void demangled_$name(int*)\"; done\n")
            tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
            kernels = sass_report.parse(FIXTURE.read_text())
            sass_report.demangle(kernels, str(tool))
        self.assertEqual(kernels[0].name, "demangled__Z9asyncCopyI4int4EvPKT_PS1_")
        self.assertEqual(kernels[0].mangled, "_Z9asyncCopyI4int4EvPKT_PS1_")

    @unittest.skipUnless(shutil.which("cu++filt") or shutil.which("c++filt"), "no c++filt or cu++filt installed")
    def test_demangling_with_the_installed_filter(self):
        kernels = sass_report.parse(FIXTURE.read_text())
        sass_report.demangle(kernels)
        self.assertEqual([k.name for k in kernels],
                         ["asyncCopy<int4>", "syncCopy<int>", "tiledMatmul<32>", "mmaTile", "asyncCopy<int4>"])


class ReportTest(unittest.TestCase):
    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = sass_report.main(list(args))
        return status, out.getvalue(), err.getvalue()

    def test_table(self):
        status, out, _ = self.run_main("--no-demangle", str(FIXTURE))
        self.assertEqual(status, 0)
        lines = out.splitlines()
        self.assertEqual(lines[0].split(), ["kernel", "arch", *sass_report.COLUMNS, "@!PT", "other"])
        rows = {tuple(line.split()[:2]): line.split()[2:] for line in lines[1:6]}
        self.assertEqual(rows[("_Z11tiledMatmulILi32EEvPKfS1_Pfiii", "sm_90")],
                         ["4", "1", "1", "2", "0", "0", "0", "0", "0", "0", "0"])
        self.assertEqual(rows[("_Z9asyncCopyI4int4EvPKT_PS1_", "sm_90")][-1], "2", "the @!PT LDS are counted apart")
        self.assertEqual(rows[("_Z7mmaTilePKfPf", "sm_90")],
                         ["0", "0", "0", "0", "0", "0", "2", "0", "0", "0", "0", "ATOMS.ADDx2", "STSM.16.M88.2x1"])
        self.assertIn("5 kernels; static counts", out)
        self.assertIn("2 never-executed @!PT instructions (issued, so counted as requests) in the @!PT column", out)

    def test_kernel_filter_and_lines(self):
        status, out, _ = self.run_main("--no-demangle", "--kernel", "tiledMatmul", "--lines", str(FIXTURE))
        self.assertEqual(status, 0)
        self.assertIn("_Z11tiledMatmulILi32EEvPKfS1_Pfiii (sm_90, _Z11tiledMatmulILi32EEvPKfS1_Pfiii):", out)
        self.assertIn("  /*02a0*/                   LDS.128 R12, [R18] ;", out)
        self.assertNotIn("asyncCopy", out)

    def test_no_match_and_no_kernels_exit_2(self):
        status, _, err = self.run_main("--no-demangle", "--kernel", "nothingLikeThis", str(FIXTURE))
        self.assertEqual(status, 2)
        self.assertIn("no kernel matches", err)
        with tempfile.NamedTemporaryFile("w", suffix=".sass") as empty:
            empty.write("cuobjdump info    : File 'x.o' does not contain device code\n")
            empty.flush()
            status, _, err = self.run_main(empty.name)
        self.assertEqual(status, 2)
        self.assertIn("no kernel", err)


class ScriptTest(unittest.TestCase):
    """tools/sass-report.sh with a stand-in cuobjdump: finding the kernels library, and its refusals."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)
        self.fake = self.dir / "cuobjdump"
        self.fake.write_text(f"#!/bin/sh\n[ \"$1\" = -sass ] || exit 9\ncat '{FIXTURE}'\n")
        self.fake.chmod(self.fake.stat().st_mode | stat.S_IEXEC)
        self.build = self.dir / "build"
        (self.build / "kernels").mkdir(parents=True)
        (self.build / "kernels" / "libbankgate_kernels.a").write_bytes(b"!<arch>\n")

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, *args, cuobjdump=None):
        env = dict(os.environ, BANKGATE_CUOBJDUMP=str(cuobjdump or self.fake))
        return subprocess.run(["bash", str(ROOT / "tools" / "sass-report.sh"), *args], env=env, capture_output=True,
                              text=True, check=False)

    def test_reports_the_kernels_library_of_a_build(self):
        result = self.script(str(self.build), "--kernel", "Copy")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("libbankgate_kernels.a", result.stdout)
        self.assertIn("3 kernels; static counts", result.stdout)

    def test_missing_cuobjdump_is_named(self):
        result = self.script(str(self.build), cuobjdump=self.dir / "no-such-cuobjdump")
        self.assertEqual(result.returncode, 3)
        self.assertIn("cuobjdump was not found", result.stderr)
        self.assertIn("cuda-cuobjdump", result.stderr)

    def test_missing_build_is_named(self):
        result = self.script(str(self.dir / "no-build"))
        self.assertEqual(result.returncode, 3)
        self.assertIn("no built kernels", result.stderr)


if __name__ == "__main__":
    unittest.main()
