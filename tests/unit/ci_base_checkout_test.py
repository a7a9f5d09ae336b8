#!/usr/bin/env python3
"""The gate jobs of the CI templates read the base branch's baselines, so that a pull request that loosens them is
caught: each gate job fetches the whole history and names the base (BANKGATE_BASE_REF), and this is run, not only
read. A pull request widening a counter tolerance is checked out as actions/checkout does it (GitHub's merge of the
pull request into the base branch): with the checkout's default (one commit, no branches) the check cannot read a
base and fails with exit 2 or 3; with the template's own checkout and BANKGATE_BASE_REF it names the loosening
and fails with exit 1. Needs git and the command (BANKGATE_COMMAND)."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMMAND = os.environ.get("BANKGATE_COMMAND", "")
GITHUB_TEMPLATES = [ROOT / ".github/workflows/bankgate-gate.yml", ROOT / "examples/adopt/ci/bankgate-gate.yml",
                    ROOT / "examples/adopt/ci/bankgate-gate-sharded.yml"]
GITLAB_TEMPLATES = [ROOT / ".gitlab-ci.yml", ROOT / "examples/adopt/ci/bankgate.gitlab-ci.yml",
                    ROOT / "examples/adopt/ci/bankgate-sharded.gitlab-ci.yml"]
BASELINE = next((ROOT / "baselines/sm_90/nvidia-h200").glob("*.json"))
# GitHub's expression for the target branch of a pull request, else the pushed branch.
TARGET = re.compile(r"\$\{\{\s*github\.base_ref \|\| github\.ref_name\s*\}\}")


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def commit_all(repo, message):
    git("add", "-A", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message, cwd=repo)
    return git("rev-parse", "HEAD", cwd=repo)


def widen_first_counter(path):
    data = json.loads(path.read_text())
    test = data["tests"][sorted(data["tests"])[0]]
    counter = test["counters"][sorted(test["counters"])[0]]
    counter["tolerance"] = {"kind": "relative", "amount": 0.5, "reason": "varies"}
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def pull_request_merge(origin):
    """An origin repository with main and a pull request widening a tolerance; returns the merge commit GitHub
    checks out for the pull request."""
    relative = BASELINE.relative_to(ROOT)
    (origin / relative).parent.mkdir(parents=True)
    (origin / relative).write_bytes(BASELINE.read_bytes())
    git("init", "-q", "-b", "main", cwd=origin)
    commit_all(origin, "baselines")
    git("checkout", "-q", "-b", "widen", cwd=origin)
    widen_first_counter(origin / relative)
    commit_all(origin, "widen a tolerance")
    git("checkout", "-q", "--detach", "main", cwd=origin)
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "merge", "-q", "--no-ff", "-m", "merge", "widen",
        cwd=origin)
    merge = git("rev-parse", "HEAD", cwd=origin)
    git("checkout", "-q", "main", cwd=origin)
    return merge


def checkout(origin, into, merge, fetch_depth):
    """As actions/checkout does: the merge commit, with fetch-depth 1 alone; with 0, every branch as well."""
    into.mkdir()
    git("init", "-q", cwd=into)
    git("remote", "add", "origin", origin.as_uri(), cwd=into)
    refspecs = [merge] if fetch_depth != 0 else ["+refs/heads/*:refs/remotes/origin/*", merge]
    depth = ["--depth", str(fetch_depth)] if fetch_depth != 0 else []
    git("-c", "protocol.file.allow=always", "fetch", "-q", *depth, "origin", *refspecs, cwd=into)
    git("checkout", "-q", "--detach", merge, cwd=into)


def gate_job(workflow):
    jobs = workflow.get("jobs") or {}
    return jobs.get("gate")


def check_baselines(folder, env):
    environment = {k: v for k, v in os.environ.items() if k not in ("BANKGATE_BASE_REF", "CI")}
    environment.update(env)
    return subprocess.run([COMMAND, "check-baselines", "--baselines", str(folder)], env=environment,
                          capture_output=True, text=True, timeout=120)


@unittest.skipUnless(COMMAND, "BANKGATE_COMMAND is not set (ctest sets it)")
class GitHubGateJobsReadTheBase(unittest.TestCase):
    def test_each_gate_job_reads_the_base_and_catches_a_widened_tolerance(self):
        for template in GITHUB_TEMPLATES:
            with self.subTest(template=str(template.relative_to(ROOT))), tempfile.TemporaryDirectory() as tmp:
                job = gate_job(yaml.safe_load(template.read_text()))
                steps = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@")]
                depth = (steps[0].get("with") or {}).get("fetch-depth", 1)
                base_ref = (job.get("env") or {}).get("BANKGATE_BASE_REF", "")
                self.assertRegex(base_ref, TARGET, "the gate job names no base branch (BANKGATE_BASE_REF)")
                origin, work = pathlib.Path(tmp) / "origin", pathlib.Path(tmp) / "work"
                origin.mkdir()
                merge = pull_request_merge(origin)
                checkout(origin, work, merge, depth)
                result = check_baselines(work / "baselines", {"BANKGATE_BASE_REF": TARGET.sub("main", base_ref)})
                self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
                self.assertIn("LOOSENED", result.stdout)

    def test_the_checkouts_default_cannot_read_the_base_and_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            origin, work = pathlib.Path(tmp) / "origin", pathlib.Path(tmp) / "work"
            origin.mkdir()
            checkout(origin, work, pull_request_merge(origin), 1)
            result = check_baselines(work / "baselines", {})
            self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
            self.assertIn("fetch-depth: 0", result.stderr)
            result = check_baselines(work / "baselines", {"BANKGATE_BASE_REF": "origin/main"})
            self.assertEqual(result.returncode, 3, result.stdout + result.stderr)


GPU_FREE = ROOT / "examples/adopt/ci/bankgate-baselines.yml"
PLANTED = ROOT / "tests/unit/fixtures/report/planted-run"
SKIPPED_STEPS = ("Install the build's tools", "Build the bankgate command")


def run_job(job, workdir, env, artifacts=None):
    """The job's steps in `workdir` as the runner would run them, the command built here standing for the build's:
    installing and building are left out, a download is a copy of `artifacts` into the step's path. Returns the
    exit code of the first step that failed (0 where none did) and the output."""
    environment = {k: v for k, v in os.environ.items() if k not in ("BANKGATE_BASE_REF", "CI")}
    environment.update({"CI": "true", "BANKGATE": COMMAND, **env})
    output = ""
    for step in job["steps"]:
        if step.get("name") in SKIPPED_STEPS or str(step.get("uses", "")).startswith(("actions/checkout@",
                                                                                       "actions/upload-artifact@")):
            continue
        if str(step.get("uses", "")).startswith("actions/download-artifact@"):
            shutil.copytree(artifacts, workdir / step["with"]["path"])
            continue
        result = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=workdir, env=environment, capture_output=True,
                                text=True, timeout=120)
        output += result.stdout + result.stderr
        if result.returncode != 0:
            return result.returncode, output
    return 0, output


@unittest.skipUnless(COMMAND, "BANKGATE_COMMAND is not set (ctest sets it)")
class GpuFreeJobsRun(unittest.TestCase):
    def setUp(self):
        self.workflow = yaml.safe_load(GPU_FREE.read_text())
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def test_check_baselines_fails_a_pull_request_that_widens_a_tolerance(self):
        job = self.workflow["jobs"]["check-baselines"]
        origin, work = pathlib.Path(self.tmp.name) / "origin", pathlib.Path(self.tmp.name) / "work"
        origin.mkdir()
        checkout(origin, work, pull_request_merge(origin), 0)
        env = {k: TARGET.sub("main", re.sub(r"\$\{\{\s*github\.base_ref\s*\}\}", "main", str(v)))
               for k, v in (job.get("env") or {}).items()}
        code, output = run_job(job, work, env)
        self.assertEqual(code, 1, output)
        self.assertIn("LOOSENED", output)

    def test_promote_writes_the_gate_runs_candidates_and_keeps_a_patch(self):
        job = self.workflow["jobs"]["promote"]
        work = pathlib.Path(self.tmp.name) / "work"
        shutil.copytree(PLANTED / "baselines", work / "baselines")
        git("init", "-q", "-b", "main", cwd=work)
        commit_all(work, "baselines")
        artifacts = pathlib.Path(self.tmp.name) / "artifact"
        shutil.copytree(PLANTED / "candidates", artifacts / "candidates")
        code, output = run_job(job, work, {}, artifacts)
        self.assertEqual(code, 0, output)
        patch = (work / "bankgate-baselines.patch").read_text()
        self.assertIn("baselines/sm_90/nvidia-h200/Transpose.json", patch)
        self.assertIn("changed ", output)


class GitLabGateJobsReadTheBase(unittest.TestCase):
    def test_each_gate_job_clones_the_whole_history_and_names_the_merge_base(self):
        for template in GITLAB_TEMPLATES:
            with self.subTest(template=str(template.relative_to(ROOT))):
                job = yaml.safe_load(template.read_text())["bankgate-gate"]
                variables = job.get("variables") or {}
                self.assertEqual(str(variables.get("GIT_DEPTH")), "0")
                named = str(variables.get("BANKGATE_BASE_REF", "")) + "\n".join(map(str, job.get("script") or []))
                self.assertIn("CI_MERGE_REQUEST_DIFF_BASE_SHA", named)


if __name__ == "__main__":
    unittest.main()
