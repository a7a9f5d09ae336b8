#!/usr/bin/env python3
"""tools/ncu_compare.py on fixtures, without a GPU: tests/unit/fixtures/ncu_compare/ holds collector candidates of
Transpose.NaiveSquare and Transpose.PaddedNonSquare and an ncu CSV of the two kernels, cut from a real ncu 2025.3
run on the H200 (--csv --page raw --print-units base; other columns dropped). Further ncu runs
(BANKGATE_NCU_REPEATS) are written by the tests with other values for PaddedNonSquare, whose collector value
68669 is the one that fell 2.5% below a single ncu run (70439) of the multi-block kernel.

Run: python3 -m unittest discover -s tests/unit -p ncu_compare_test.py   (CTest runs it as unit test ncu_compare)
"""
import csv
import io
import json
import pathlib
import re
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "unit" / "fixtures" / "ncu_compare"
sys.path.insert(0, str(ROOT / "tools"))
import ncu_compare  # noqa: E402  (lives in tools/, beside ncu-crosscheck.sh)

LD = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
ST = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
LD_REQUESTS = "smsp__sass_inst_executed_op_shared_ld.sum"
SPREAD = "within ncu's run-to-run spread"
TOLERATED = "within tolerance (multi-block contention)"


class Case:
    """A copy of the fixtures in a temporary folder, where further ncu runs can be added."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)
        shutil.copytree(FIXTURES, self.dir, dirs_exist_ok=True)
        self.ncu = self.dir / "ncu"
        self.first = (self.ncu / "transpose_suite.csv").read_text()

    def add_run(self, number, padded=None, drop_last_kernel=False):
        """transpose_suite.run<number>.csv: run 1 with the PaddedNonSquare row's metrics replaced."""
        start = self.first.find('"ID"')
        rows = list(csv.reader(io.StringIO(self.first[start:])))
        header = rows[0]
        for row in rows[2:]:
            if row[header.index("Kernel Name")] == "transposePadded":
                for metric, value in (padded or {}).items():
                    row[header.index(metric)] = f"{value:,}"
        if drop_last_kernel:
            rows = rows[:-1]
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
        (self.ncu / f"transpose_suite.run{number}.csv").write_text(self.first[:start] + out.getvalue())

    def compare(self):
        out = io.StringIO()
        argv = sys.argv
        sys.argv = ["ncu_compare.py", str(self.dir / "candidates"), str(self.ncu)]
        try:
            with redirect_stdout(out):
                status = ncu_compare.main()
        finally:
            sys.argv = argv
        return status, out.getvalue()

    def close(self):
        self.tmp.cleanup()


def verdict_of(output, test, metric):
    for line in output.splitlines():
        if line.startswith(test + " ") and f" {metric} " in line:
            return re.split(r"\s{2,}", line.strip())[-1]  # columns are padded with two or more spaces
    raise AssertionError(f"no row for {test} {metric} in:\n{output}")


class CompareTest(unittest.TestCase):
    def setUp(self):
        self.case = Case()

    def tearDown(self):
        self.case.close()

    def test_one_run_keeps_the_original_table(self):
        status, out = self.case.compare()
        self.assertEqual(status, 1, out)
        self.assertEqual(out.splitlines()[0].split(), ["test", "metric", "collector", "ncu", "verdict"])
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD), "DIFFERENT")
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", ST), TOLERATED)
        self.assertEqual(verdict_of(out, "Transpose.NaiveSquare", LD), "equal")
        self.assertIn("ncu cross-check: 8 counters of 2 kernels compared: 6 equal, 1 within their written "
                      "tolerance, 1 different", out)
        self.assertNotIn("spread", out)

    def test_a_value_inside_ncus_own_spread_agrees(self):
        self.case.add_run(2, {LD: 68000})
        self.case.add_run(3, {LD: 69217})
        status, out = self.case.compare()
        self.assertEqual(status, 0, out)
        header = out.splitlines()[0].split("  ")
        self.assertEqual([h.strip() for h in header if h.strip()],
                         ["test", "metric", "collector", "ncu (run 1)", "ncu min", "ncu max", "ncu spread", "verdict"])
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD), SPREAD)
        row = next(line for line in out.splitlines() if line.startswith("Transpose.PaddedNonSquare") and LD in line)
        self.assertEqual(row.split()[2:7], ["68669", "70439", "68000", "70439", "3.59%"])
        self.assertIn("6 equal, 1 within ncu's own run-to-run spread, 1 within their written tolerance, 0 different", out)

    def test_a_value_within_its_tolerance_of_the_nearest_run_agrees(self):
        # 69217 - 68669 = 548, inside 2% of 68669 (1373); run 1 alone (70439, 1770 away) is not.
        self.case.add_run(2, {LD: 69217})
        status, out = self.case.compare()
        self.assertEqual(status, 0, out)
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD), TOLERATED)

    def test_a_value_beyond_its_tolerance_of_every_run_differs(self):
        self.case.add_run(2, {LD: 70100})
        self.case.add_run(3, {LD: 71597})
        status, out = self.case.compare()
        self.assertEqual(status, 1, out)
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD), "DIFFERENT")
        self.assertIn(", 1 different", out)

    def test_an_exact_counter_that_moves_between_ncu_runs_is_named(self):
        self.case.add_run(2, {LD_REQUESTS: 65281})
        self.case.add_run(3, {LD_REQUESTS: 65279})
        status, out = self.case.compare()
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD_REQUESTS), SPREAD)
        self.assertIn("counters gated exactly that changed between ncu runs:\n  Transpose.PaddedNonSquare "
                      + LD_REQUESTS, out)
        self.assertEqual(status, 1, "run 1 alone still puts ld wavefronts beyond their tolerance")

    def test_runs_are_read_in_numeric_order(self):
        for number in (10, 2, 3):
            self.case.add_run(number)
        names = [p.name for p in ncu_compare.ncu_runs(self.case.ncu, "transpose_suite")]
        self.assertEqual(names, ["transpose_suite.csv", "transpose_suite.run2.csv", "transpose_suite.run3.csv",
                                 "transpose_suite.run10.csv"])

    def test_a_run_that_profiled_other_kernels_is_reported(self):
        self.case.add_run(2, {LD: 68669}, drop_last_kernel=True)
        status, out = self.case.compare()
        self.assertEqual(status, 1, out)
        self.assertIn("transpose_suite: ncu profiled 1 kernel for 2 tests (run 2 of 2)", out)

    def test_a_missing_candidate_is_reported(self):
        (self.case.dir / "candidates/sm_90/nvidia-h200/Transpose/NaiveSquare.json").unlink()
        status, out = self.case.compare()
        self.assertEqual(status, 1, out)
        self.assertIn("Transpose.NaiveSquare: no collector candidate", out)

    def test_each_kernel_of_a_case_that_launched_two_is_compared_with_its_own_row(self):
        """The two fixture kernels as the two launches of one case: ncu's two rows go to them in launch order, and
        the gate judges a counter beyond ncu's value per kernel (the padded transpose's loads, 2.5% off)."""
        cand = self.case.dir / "candidates/sm_90/nvidia-h200/Transpose"
        naive = json.loads((cand / "NaiveSquare.json").read_text())
        padded = json.loads((cand / "PaddedNonSquare.json").read_text())
        kernels = [naive["tests"]["NaiveSquare"], padded["tests"]["PaddedNonSquare"]]
        for kernel in kernels:
            del kernel["correct"]
        naive["tests"] = {"RoundTrip": {"correct": True, "kernels": kernels}}
        for single in ("NaiveSquare.json", "PaddedNonSquare.json"):
            (cand / single).unlink()
        (cand / "RoundTrip.json").write_text(json.dumps(naive, indent=2))
        (self.case.ncu / "transpose_suite.tests").write_text("Transpose.\n  RoundTrip\n")
        status, out = self.case.compare()
        self.assertEqual(status, 1, out)
        self.assertEqual(verdict_of(out, "Transpose.RoundTrip (transposeNaive)", LD), "equal")
        self.assertEqual(verdict_of(out, "Transpose.RoundTrip (transposePadded)", LD), "DIFFERENT")
        self.assertEqual(verdict_of(out, "Transpose.RoundTrip (transposePadded)", ST), TOLERATED)
        self.assertIn("8 counters of 2 kernels compared", out)
        self.case.add_run(2, {LD: 68669}, drop_last_kernel=True)
        self.assertIn("ncu profiled 1 kernel for 1 test (2 kernels) (run 2 of 2)", self.case.compare()[1])


class SpreadTest(unittest.TestCase):
    def test_where_a_value_lies_against_ncus_runs(self):
        self.assertEqual(ncu_compare.spread_verdict(100, [100]), "equal")
        self.assertEqual(ncu_compare.spread_verdict(100, [100, 100, 100]), "equal")
        self.assertEqual(ncu_compare.spread_verdict(100, [99, 101]), SPREAD)
        self.assertIsNone(ncu_compare.spread_verdict(100, [101]))
        self.assertEqual(ncu_compare.nearest(100, [103, 110]), 103)
        self.assertEqual(ncu_compare.nearest(100, [90, 80]), 90)


class GateRuleTest(unittest.TestCase):
    """Outside ncu's spread the verdict is the gate's: the written tolerance of the nearest ncu run, applied by
    the bankgate command like any baseline's (relative to the baseline, here ncu's value)."""

    def setUp(self):
        self.case = Case()

    def tearDown(self):
        self.case.close()

    def test_the_tolerance_is_relative_to_ncus_value_as_to_a_baseline(self):
        # 70060 - 68669 = 1391: beyond 2% of the collector's 68669 (1373), within 2% of ncu's 70060 (1401).
        self.case.add_run(2, {LD: 70060})
        status, out = self.case.compare()
        self.assertEqual(verdict_of(out, "Transpose.PaddedNonSquare", LD), TOLERATED)
        self.assertEqual(status, 0, out)


if __name__ == "__main__":
    unittest.main()
