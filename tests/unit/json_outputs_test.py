"""Every JSON output of bankgate validates against its schema in schemas/ (python3-jsonschema).

    json_outputs_test.py PATH/TO/bankgate PROJECT_VERSION

The command writes each model from fixtures, no GPU needed: the gate's summary (a regression, tests that could
not measure, a wrong output), `review --json` and `compare --json` (two builds' rounds, one slower); the
candidates and every committed baseline are checked against theirs. `bankgate --version` must be CMake's.
A schema that stopped matching what the command writes, or a field written as text that should be a number,
fails here. So does an output that breaks its contract on hostile input: times that are no duration (negative,
NaN, text), a date in another form, bytes that are not UTF-8 in --command, BANKGATE_GIT_COMMIT, --build or a
kernel name; and a JSON writer that does not go through text.hpp's json_text.
"""
import copy
import json
import re
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

from validate_output import problems

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "unit" / "fixtures" / "gate_summary"
TOOL = VERSION = None
LOAD = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
GPU = {"arch": "sm_90", "model": "nvidia-h200"}
PROVENANCE = {"gpu_name": "NVIDIA H200", "chip": "GH100", "compute_capability": "9.0", "multiprocessor_count": 132,
              "driver_version": 13000, "driver_release": "580.159.04", "cuda_runtime_version": 13000,
              "cupti_version": 130000, "git_commit": "0123abcd", "git_dirty": False, "date": "2026-11-21T23:59:00Z",
              "command": "fixture"}


def timing(median):
    """A timing summary whose samples are all `median`: consistent by construction, as the reader demands."""
    return {"median_ns": median, "mad_ns": 0, "p10_ns": median, "p90_ns": median, "min_ns": median, "samples": 40,
            "median_se_ns": 0, "tolerance": {"relative": 0.03, "absolute_ns": 64}, "l2": "warm",
            "launches_per_sample": 1, "warmup_launches": 2, "dropped_samples": 0, "sm_clock_mhz": 1980}


def suite_file(path, suite, tests, **extra):
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {"schema_version": 4, "suite": suite, "gpu": GPU, "provenance": PROVENANCE, "tests": tests, **extra}
    path.write_text(json.dumps(document, indent=2))


def counter_test(kernel, value, median=None, correct=True):
    test = {"kernel": kernel, "correct": correct, "counters": {LOAD: {"value": value, "tolerance": {"kind": "exact"}}}}
    if median is not None:
        test["timing"] = timing(median)
        test["samples_ns"] = [median] * 40
    return test


def result_record(folder, suite, test, outcome, findings=(), wrong_output=False, messages=("failed",)):
    """A test's result record, as the suite process writes it (gate/protocol/test_result.hpp)."""
    folder.mkdir(parents=True, exist_ok=True)
    record = {"schema": "bankgate-test-result", "schema_version": 1, "suite": suite, "test": test, "outcome": outcome,
              "seconds": 0.5, "messages": list(messages), "properties": {}, "wrong_output": wrong_output,
              "findings": list(findings)}
    (folder / f"{suite}.{test}.result.json").write_text(json.dumps(record))


def counter_finding(measured, baseline, kernel=None):
    finding = {"metric": LOAD, "timing": False, "measured": measured, "baseline": baseline, "change": None,
               "tolerance": "exact", "verdict": "counter_changed", "detail": ""}
    return {**finding, "kernel": kernel} if kernel else finding


def bankgate(*args, expect=(0, 1, 2, 5)):
    done = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True)
    if done.returncode not in expect:
        raise AssertionError(f"bankgate {' '.join(map(str, args))} exited {done.returncode}:\n{done.stderr}")
    return done


class Outputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assertValid(self, schema, path):
        document = json.loads(pathlib.Path(path).read_text())
        self.assertEqual(problems(schema, document), [], f"{path} against {schema}")
        return document

    def gate_run(self):
        """Candidates and baselines for the fixture run: one counter regression, one wrong output."""
        cand, base = self.dir / "candidates", self.dir / "baselines"
        suite_file(cand / "sm_90/nvidia-h200/SquareTile/setRowReadColIpad.json", "SquareTile",
                   {"setRowReadColIpad": counter_test("setRowReadColIpad", 1024, 1500.5)})
        suite_file(cand / "sm_90/nvidia-h200/Transpose/unrecorded.json", "Transpose",
                   {"unrecorded": counter_test("unrecorded", 32, correct=False)})
        suite_file(base / "sm_90/nvidia-h200/SquareTile.json", "SquareTile", {"setRowReadColIpad": counter_test("setRowReadColIpad", 32)})
        suite_file(base / "sm_90/nvidia-h200/Transpose.json", "Transpose", {"unrecorded": counter_test("unrecorded", 32)})
        return cand, base

    def test_the_summary_of_a_regression_validates_with_numbers_and_ids(self):
        cand, base = self.gate_run()
        records = self.dir / "records"
        shutil.copytree(FIXTURES / "gtest-results", records)
        result_record(records, "Transpose", "unrecorded", "regressed", wrong_output=True)
        out = self.dir / "summary.json"
        done = bankgate("summary", "--gtest-results", records,
                        "--candidates", cand, "--baselines", base, "--json", out)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        summary = self.assertValid("summary.schema.json", out)
        self.assertEqual((summary["schema"], summary["tool"]["version"], summary["verdict"]), ("bankgate-summary", VERSION, "regressed"))
        self.assertEqual(summary["provenance"]["commit"], "0123abcd")
        self.assertEqual(summary["provenance"]["baseline_commits"], ["0123abcd"])
        self.assertEqual(summary["provenance"]["gpus"][0]["driver_release"], "580.159.04")
        tests = {t["name"]: t for t in summary["tests"]}
        change = tests["SquareTile.setRowReadColIpad"]["changes"][0]
        self.assertEqual((change["metric"], change["measured"], change["baseline"], change["verdict"]), (LOAD, 1024, 32, "counter_changed"))
        self.assertAlmostEqual(change["change"], 31.0)
        self.assertIn("wrong_output", [c["verdict"] for c in tests["Transpose.unrecorded"]["changes"]])
        self.assertIn("not_measured", {t["outcome"] for t in summary["tests"]})
        self.assertIn("skipped", {t["outcome"] for t in summary["tests"]})

    def test_a_summary_without_any_input_still_validates(self):
        out = self.dir / "summary.json"
        done = bankgate("summary", "--gtest-results", self.dir / "absent", "--json", out)
        self.assertEqual(done.returncode, 2)
        summary = self.assertValid("summary.schema.json", out)
        self.assertEqual((summary["verdict"], summary["tests"]), ("not_measured", []))

    def test_review_rows_validate(self):
        cand, base = self.gate_run()
        out = self.dir / "review.json"
        done = bankgate("review", "--candidates", cand, "--baselines", base, "--gpu", "sm_90/nvidia-h200", "--json", out)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        review = self.assertValid("review.schema.json", out)
        verdicts = {(r["test"], r["metric"]): r["verdict"] for r in review["rows"]}
        self.assertEqual(verdicts[("setRowReadColIpad", LOAD)], "counter_changed")
        self.assertEqual(verdicts[("setRowReadColIpad", "duration (median)")], "not_in_baseline")
        self.assertIsNone([r for r in review["rows"] if r["timing"]][0]["baseline"])

    def rounds(self, side, medians):
        for i, median in enumerate(medians, start=1):
            suite_file(self.dir / side / f"round-{i}/sm_90/nvidia-h200/Transpose/naive.json", "Transpose",
                       {"naive": counter_test("naive", 64, median)})
        return self.dir / side

    def test_compare_validates_and_calls_a_clear_slowdown_slower(self):
        base = self.rounds("base", [1000, 1001, 999, 1000, 1000])
        head = self.rounds("head", [1100, 1101, 1099, 1100, 1100])
        out = self.dir / "compare.json"
        done = bankgate("compare", "--base", base, "--head", head, "--json", out)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        compare = self.assertValid("compare.schema.json", out)
        duration = [f for t in compare["tests"] for f in t["findings"] if f["timing"]][0]
        self.assertEqual((compare["verdict"], duration["verdict"], duration["baseline"], duration["measured"]),
                         ("regressed", "slower", 1000, 1100))

    def test_compare_pools_tests_with_more_rounds_than_others(self):
        # As compare's extra time leaves them: one test in every round folder, another in the first few only.
        base = self.rounds("base", [1000, 1002, 998, 1000, 1001, 999, 1000, 1000])
        head = self.rounds("head", [1000, 1001, 999, 1002, 998, 1000, 1001, 999])
        for side in ("base", "head"):
            for i in range(1, 4):
                suite_file(self.dir / side / f"round-{i}/sm_90/nvidia-h200/Other/short.json", "Other",
                           {"short": counter_test("short", 8, 2000 + i)})
        out = self.dir / "compare.json"
        done = bankgate("compare", "--base", base, "--head", head, "--json", out)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        compare = self.assertValid("compare.schema.json", out)
        rounds = {t["name"]: (t["rounds"]["base"], t["rounds"]["head"]) for t in compare["tests"]}
        self.assertEqual(rounds, {"Transpose.naive": (8, 8), "Other.short": (3, 3)})
        self.assertNotIn("extra_time", compare, "candidate folders get no extra time")

    def test_candidates_and_committed_baselines_validate(self):
        cand, _ = self.gate_run()
        for path in cand.rglob("*.json"):
            self.assertValid("candidate.schema.json", path)
        committed = list(ROOT.glob("baselines/*/*/*.json")) + list(ROOT.glob("examples/adopt/baselines/*/*/*.json"))
        self.assertTrue(committed)
        for path in committed:
            self.assertValid("baseline.schema.json", path)

    def test_the_schemas_refuse_what_the_models_forbid(self):
        cand, base = self.gate_run()
        out = self.dir / "summary.json"
        bankgate("summary", "--gtest-results", FIXTURES / "gtest-results", "--candidates", cand, "--baselines", base, "--json", out)
        summary = json.loads(out.read_text())
        as_text = copy.deepcopy(summary)
        as_text["tests"][0]["seconds"] = "0.5"
        self.assertTrue(problems("summary.schema.json", as_text), "a number written as text is refused")
        display = copy.deepcopy(summary)
        display["tests"][0]["outcome"] = "NOT MEASURED"
        self.assertTrue(problems("summary.schema.json", display), "a display word is no outcome id")
        baseline = json.loads(next(ROOT.glob("baselines/*/*/*.json")).read_text())
        baseline["tests"][next(iter(baseline["tests"]))]["samples_ns"] = [1.0]
        self.assertTrue(problems("baseline.schema.json", baseline), "a baseline keeps no raw samples")

    def test_times_and_dates_the_schema_cannot_take_are_written_as_unknown(self):
        """A test without a record has no time, and a candidate's date comes from a file: what is no UTC date becomes ""."""
        records = self.dir / "records"
        records.mkdir()
        (records / "suite.0.plan.json").write_text(json.dumps({
            "schema": "bankgate-test-plan", "schema_version": 1, "program": "suite", "shard": 0, "filter": "",
            "tests": [f"T.t{i}" for i in range(3)] + ["Transpose.naive"], "problem": ""}))
        cand = self.dir / "candidates"
        suite_file(cand / "sm_90/nvidia-h200/Transpose/naive.json", "Transpose", {"naive": counter_test("naive", 64)},
                   provenance={**PROVENANCE, "date": "yesterday, around noon"})
        out = self.dir / "summary.json"
        done = bankgate("summary", "--gtest-results", records, "--candidates", cand, "--json", out,
                        "--junit-out", self.dir / "out.xml")
        # No test left a result record: not measured (2); the times are still written, as unknown.
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        summary = self.assertValid("summary.schema.json", out)
        self.assertEqual([t["seconds"] for t in summary["tests"]], [None] * 4)
        self.assertEqual(summary["provenance"]["measured"], "")

    def test_strings_that_are_not_utf8_are_written_with_replacement_characters(self):
        """--command, BANKGATE_GIT_COMMIT, a --build folder and kernel names of any bytes: valid JSON, no exception."""
        cand, base = self.dir / "candidates", self.dir / "promoted"
        suite_file(cand / "sm_90/nvidia-h200/Transpose/naive.json", "Transpose", {"naive": counter_test("naive", 64)})
        environment = {**os.environb, b"BANKGATE_GIT_COMMIT": b"ab\xfe"}
        done = subprocess.run([TOOL, "promote", "--candidates", cand, "--baselines", base, "--new-gpu", "--force",
                               "--command", b"refresh \xff --filter x"], capture_output=True, env=environment)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertNotIn(b"json.exception", done.stdout + done.stderr)
        baseline = self.assertValid("baseline.schema.json", base / "sm_90/nvidia-h200/Transpose.json")
        self.assertEqual((baseline["provenance"]["command"], baseline["provenance"]["git_commit"]),
                         ("refresh \ufffd --filter x", "ab\ufffd"))
        names = subprocess.run([TOOL, "kernel-name"], input=b"void k<\xff>(int)\n", capture_output=True)
        self.assertEqual(names.returncode, 0, names.stderr)
        self.assertEqual(json.loads(names.stdout)[0]["name"], "void k<\ufffd>(int)")
        protocol = subprocess.run([TOOL, "protocol", "--build", b"build\xff"], capture_output=True)
        self.assertEqual(protocol.returncode, 0, protocol.stderr)
        self.assertIn("build\ufffd", json.loads(protocol.stdout)["layout"]["gate"])

    def test_every_json_writer_goes_through_json_text(self):
        """One place makes JSON text (text.hpp's json_text): a writer of its own would throw on invalid UTF-8 again."""
        writers = [f"{path.relative_to(ROOT)}:{n}" for folder in ("core", "cupti_collector", "gate", "gtest", "cli")
                   for path in (ROOT / folder).rglob("*.[ch]pp") for n, line in enumerate(path.read_text().splitlines(), 1)
                   if ".dump(" in line and path.name != "text.cpp"]
        self.assertEqual(writers, [])

    def test_a_case_of_two_kernels_validates_in_every_model(self):
        """A library call's two kernels, the second's loads turned 32-way: its change names the kernel."""
        cand, base = self.dir / "candidates", self.dir / "baselines"
        def two(second_load, samples=True):
            kernels = [counter_test("reducePartials", 64, 900.0), counter_test("reduceFinal", second_load, 700.0)]
            for kernel in kernels:
                del kernel["correct"]
                if not samples:
                    del kernel["samples_ns"]
            return {"correct": True, "kernels": kernels}
        suite_file(cand / "sm_90/nvidia-h200/Reduce/twoPass.json", "Reduce", {"twoPass": two(1024)})
        suite_file(base / "sm_90/nvidia-h200/Reduce.json", "Reduce", {"twoPass": two(32, samples=False)})
        self.assertValid("candidate.schema.json", cand / "sm_90/nvidia-h200/Reduce/twoPass.json")
        self.assertValid("baseline.schema.json", base / "sm_90/nvidia-h200/Reduce.json")
        records = self.dir / "records"
        result_record(records, "Reduce", "twoPass", "regressed", [counter_finding(1024, 32, kernel="reduceFinal")])
        (records / "reduce.0.plan.json").write_text(json.dumps({
            "schema": "bankgate-test-plan", "schema_version": 1, "program": "reduce", "shard": 0, "filter": "",
            "tests": ["Reduce.twoPass"], "problem": ""}))
        out = self.dir / "summary.json"
        done = bankgate("summary", "--gtest-results", records, "--candidates", cand, "--baselines", base,
                        "--json", out)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        summary = self.assertValid("summary.schema.json", out)
        change = summary["tests"][0]["changes"][0]
        self.assertEqual((change["kernel"], change["metric"], change["display_name"]),
                         ("reduceFinal", LOAD, "reduceFinal: shared load transactions"))
        review = self.dir / "review.json"
        bankgate("review", "--candidates", cand, "--baselines", base, "--gpu", "sm_90/nvidia-h200", "--json", review)
        rows = self.assertValid("review.schema.json", review)["rows"]
        self.assertIn(("reduceFinal", "counter_changed"), {(r.get("kernel"), r["verdict"]) for r in rows})
        both = copy.deepcopy(two(1024))
        both["kernels"][0]["samples_ns"] = [1.0]
        self.assertTrue(problems("baseline.schema.json", {**json.loads((base / "sm_90/nvidia-h200/Reduce.json").read_text()),
                                                          "tests": {"twoPass": both}}), "a baseline keeps no raw samples")

    def test_the_version_is_cmakes_and_names_the_commit(self):
        printed = bankgate("--version", expect=(0,)).stdout.strip()
        self.assertRegex(printed, rf"^bankgate {re.escape(VERSION)} \(commit ([0-9a-f]{{40}}(-dirty)?|unknown)\)$")


if __name__ == "__main__":
    TOOL, VERSION = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1])
