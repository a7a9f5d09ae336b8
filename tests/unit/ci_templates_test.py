#!/usr/bin/env python3
"""The CI templates, checked without a CI service or a GPU: .github/workflows/bankgate-gate.yml and
.gitlab-ci.yml must parse as YAML, run nothing but ci/ scripts (so CI can be reproduced by hand), run on the GPU
runner only for this repository's own branches (a fork's code must never reach the self-hosted machine), and
keep the gate's results (JUnit, candidates, summary) when the gate fails. The templates for projects adopting
bankgate (examples/adopt/ci/) are held to the same fork guard and read-only token, and besides: a gate job and
a compare job for pull requests (bankgate compare-commits from the merge base, with the whole history), one
run per pull request or branch, the GPU architecture from a variable, every GPU of the runner for the gate; the
comment workflow runs on workflow_run alone, checks out and runs nothing, and may write pull requests only. Their
gate jobs append to a shared history store whose URL comes from a secret (GitHub) or a CI/CD variable (GitLab),
never from the file, and keep what the store did not take (history-pending) as artifacts. With bankgate from an
installed package (BANKGATE_PREFIX) the command comes from the prefix, CMAKE_PREFIX_PATH holds it, and the compare
job asks the build for no target bankgate (the GitLab jobs run with stand-ins to show it).
The templates of a gate split over runners (bankgate-gate-sharded.yml, bankgate-sharded.gitlab-ci.yml): one part
per matrix value or parallel job, given by the CI's own variable, every part's reports kept under a name of its
own, and a merge job that waits for all of them, runs whatever they ended with and gives the verdict.

Each rule is a function that returns the problems it finds; the tests run them on the committed files, which
must have none, and on altered copies, each of which must be caught, so that the rules can fail.

Run: python3 tests/unit/ci_templates_test.py   (CTest runs it as unit test ci_templates)
BANKGATE_CI_TEMPLATES_ROOT=DIR checks the templates of another tree (DIR/.github, DIR/.gitlab-ci.yml, DIR/ci).
"""
import copy
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile
import unittest

import yaml

ROOT = pathlib.Path(os.environ.get("BANKGATE_CI_TEMPLATES_ROOT") or pathlib.Path(__file__).resolve().parents[2])
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import bankgate_command  # noqa: E402  (lives in tools/: the scripts' way to ask the command)
GITHUB = ROOT / ".github" / "workflows" / "bankgate-gate.yml"
GITLAB = ROOT / ".gitlab-ci.yml"

FORK_GUARD = "github.event.pull_request.head.repo.full_name == github.repository"
# The job conditions accepted: every pull request must pass the guard. Anything else
# (an "|| always()", a guard inside a negation) is refused rather than reasoned about.
GUARDED_CONDITIONS = (
    f"github.event_name != 'pull_request' || {FORK_GUARD}",
    f"github.event_name == 'pull_request' && {FORK_GUARD}",
    FORK_GUARD,
)
# Actions are code as well; GitHub's own are the only ones let onto the GPU machine.
ALLOWED_ACTIONS = ("actions/checkout@", "actions/upload-artifact@")
GPU_LABELS = {"self-hosted", "linux", "gpu"}
GITLAB_FORK_RULE = "$CI_MERGE_REQUEST_SOURCE_PROJECT_ID != $CI_PROJECT_ID"
GITLAB_KEYWORDS = {"default", "include", "stages", "variables", "workflow", "image", "services", "cache",
                   "before_script", "after_script"}

ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
CI_SCRIPT = re.compile(r"ci/[A-Za-z0-9_.-]+")
# Anything that would let one line run a second program: separators, pipes, redirections, substitutions,
# subshells, and GitHub expressions, which paste event text (a branch name, a title) into the shell.
SHELL_SYNTAX = re.compile(r"[;&|<>`(){}]|\$\(|\$\{\{")


def normalize(condition):
    """A GitHub condition without its optional ${{ }} wrapper and with single spaces."""
    text = " ".join(str(condition).split())
    match = re.fullmatch(r"\$\{\{ ?(.*?) ?\}\}", text)
    return match.group(1) if match else text


def command_lines(text):
    """The commands of a run: block or script entry: one per line, continuation lines joined, comments and
    blank lines dropped."""
    joined = re.sub(r"\\\n", " ", str(text))
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def program(line):
    """The program a plain command line starts (the first word after environment assignments); None for a
    line with shell syntax or unbalanced quotes, which command_problems reports."""
    if SHELL_SYNTAX.search(line):
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    while words and ASSIGNMENT.match(words[0]):
        words.pop(0)
    return words[0] if words else ""


def programs(text):
    return [program(line) for line in command_lines(text)]


def command_problems(where, text, root=ROOT):
    """Problems with one command entry: each line must start a ci/ script of this tree, optionally after
    environment assignments, and contain no shell syntax that could start anything else."""
    problems = []
    for line in command_lines(text):
        started = program(line)
        if started is None:
            problems.append(f"{where}: '{line}' uses shell syntax, an expression or unbalanced quotes; "
                            "run a ci/ script instead")
        elif not CI_SCRIPT.fullmatch(started):
            problems.append(f"{where}: '{line}' runs something other than a ci/ script")
        elif not os.access(root / started, os.X_OK):
            problems.append(f"{where}: '{line}' names {started}, which is not an executable file of this tree")
    return problems


# The first major version of each action that runs on Node.js 24 (runner 2.327.1 or newer); older ones run on
# the deprecated Node.js 20.
NODE24_MAJORS = {"actions/checkout": 5, "actions/upload-artifact": 6, "actions/download-artifact": 7}


def node24_major_wanted(uses):
    """The first major version on Node.js 24 where `uses` names an older release of one of NODE24_MAJORS's
    actions; None where it is new enough or another action."""
    action, _, version = str(uses).partition("@")
    wanted = NODE24_MAJORS.get(action)
    if wanted and not (version.startswith("v") and version[1:].isdigit() and int(version[1:]) >= wanted):
        return wanted
    return None


# What ci/gate.sh checks it wrote, by the names of the command's result layout, and the templates must keep.
GATE_RESULTS = {"junit": "gate_junit", "candidates": "gate_candidates", "summary": "gate_summary_markdown"}


def layout_path(build, name):
    """Where the command puts `name` of its result layout in the build folder `build`: the layout is the
    command's (BANKGATE_COMMAND), and this test keeps no copy of it."""
    return bankgate_command.protocol(build)["layout"][name]


def gate_results(root=ROOT):
    """The reports ci/gate.sh checks it wrote ({"junit", "candidates", "summary"}: paths), where the command puts
    them in the script's build folder, and the problems when the script no longer says so."""
    gate = (root / "ci" / "gate.sh").read_text()
    build = re.search(r"build_dir=\$\{BANKGATE_BUILD_DIR:-([^}]+)\}", gate)
    if not build:
        return None, ["ci/gate.sh no longer sets build_dir as this test reads it; update the test"]
    problems = [f"ci/gate.sh no longer asks the command for its {name}; update the templates and this test"
                for name in GATE_RESULTS.values() if f'bankgate_result_path "$tool" "$build_dir" {name})' not in gate]
    return {key: layout_path(build.group(1), name) for key, name in GATE_RESULTS.items()}, problems


def result_paths(results):
    return set(results.values())


def triggers_of(workflow):
    """The events a workflow runs on, as a set of names."""
    # YAML 1.1, which PyYAML reads, takes the key `on` for the boolean true.
    triggers = workflow.get("on", workflow.get(True))
    if isinstance(triggers, str):
        triggers = [triggers]
    return set(triggers or ())


def pull_request_problems(workflow):
    """A workflow that runs a pull request's code: on pull_request, never pull_request_target, with a token
    that can only read."""
    problems = []
    triggers = triggers_of(workflow)
    if "pull_request_target" in triggers:
        problems.append("the workflow runs on pull_request_target, which gives a fork's pull request this "
                        "repository's secrets and token")
    if "pull_request" not in triggers:
        problems.append("the workflow does not run on pull_request")
    if workflow.get("permissions") != {"contents": "read"}:
        problems.append(f"the workflow's permissions are {workflow.get('permissions')!r}, not contents: read")
    return problems


def github_problems(workflow, root=ROOT):
    if not isinstance(workflow, dict):
        return ["the GitHub workflow is not a YAML mapping"]
    problems = pull_request_problems(workflow)

    results, gate_problems = gate_results(root)
    problems += gate_problems
    jobs = workflow.get("jobs") or {}
    runs_gate = False
    for name, job in jobs.items():
        where = f"GitHub job {name}"
        if "uses" in job:
            problems.append(f"{where} calls the workflow {job['uses']}, which this test cannot check")
        if "write" in str(job.get("permissions", "")):
            problems.append(f"{where} asks for write permissions")
        labels = job.get("runs-on")
        labels = {labels} if isinstance(labels, str) else set(labels or ())
        # Every job, not only those whose runs-on says self-hosted: a runner group or a label set given
        # another way must not slip past.
        if normalize(job.get("if", "")) not in GUARDED_CONDITIONS:
            problems.append(f"{where} has no fork guard as its condition ({FORK_GUARD})")
        steps = job.get("steps") or []
        gate_step = None
        for index, step in enumerate(steps):
            step_where = f"{where}, step {step.get('name', index + 1)}"
            if "run" in step:
                problems += command_problems(step_where, step["run"], root)
                if "ci/gate.sh" in programs(step["run"]):
                    gate_step = index
            uses = step.get("uses", "")
            if uses and not uses.startswith(ALLOWED_ACTIONS):
                problems.append(f"{step_where} uses {uses}, not one of GitHub's own actions {ALLOWED_ACTIONS}")
            if uses.startswith("actions/upload-artifact@") and normalize(step.get("if", "")) != "always()":
                problems.append(f"{step_where} uploads artifacts without if: always(), so a failed run keeps nothing")
            if wanted := node24_major_wanted(uses):
                problems.append(f"{step_where} uses {uses}, a release on the deprecated Node.js 20; use v{wanted} or later")
        if gate_step is None:
            continue
        runs_gate = True
        if not GPU_LABELS <= labels:
            problems.append(f"{where} runs ci/gate.sh on {sorted(labels)}, not on {sorted(GPU_LABELS)}")
        uploaded = set()
        for step in steps[gate_step + 1:]:
            if step.get("uses", "").startswith("actions/upload-artifact@"):
                paths = str((step.get("with") or {}).get("path", ""))
                uploaded |= {line.strip().rstrip("/") for line in paths.splitlines()}
        if results and not result_paths(results) <= uploaded:
            problems.append(f"{where} does not upload {sorted(result_paths(results) - uploaded)} after the gate")
    if not runs_gate:
        problems.append("no GitHub job runs ci/gate.sh")
    return problems


def gitlab_commands(entry):
    """A script entry as a flat list (GitLab accepts a string, a list, and lists nested by anchors)."""
    if isinstance(entry, list):
        return [command for item in entry for command in gitlab_commands(item)]
    return [] if entry is None else [entry]


def gitlab_guard_problems(where, job):
    """A GitLab job on the GPU runner: tagged gpu, with rules whose first refuses merge requests from forks."""
    problems = []
    if "gpu" not in (job.get("tags") or []):
        problems.append(f"{where} is not tagged gpu")
    if "only" in job or "except" in job:
        problems.append(f"{where} uses only/except; the fork refusal needs rules")
    rules = job.get("rules") or []
    first = rules[0] if rules else {}
    if not (GITLAB_FORK_RULE in str(first.get("if", "")) and first.get("when") == "never"):
        problems.append(f"{where}: its first rule must refuse merge requests from forks "
                        f"({GITLAB_FORK_RULE}, when: never)")
    if any("if" not in rule for rule in rules):
        problems.append(f"{where} has a rule without a condition, which would run it for any pipeline")
    return problems


def gitlab_problems(config, root=ROOT):
    problems = []
    if not isinstance(config, dict):
        return ["the GitLab configuration is not a YAML mapping"]
    if "include" in config:
        problems.append("the GitLab configuration includes other files, whose jobs this test cannot check")
    for key in ("before_script", "after_script"):
        for holder, where in ((config, "GitLab"), (config.get("default") or {}, "GitLab default")):
            for command in gitlab_commands(holder.get(key)):
                problems += command_problems(f"{where} {key}", command, root)

    results, gate_problems = gate_results(root)
    problems += gate_problems
    jobs = {name: job for name, job in config.items()
            if name not in GITLAB_KEYWORDS and not str(name).startswith(".") and isinstance(job, dict)}
    for name, job in jobs.items():
        where = f"GitLab job {name}"
        started = []
        for key in ("before_script", "script", "after_script"):
            for command in gitlab_commands(job.get(key)):
                problems += command_problems(f"{where} {key}", command, root)
                started += programs(command)
        problems += gitlab_guard_problems(where, job)
        if "ci/gate.sh" not in started:
            if name == "bankgate-gate":
                problems.append(f"{where} does not run ci/gate.sh")
            continue
        artifacts = job.get("artifacts") or {}
        if artifacts.get("when") != "always":
            problems.append(f"{where} keeps its artifacts only when it passes (artifacts: when: always)")
        if results:
            if (artifacts.get("reports") or {}).get("junit") != results["junit"]:
                problems.append(f"{where} does not report {results['junit']} as junit")
            kept = {str(path).rstrip("/") for path in artifacts.get("paths") or []}
            if not result_paths(results) <= kept:
                problems.append(f"{where} does not keep {sorted(result_paths(results) - kept)}")
    if "bankgate-gate" not in jobs:
        problems.append("there is no GitLab job bankgate-gate")
    return problems


def load(path):
    with open(path) as handle:
        return yaml.safe_load(handle)


ADOPTER = ROOT / "examples" / "adopt" / "ci" / "bankgate-gate.yml"
ADOPTER_COMMENT = ROOT / "examples" / "adopt" / "ci" / "bankgate-comment.yml"
ADOPTER_GITLAB = ROOT / "examples" / "adopt" / "ci" / "bankgate.gitlab-ci.yml"

# The adopters' templates build with the GPU architecture of a variable the project sets once; a number written
# into a configure would build one job for a GPU other than the runner's.
GITHUB_ARCHITECTURE = "$CUDA_ARCHITECTURES"
GITLAB_ARCHITECTURE = "$BANKGATE_CUDA_ARCHITECTURES"


def architecture_problems(where, text, variable):
    """Each configure (cmake -S) and each compare-commits of a job's commands passes the architecture variable."""
    problems = []
    for line in command_lines(text):
        if "cmake -S" in line and f"-DCMAKE_CUDA_ARCHITECTURES={variable}" not in line:
            problems.append(f"{where} configures without -DCMAKE_CUDA_ARCHITECTURES={variable}")
        if " compare-commits " in line and f"--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES={variable}" not in line:
            problems.append(f"{where} runs compare-commits without --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES={variable}")
    return problems


def adopter_github_job_problems(name, job):
    """One job of the adopters' workflow: the fork guard, Node.js 24 actions, the architecture variable, and
    its reports uploaded even when it fails."""
    problems = []
    if normalize(job.get("if", "")) not in GUARDED_CONDITIONS:
        problems.append(f"job {name} runs pull requests from forks on the GPU runner")
    if "write" in str(job.get("permissions", "")):
        problems.append(f"job {name} asks for write permissions")
    uploads = 0
    for step in job.get("steps") or []:
        problems += architecture_problems(f"job {name}", step.get("run", ""), GITHUB_ARCHITECTURE)
        if wanted := node24_major_wanted(step.get("uses", "")):
            problems.append(f"{step['uses']} runs on the deprecated Node.js 20; use v{wanted} or later")
        if str(step.get("uses", "")).startswith("actions/upload-artifact@"):
            uploads += 1
            if normalize(step.get("if", "")) != "always()":
                problems.append(f"job {name} uploads its reports without if: always(), so a failed run keeps nothing")
    if not uploads:
        problems.append(f"job {name} uploads no reports")
    return problems


def job_text(job, keys=("run",)):
    """Every command of a GitHub job's steps, as one text."""
    return "\n".join(str(step.get(key, "")) for step in job.get("steps") or [] for key in keys)


def history_pending_folder():
    """Where a run keeps what the history store did not take, in the templates' build folder."""
    return layout_path("build", "history_pending")


def adopter_history_problems(gate):
    """The adopters' GitHub gate job appends to a shared history store named by the secret BANKGATE_HISTORY (its
    URL holds a password: never written into the file), and keeps what the store did not take as an artifact for
    a later `bankgate history import`, even when the gate fails."""
    problems = []
    if normalize((gate.get("env") or {}).get("BANKGATE_HISTORY", "")) != "secrets.BANKGATE_HISTORY":
        problems.append("job gate does not take its history store from the secret BANKGATE_HISTORY")
    kept = [step for step in gate.get("steps") or [] if str(step.get("uses", "")).startswith("actions/upload-artifact@")
            and str((step.get("with") or {}).get("path", "")).rstrip("/") == history_pending_folder()]
    if not kept:
        problems.append(f"job gate does not keep the runs the history store did not take ({history_pending_folder()})")
    return problems


def adopter_problems(workflow):
    """The workflow for projects that adopted bankgate: a gate job and, for pull requests, a compare job, both
    behind the fork guard with read-only permissions; one run per pull request or branch; the GPU architecture
    from a variable; every GPU of the runner for the gate."""
    if not isinstance(workflow, dict):
        return ["the adopters' workflow is not a YAML mapping"]
    problems = pull_request_problems(workflow)
    concurrency = workflow.get("concurrency") or {}
    if not isinstance(concurrency, dict) or "github.event.pull_request.number" not in str(concurrency.get("group", "")) \
            or "github.ref" not in str(concurrency.get("group", "")):
        problems.append("the workflow has no concurrency group per pull request or branch")
    elif not concurrency.get("cancel-in-progress"):
        problems.append("the workflow's concurrency does not cancel superseded runs (cancel-in-progress)")
    if "vars.BANKGATE_CUDA_ARCHITECTURES" not in str((workflow.get("env") or {}).get("CUDA_ARCHITECTURES", "")):
        problems.append("the workflow's env CUDA_ARCHITECTURES does not come from the variable vars.BANKGATE_CUDA_ARCHITECTURES")
    jobs = workflow.get("jobs") or {}
    for name, job in jobs.items():
        problems += adopter_github_job_problems(name, job)
    gate, compare = jobs.get("gate"), jobs.get("compare")
    if not gate:
        problems.append("there is no job gate")
    else:
        commands = job_text(gate)
        if " gate --build " not in commands:
            problems.append("job gate does not run `bankgate gate --build`")
        if "--resource-spec " not in commands or "-resource-spec\" " not in commands:
            problems.append("job gate does not spread the suites over every GPU (bankgate-resource-spec, --resource-spec)")
        if '--markdown "$GITHUB_STEP_SUMMARY"' not in commands:
            problems.append("job gate does not append its summary to $GITHUB_STEP_SUMMARY")
        problems += adopter_history_problems(gate)
    if not compare:
        problems.append("there is no job compare")
    else:
        if "github.event_name == 'pull_request'" not in normalize(compare.get("if", "")):
            problems.append("job compare runs for more than pull requests")
        checkout = [step for step in compare.get("steps") or [] if str(step.get("uses", "")).startswith("actions/checkout@")]
        if not checkout or (checkout[0].get("with") or {}).get("fetch-depth") != 0:
            problems.append("job compare checks out without fetch-depth: 0, so the merge base may be missing")
        if "github.event.pull_request.head.sha" not in str((checkout[0].get("with") or {}).get("ref", "") if checkout else ""):
            problems.append("job compare does not check out the pull request's head")
        commands = job_text(compare)
        if "git merge-base" not in commands or " compare-commits " not in commands:
            problems.append("job compare does not run `bankgate compare-commits` from the merge base")
    return problems


def installed_package_problems(workflow):
    """The adopters' workflow with bankgate from an installed package (the variable BANKGATE_PREFIX): find_package
    looks in the prefix (CMAKE_PREFIX_PATH, read from the environment by every configure, compare-commits' too),
    the command is bin/bankgate of the prefix, and the compare job does not ask the project's build for a target
    bankgate, which only FetchContent and add_subdirectory give."""
    problems = []
    env = workflow.get("env") or {}
    prefix = "vars.BANKGATE_PREFIX"
    if prefix not in str(env.get("BANKGATE_PREFIX", "")):
        problems.append(f"the workflow's env BANKGATE_PREFIX does not come from the variable {prefix}")
    if prefix not in str(env.get("CMAKE_PREFIX_PATH", "")):
        problems.append(f"the workflow's env CMAKE_PREFIX_PATH does not hold {prefix}, so find_package cannot find "
                        "an installed bankgate")
    command = str(env.get("BANKGATE", ""))
    if not re.search(r"vars\.BANKGATE_PREFIX\s*&&\s*format\('\{0\}/bin/bankgate',\s*vars\.BANKGATE_PREFIX\)", command):
        problems.append("the workflow's env BANKGATE is not bin/bankgate of the prefix where BANKGATE_PREFIX is set")
    compare = (workflow.get("jobs") or {}).get("compare") or {}
    for step in compare.get("steps") or []:
        if "--target bankgate" in str(step.get("run", "")) and normalize(step.get("if", "")) != f"!{prefix}":
            problems.append("job compare builds the target bankgate even with an installed package (no "
                            f"if: ${{{{ !{prefix} }}}}), which the project's build does not have")
    return problems


def comment_problems(workflow, gate_workflow):
    """The workflow that comments on a pull request: started by the gate workflow's end (workflow_run), never by
    the pull request; it checks out and runs nothing, on a GitHub-hosted runner, and may write pull requests
    only."""
    if not isinstance(workflow, dict):
        return ["the comment workflow is not a YAML mapping"]
    problems = []
    triggers = triggers_of(workflow)
    if triggers != {"workflow_run"}:
        problems.append(f"the comment workflow runs on {sorted(triggers)}, not on workflow_run alone")
    started_by = ((workflow.get("on", workflow.get(True)) or {}).get("workflow_run") or {}) if isinstance(
        workflow.get("on", workflow.get(True)), dict) else {}
    if gate_workflow.get("name") not in (started_by.get("workflows") or []):
        problems.append(f"the comment workflow is not started by the workflow {gate_workflow.get('name')!r}")
    allowed = {"actions": "read", "pull-requests": "write"}
    permissions = workflow.get("permissions")
    if not isinstance(permissions, dict) or any(allowed.get(k) != v and v != "read" for k, v in permissions.items()):
        problems.append(f"the comment workflow's permissions are {permissions!r}: only pull-requests may be written")
    for name, job in (workflow.get("jobs") or {}).items():
        if "permissions" in job:
            problems.append(f"comment job {name} sets permissions of its own")
        if "self-hosted" in str(job.get("runs-on", "")):
            problems.append(f"comment job {name} runs on a self-hosted runner")
        for step in job.get("steps") or []:
            uses = str(step.get("uses", ""))
            if uses and not uses.startswith("actions/download-artifact@"):
                problems.append(f"comment job {name} uses {uses}: it must check out and run nothing")
            if wanted := node24_major_wanted(uses):
                problems.append(f"{uses} runs on the deprecated Node.js 20; use v{wanted} or later")
            if RUNS_A_PROGRAM_OF_THE_PULL_REQUEST.search(str(step.get("run", ""))):
                problems.append(f"comment job {name} runs a program or script, which could be the pull request's")
    return problems


# What a comment job's shell must never do: start a shell, an interpreter or a build, or a file by its path.
RUNS_A_PROGRAM_OF_THE_PULL_REQUEST = re.compile(
    r"(^|[\s;&|(])(bash|sh|source|\.|eval|python3?|node|cmake|ctest|make|ninja|chmod)\s|(^|[\s;&|(])\.?\.?/\S", re.M)


def adopter_gitlab_problems(config):
    """The GitLab configuration for projects that adopted bankgate: bankgate-gate and, for merge requests,
    bankgate-compare, on the GPU runner behind the fork rule; older pipelines' jobs cancelled by a new push; the
    GPU architecture from a variable; reports kept when a job fails."""
    if not isinstance(config, dict):
        return ["the adopters' GitLab configuration is not a YAML mapping"]
    problems = []
    if ((config.get("workflow") or {}).get("auto_cancel") or {}).get("on_new_commit") != "interruptible":
        problems.append("the GitLab configuration does not cancel superseded pipelines (workflow: auto_cancel: "
                        "on_new_commit: interruptible)")
    if "BANKGATE_CUDA_ARCHITECTURES" not in (config.get("variables") or {}):
        problems.append("the GitLab configuration has no variable BANKGATE_CUDA_ARCHITECTURES")
    for name in ("bankgate-gate", "bankgate-compare"):
        job = config.get(name)
        if not isinstance(job, dict):
            problems.append(f"there is no GitLab job {name}")
            continue
        where = f"GitLab job {name}"
        problems += gitlab_guard_problems(where, job)
        if job.get("interruptible") is not True:
            problems.append(f"{where} is not interruptible, so a new push does not cancel it")
        commands = "\n".join(gitlab_commands(job.get("script")))
        problems += architecture_problems(where, commands, GITLAB_ARCHITECTURE)
        if (job.get("artifacts") or {}).get("when") != "always":
            problems.append(f"{where} keeps its artifacts only when it passes (artifacts: when: always)")
        if name == "bankgate-gate" and (" gate --build " not in commands or "--resource-spec " not in commands):
            problems.append(f"{where} does not run `bankgate gate --build` over every GPU (--resource-spec)")
        if name == "bankgate-gate" and history_pending_folder() not in [
                str(path).rstrip("/") for path in (job.get("artifacts") or {}).get("paths") or []]:
            problems.append(f"{where} does not keep the runs the history store did not take ({history_pending_folder()})")
        for variables in (config.get("variables") or {}, job.get("variables") or {}):
            if "BANKGATE_HISTORY" in variables:
                problems.append("the GitLab configuration writes BANKGATE_HISTORY into the file; its URL holds a "
                                "password: set it as a masked CI/CD variable")
        if name == "bankgate-compare":
            if any("merge_request_event" not in str(rule.get("if", "")) for rule in job.get("rules") or []):
                problems.append(f"{where} runs for more than merge requests")
            if str((job.get("variables") or {}).get("GIT_DEPTH")) != "0":
                problems.append(f"{where} clones without GIT_DEPTH: 0, so the merge base may be missing")
            if " compare-commits " not in commands or "$CI_MERGE_REQUEST_DIFF_BASE_SHA" not in commands:
                problems.append(f"{where} does not run `bankgate compare-commits` from the merge base")
    return problems


def run_gitlab_job(job, variables, prefix, work):
    """Runs a GitLab job's script in bash as the runner would (one shell, the configuration's variables, GitLab's
    $VAR expansion of variables that name others), with stand-ins on PATH for cmake and the bankgate command: at
    `prefix` (an installed package; None for FetchContent, whose command the build makes). Returns the lines the
    stand-ins wrote: "cmake ARGS" and "bankgate ARGS"."""
    calls = work / "calls"
    calls.write_text("")
    bin_dir = work / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("cmake", "bankgate"):
        stand_in = (bin_dir / name)
        stand_in.write_text(f'#!/bin/sh\necho "{name} $*" >>"{calls}"\n')
        stand_in.chmod(0o755)
    environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "CI_MERGE_REQUEST_DIFF_BASE_SHA": "base"}
    for name, value in (variables or {}).items():
        value = value.get("value", "") if isinstance(value, dict) else str(value)
        environment[name] = re.sub(r"\$(\w+)", lambda m: environment.get(m.group(1), ""), value)
    environment["BANKGATE_PREFIX"] = str(prefix or "")
    environment["CMAKE_PREFIX_PATH"] = re.sub(r"\$BANKGATE_PREFIX", environment["BANKGATE_PREFIX"],
                                              str((variables or {}).get("CMAKE_PREFIX_PATH", "")))
    # Where the command must be: in the prefix, or where the FetchContent build makes it.
    for place in ([prefix / "bin"] if prefix else []) + [work / "build/_deps/bankgate-build/cli"]:
        place.mkdir(parents=True, exist_ok=True)
        (place / "bankgate").write_text(f'#!/bin/sh\necho "bankgate $* (from {place})" >>"{calls}"\n')
        (place / "bankgate").chmod(0o755)
    script = "set -e\n" + "\n".join(gitlab_commands(job.get("script")))
    result = subprocess.run(["bash", "-c", script], cwd=work, env=environment, capture_output=True, text=True)
    lines = calls.read_text().splitlines()
    return result.returncode, lines + [f"CMAKE_PREFIX_PATH={environment['CMAKE_PREFIX_PATH']}"]


SHARDED_GITHUB = ROOT / "examples" / "adopt" / "ci" / "bankgate-gate-sharded.yml"
SHARDED_GITLAB = ROOT / "examples" / "adopt" / "ci" / "bankgate-sharded.gitlab-ci.yml"
# The verdict job runs when a part failed too, and still only for this repository's branches.
ALWAYS_GUARDED = tuple(f"always() && ({condition})" for condition in GUARDED_CONDITIONS)


def gate_folder():
    """A gate's report folder in the templates' build folder, where the command puts it."""
    return layout_path("build", "gate")


def node24_problems(steps):
    problems = []
    for step in steps:
        action, _, version = str(step.get("uses", "")).partition("@")
        wanted = NODE24_MAJORS.get(action)
        if wanted and not (version.startswith("v") and version[1:].isdigit() and int(version[1:]) >= wanted):
            problems.append(f"{action}@{version} runs on the deprecated Node.js 20; use v{wanted} or later")
    return problems


def sharded_gate_job_problems(job):
    """The matrix job: one part per matrix value 1..N, none cancelled by another's failure, each part's reports
    uploaded under a name of its own even when its gate fails."""
    problems = []
    strategy = job.get("strategy") or {}
    shards = (strategy.get("matrix") or {}).get("shard")
    if not isinstance(shards, list) or shards != list(range(1, len(shards) + 1)) or len(shards) < 2:
        return [f"the gate job's matrix is {shards!r}, not shard: [1, 2, ..., N]"]
    if strategy.get("fail-fast", True) is not False:
        problems.append("the gate job's matrix stops the other parts when one fails (fail-fast: false is needed)")
    steps = job.get("steps") or []
    wanted = f" gate --shard ${{{{ matrix.shard }}}}/{len(shards)} "
    if not any(wanted in f" {step.get('run', '')} " for step in steps):
        problems.append(f"no step of the gate job runs `bankgate{wanted}` (the matrix variable over {len(shards)} parts)")
    uploads = [step for step in steps if str(step.get("uses", "")).startswith("actions/upload-artifact@")]
    if not any("${{ matrix.shard }}" in str((u.get("with") or {}).get("name", "")) and
               str((u.get("with") or {}).get("path", "")).rstrip("/") == gate_folder() for u in uploads):
        problems.append(f"the gate job does not upload {gate_folder()} under a name per part (${{{{ matrix.shard }}}})")
    return problems


def sharded_verdict_job_problems(job, gate_name):
    """The merge: after every part, whatever their outcome, their reports downloaded and merged by the command."""
    problems = []
    needs = job.get("needs")
    if gate_name not in ([needs] if isinstance(needs, str) else list(needs or [])):
        problems.append(f"the verdict job does not need the {gate_name} job")
    steps = job.get("steps") or []
    downloads = [step for step in steps if str(step.get("uses", "")).startswith("actions/download-artifact@")]
    if not any(str((d.get("with") or {}).get("pattern", "")).endswith("*") for d in downloads):
        problems.append("the verdict job does not download every part's reports (download-artifact with a pattern)")
    if not any(" summary --shards " in f" {step.get('run', '')} " for step in steps):
        problems.append("the verdict job does not run `bankgate summary --shards`")
    return problems


def sharded_github_problems(workflow):
    """The GitHub template of a gate split over runners."""
    triggers = workflow.get("on", workflow.get(True))
    triggers = set([triggers] if isinstance(triggers, str) else triggers or ())
    problems = []
    if "pull_request_target" in triggers:
        problems.append("the workflow runs on pull_request_target")
    if workflow.get("permissions") != {"contents": "read"}:
        problems.append(f"the workflow's permissions are {workflow.get('permissions')!r}, not contents: read")
    jobs = workflow.get("jobs") or {}
    gate = next((name for name, job in jobs.items() if (job.get("strategy") or {}).get("matrix")), None)
    if gate is None:
        return problems + ["no job has a matrix of parts"]
    problems += sharded_gate_job_problems(jobs[gate])
    verdicts = [name for name, job in jobs.items() if name != gate]
    if not verdicts:
        return problems + ["there is no verdict job that merges the parts"]
    for name in verdicts:
        problems += sharded_verdict_job_problems(jobs[name], gate)
    for name, job in jobs.items():
        condition = normalize(job.get("if", ""))
        if condition not in (GUARDED_CONDITIONS if name == gate else ALWAYS_GUARDED):
            problems.append(f"job {name}'s condition is {condition!r}: " +
                            ("no fork guard" if name == gate else "not always() && (the fork guard)"))
        for step in job.get("steps") or []:
            if str(step.get("uses", "")).startswith("actions/upload-artifact@") and normalize(step.get("if", "")) != "always()":
                problems.append(f"job {name} uploads without if: always(), so a failed run keeps nothing")
        problems += node24_problems(job.get("steps") or [])
    return problems


def sharded_gitlab_problems(config):
    """The GitLab template of a gate split over runners: parallel parts numbered by CI_NODE_INDEX, each part's
    folder kept under its number, and a merge job that needs them all and runs whatever they ended with."""
    problems = []
    jobs = {name: job for name, job in config.items() if isinstance(job, dict) and name not in GITLAB_KEYWORDS}
    gate = next((name for name, job in jobs.items() if "parallel" in job), None)
    if gate is None:
        return ["no job runs in parallel parts"]
    job = jobs[gate]
    if not isinstance(job["parallel"], int) or job["parallel"] < 2:
        problems.append(f"the gate job's parallel is {job['parallel']!r}, not a number of parts")
    if not any('gate --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"' in str(line) for line in gitlab_commands(job.get("script"))):
        problems.append('the gate job does not run `bankgate gate --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL"`')
    if not any("shards/$CI_NODE_INDEX" in str(line) and gate_folder() in str(line) for line in gitlab_commands(job.get("after_script"))):
        problems.append(f"the gate job does not keep its part's reports ({gate_folder()}) under shards/$CI_NODE_INDEX "
                        "in after_script")
    artifacts = job.get("artifacts") or {}
    if artifacts.get("when") != "always" or "shards/" not in (artifacts.get("paths") or []):
        problems.append("the gate job does not keep shards/ as artifacts when it fails (when: always)")
    merges = {name: j for name, j in jobs.items() if any(" summary --shards " in f" {line} " for line in gitlab_commands(j.get("script")))}
    if not merges:
        problems.append("no job runs `bankgate summary --shards`")
    for name, merge in merges.items():
        needed = [n if isinstance(n, str) else n.get("job") for n in merge.get("needs") or []]
        if gate not in needed:
            problems.append(f"{name} does not need {gate}")
        if any(rule.get("when") not in ("always", "never") for rule in merge.get("rules") or []):
            problems.append(f"{name} does not run when a part failed (its rules need when: always)")
        if not (merge.get("artifacts") or {}).get("reports", {}).get("junit"):
            problems.append(f"{name} does not report the merged junit.xml")
    for name, j in jobs.items():
        rules = j.get("rules") or []
        first = rules[0] if rules else {}
        if not (GITLAB_FORK_RULE in str(first.get("if", "")) and first.get("when") == "never"):
            problems.append(f"{name}: its first rule must refuse merge requests from forks")
        if "gpu" not in (j.get("tags") or []):
            problems.append(f"{name} is not tagged gpu")
    return problems


class CommittedTemplatesTest(unittest.TestCase):
    def test_the_adopters_workflow_passes_every_rule(self):
        self.assertEqual(adopter_problems(load(ADOPTER)), [])

    def test_the_adopters_comment_workflow_passes_every_rule(self):
        self.assertEqual(comment_problems(load(ADOPTER_COMMENT), load(ADOPTER)), [])

    def test_the_adopters_gitlab_configuration_passes_every_rule(self):
        self.assertEqual(adopter_gitlab_problems(load(ADOPTER_GITLAB)), [])

    def test_the_sharded_templates_pass_every_rule(self):
        self.assertEqual(sharded_github_problems(load(SHARDED_GITHUB)), [])
        self.assertEqual(sharded_gitlab_problems(load(SHARDED_GITLAB)), [])

    def test_the_adopters_workflow_rules_catch_an_old_action(self):
        workflow = load(ADOPTER)
        workflow["jobs"]["gate"]["steps"][0]["uses"] = "actions/checkout@v4"
        self.assertIn("actions/checkout@v4 runs on the deprecated Node.js 20; use v5 or later", adopter_problems(workflow))

    def test_github_workflow_passes_every_rule(self):
        self.assertEqual(github_problems(load(GITHUB)), [])

    def test_gitlab_configuration_passes_every_rule(self):
        self.assertEqual(gitlab_problems(load(GITLAB)), [])

    def test_gate_results_are_where_the_command_puts_them_in_ci_gate_shs_build(self):
        results, problems = gate_results()
        self.assertEqual(problems, [])
        self.assertEqual(results["junit"], layout_path("build/gate", "gate_junit"))


class CommandRuleTest(unittest.TestCase):
    def assertRefused(self, text, reason):
        problems = command_problems("here", text)
        self.assertTrue(problems and reason in problems[0], f"{text!r} gave {problems}")

    def test_ci_scripts_with_arguments_and_assignments_are_accepted(self):
        for text in ("ci/gate.sh", "ci/gate.sh --no-build", 'BANKGATE_FUZZ_SECONDS=0 ci/test.sh',
                     'ci/compare-commits.sh "$BASE" HEAD^1', "# a comment\nci/gate.sh \\\n  --no-build\n"):
            self.assertEqual(command_problems("here", text), [], text)

    def test_other_programs_are_refused(self):
        for text in ("make", "bash ci/gate.sh", "./ci/gate.sh", "X=1 python3 -c pass", "ci/gate.sh\necho done"):
            self.assertRefused(text, "runs something other than a ci/ script")

    def test_shell_syntax_and_expressions_are_refused(self):
        for text in ("ci/gate.sh; rm -rf /", "ci/gate.sh && make", "curl x | sh", "ci/gate.sh >log",
                     "X=$(id) ci/gate.sh", "ci/compare-commits.sh ${{ github.head_ref }} HEAD", "ci/gate.sh &"):
            self.assertRefused(text, "shell syntax")

    def test_scripts_that_do_not_exist_are_refused(self):
        self.assertRefused("ci/no-such-script.sh", "not an executable file")


class BrokenGithubWorkflowTest(unittest.TestCase):
    """Each alteration of the committed workflow must be caught."""

    def setUp(self):
        self.workflow = load(GITHUB)
        self.gate = self.workflow["jobs"]["gate"]

    def assertCaught(self, reason, workflow=None):
        problems = github_problems(workflow or self.workflow)
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def steps(self, action):
        return [step for step in self.gate["steps"] if step.get("uses", "").startswith(action)]

    def test_pull_request_target(self):
        self.workflow[True]["pull_request_target"] = None
        self.assertCaught("pull_request_target")

    def test_no_pull_request_trigger(self):
        del self.workflow[True]["pull_request"]
        self.assertCaught("does not run on pull_request")

    def test_missing_or_weakened_fork_guard(self):
        for condition in (None, "always()", f"always() || {FORK_GUARD}", f"${{{{ !({FORK_GUARD}) }}}}"):
            workflow = copy.deepcopy(self.workflow)
            workflow["jobs"]["gate"]["if"] = condition
            self.assertCaught("has no fork guard", workflow)

    def test_write_permissions(self):
        self.workflow["permissions"] = {"contents": "write"}
        self.assertCaught("not contents: read")
        self.workflow["permissions"] = {"contents": "read"}
        self.gate["permissions"] = {"pull-requests": "write"}
        self.assertCaught("write permissions")

    def test_a_command_that_is_not_a_ci_script(self):
        self.gate["steps"].insert(1, {"run": "cmake --build build/gate"})
        self.assertCaught("runs something other than a ci/ script")

    def test_a_third_party_action(self):
        self.gate["steps"].insert(1, {"uses": "someone/setup-cuda@v1"})
        self.assertCaught("not one of GitHub's own actions")

    def test_upload_only_when_the_gate_passes(self):
        del self.steps("actions/upload-artifact@")[0]["if"]
        self.assertCaught("without if: always()")

    def test_an_action_on_node20(self):
        self.gate["steps"][0]["uses"] = "actions/checkout@v4"
        self.assertCaught("uses actions/checkout@v4, a release on the deprecated Node.js 20")

    def test_a_result_left_out_of_the_upload(self):
        upload = self.steps("actions/upload-artifact@")[0]
        upload["with"]["path"] = upload["with"]["path"].replace("build/gate/bankgate/gate/summary.md", "")
        self.assertCaught("does not upload ['build/gate/bankgate/gate/summary.md']")

    def test_gate_on_a_hosted_runner(self):
        self.gate["runs-on"] = "ubuntu-latest"
        self.assertCaught("not on ['gpu', 'linux', 'self-hosted']")

    def test_no_gate(self):
        self.gate["steps"] = [step for step in self.gate["steps"] if "run" not in step]
        self.assertCaught("no GitHub job runs ci/gate.sh")

    def test_a_called_workflow(self):
        self.workflow["jobs"]["more"] = {"if": FORK_GUARD, "uses": "someone/workflows/.github/workflows/x.yml@v1"}
        self.assertCaught("this test cannot check")


class BrokenAdopterWorkflowTest(unittest.TestCase):
    """Each alteration of the adopters' GitHub workflow must be caught."""

    def setUp(self):
        self.workflow = load(ADOPTER)
        self.gate = self.workflow["jobs"]["gate"]
        self.compare = self.workflow["jobs"]["compare"]

    def assertCaught(self, reason):
        problems = adopter_problems(self.workflow)
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def step(self, job, text):
        return next(step for step in job["steps"] if text in str(step.get("run", "")) + str(step.get("uses", "")))

    def test_an_old_action(self):
        self.gate["steps"][0]["uses"] = "actions/checkout@v4"
        self.assertCaught("actions/checkout@v4 runs on the deprecated Node.js 20; use v5 or later")

    def test_pull_request_target(self):
        self.workflow[True]["pull_request_target"] = None
        self.assertCaught("pull_request_target")

    def test_write_permissions(self):
        self.workflow["permissions"] = {"contents": "read", "pull-requests": "write"}
        self.assertCaught("not contents: read")
        self.workflow["permissions"] = {"contents": "read"}
        self.compare["permissions"] = {"pull-requests": "write"}
        self.assertCaught("job compare asks for write permissions")

    def test_no_fork_guard(self):
        del self.compare["if"]
        self.assertCaught("job compare runs pull requests from forks")

    def test_no_concurrency_group(self):
        del self.workflow["concurrency"]
        self.assertCaught("no concurrency group per pull request or branch")

    def test_superseded_runs_kept(self):
        self.workflow["concurrency"]["cancel-in-progress"] = False
        self.assertCaught("does not cancel superseded runs")

    def test_an_architecture_written_in(self):
        build = self.step(self.compare, "cmake -S")
        build["run"] = build["run"].replace("$CUDA_ARCHITECTURES", "90")
        self.assertCaught("job compare configures without -DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES")
        self.workflow["env"]["CUDA_ARCHITECTURES"] = "90"
        self.assertCaught("does not come from the variable vars.BANKGATE_CUDA_ARCHITECTURES")

    def test_compare_commits_without_the_architecture(self):
        compare = self.step(self.compare, "compare-commits")
        compare["run"] = compare["run"].replace('"--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=$CUDA_ARCHITECTURES" ', "")
        self.assertCaught("runs compare-commits without --cmake-arg")

    def test_gate_on_one_gpu(self):
        gate = self.step(self.gate, " gate --build ")
        gate["run"] = gate["run"].replace("--resource-spec build/bankgate-gpus.json ", "")
        self.assertCaught("does not spread the suites over every GPU")

    def test_a_shallow_clone_for_the_comparison(self):
        self.step(self.compare, "actions/checkout@")["with"]["fetch-depth"] = 1
        self.assertCaught("without fetch-depth: 0")

    def test_the_merge_commit_compared(self):
        del self.step(self.compare, "actions/checkout@")["with"]["ref"]
        self.assertCaught("does not check out the pull request's head")

    def test_no_compare_job(self):
        del self.workflow["jobs"]["compare"]
        self.assertCaught("there is no job compare")

    def test_reports_kept_only_on_success(self):
        del self.step(self.compare, "actions/upload-artifact@")["if"]
        self.assertCaught("job compare uploads its reports without if: always()")

    def test_the_history_store_written_into_the_file(self):
        self.gate["env"]["BANKGATE_HISTORY"] = "postgresql://gate:secret@db/history"
        self.assertCaught("job gate does not take its history store from the secret BANKGATE_HISTORY")
        del self.gate["env"]["BANKGATE_HISTORY"]
        self.assertCaught("job gate does not take its history store from the secret BANKGATE_HISTORY")

    def pending_upload(self):
        return next(step for step in self.gate["steps"] if "history-pending" in str(step.get("with", "")))

    def test_runs_the_history_store_did_not_take_left_behind(self):
        self.pending_upload()["with"]["path"] = "build/bankgate/gate/"
        self.assertCaught("job gate does not keep the runs the history store did not take")

    def test_runs_the_history_store_did_not_take_kept_only_on_success(self):
        del self.pending_upload()["if"]
        self.assertCaught("job gate uploads its reports without if: always()")


class InstalledPackageTest(unittest.TestCase):
    """The compare job works with bankgate from an installed package (find_package), not only fetched or added as
    a subdirectory: the command from the prefix, CMAKE_PREFIX_PATH set, and no target bankgate asked of the build."""

    def test_the_adopters_workflow_takes_the_command_from_the_prefix(self):
        self.assertEqual(installed_package_problems(load(ADOPTER)), [])

    def test_alterations_are_caught(self):
        for key, reason in (("CMAKE_PREFIX_PATH", "does not hold vars.BANKGATE_PREFIX"),
                            ("BANKGATE", "is not bin/bankgate of the prefix")):
            workflow = load(ADOPTER)
            workflow["env"][key] = "build/_deps/bankgate-build/cli/bankgate"
            problems = installed_package_problems(workflow)
            self.assertTrue(any(reason in p for p in problems), f"'{reason}' not in {problems}")
        workflow = load(ADOPTER)
        for step in workflow["jobs"]["compare"]["steps"]:
            step.pop("if", None)
        problems = installed_package_problems(workflow)
        self.assertTrue(any("builds the target bankgate even with an installed package" in p for p in problems),
                        problems)

    def test_the_gitlab_compare_job_runs_the_prefix_command(self):
        config = load(ADOPTER_GITLAB)
        with tempfile.TemporaryDirectory() as folder:
            work = pathlib.Path(folder)
            rc, calls = run_gitlab_job(config["bankgate-compare"], config.get("variables"), work / "prefix", work)
            self.assertEqual(rc, 0, calls)
            self.assertFalse([c for c in calls if c.startswith("cmake")], "with a package the build is not asked")
            self.assertTrue(any(c.startswith("bankgate compare-commits base") and f"(from {work}/prefix/bin)" in c
                                for c in calls), calls)
            self.assertIn(f"CMAKE_PREFIX_PATH={work}/prefix", calls)
            # Without one, the command is built by the project's build (FetchContent) and run from there.
            rc, calls = run_gitlab_job(config["bankgate-compare"], config.get("variables"), None, work)
            self.assertEqual(rc, 0, calls)
            self.assertIn("cmake --build build --target bankgate", calls)
            self.assertTrue(any("compare-commits" in c and "bankgate-build/cli)" in c for c in calls), calls)

    def test_the_gitlab_gate_job_runs_the_prefix_command(self):
        config = load(ADOPTER_GITLAB)
        with tempfile.TemporaryDirectory() as folder:
            work = pathlib.Path(folder)
            (work / "prefix/bin").mkdir(parents=True)
            (work / "prefix/bin/bankgate-resource-spec").write_text("#!/bin/sh\n")
            (work / "prefix/bin/bankgate-resource-spec").chmod(0o755)
            rc, calls = run_gitlab_job(config["bankgate-gate"], config.get("variables"), work / "prefix", work)
            self.assertEqual(rc, 0, calls)
            self.assertTrue(any(c.startswith("bankgate gate --build build") and "prefix/bin)" in c for c in calls),
                            calls)

    def test_a_gitlab_compare_job_that_builds_the_target_is_caught(self):
        config = load(ADOPTER_GITLAB)
        config["bankgate-compare"]["script"] = [
            'cmake -S . -B build "-DCMAKE_CUDA_ARCHITECTURES=$BANKGATE_CUDA_ARCHITECTURES"',
            "cmake --build build --target bankgate", '"$BANKGATE" compare-commits "$CI_MERGE_REQUEST_DIFF_BASE_SHA" HEAD']
        with tempfile.TemporaryDirectory() as folder:
            work = pathlib.Path(folder)
            rc, calls = run_gitlab_job(config["bankgate-compare"], config.get("variables"), work / "prefix", work)
            self.assertIn("cmake --build build --target bankgate", calls)  # what the rule above refuses
            self.assertFalse(any("(from " + str(work / "prefix/bin") in c for c in calls), calls)


class BrokenCommentWorkflowTest(unittest.TestCase):
    """Each alteration of the adopters' comment workflow must be caught."""

    def setUp(self):
        self.workflow = load(ADOPTER_COMMENT)
        self.job = self.workflow["jobs"]["comment"]

    def assertCaught(self, reason):
        problems = comment_problems(self.workflow, load(ADOPTER))
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def test_started_by_a_pull_request(self):
        self.workflow[True]["pull_request_target"] = None
        self.assertCaught("not on workflow_run alone")

    def test_started_by_another_workflow(self):
        self.workflow[True]["workflow_run"]["workflows"] = ["something else"]
        self.assertCaught("is not started by the workflow 'bankgate'")

    def test_the_pull_request_checked_out(self):
        self.job["steps"].insert(0, {"uses": "actions/checkout@v5"})
        self.assertCaught("must check out and run nothing")

    def test_a_script_of_the_artifact_run(self):
        for script in ("bash comparison/post.sh", "./comparison/post", "python3 comparison/post.py", "x; sh run.sh"):
            self.job["steps"][-1]["run"] = script
            self.assertCaught("runs a program or script")

    def test_an_old_action(self):
        self.job["steps"][0]["uses"] = "actions/download-artifact@v4"
        self.assertCaught("actions/download-artifact@v4 runs on the deprecated Node.js 20; use v7 or later")

    def test_more_write_permissions(self):
        self.workflow["permissions"]["contents"] = "write"
        self.assertCaught("only pull-requests may be written")

    def test_on_the_gpu_runner(self):
        self.job["runs-on"] = ["self-hosted", "linux", "gpu"]
        self.assertCaught("runs on a self-hosted runner")


class BrokenAdopterGitlabTest(unittest.TestCase):
    """Each alteration of the adopters' GitLab configuration must be caught."""

    def setUp(self):
        self.config = load(ADOPTER_GITLAB)
        self.gate = self.config["bankgate-gate"]
        self.compare = self.config["bankgate-compare"]

    def assertCaught(self, reason):
        problems = adopter_gitlab_problems(self.config)
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def test_fork_rule_missing(self):
        self.compare["rules"] = self.compare["rules"][1:]
        self.assertCaught("GitLab job bankgate-compare: its first rule must refuse merge requests from forks")

    def test_not_interruptible(self):
        del self.gate["interruptible"]
        self.assertCaught("bankgate-gate is not interruptible")

    def test_no_auto_cancel(self):
        del self.config["workflow"]
        self.assertCaught("does not cancel superseded pipelines")

    def test_an_architecture_written_in(self):
        self.gate["script"][0] = self.gate["script"][0].replace("$BANKGATE_CUDA_ARCHITECTURES", "90")
        self.assertCaught("bankgate-gate configures without -DCMAKE_CUDA_ARCHITECTURES=$BANKGATE_CUDA_ARCHITECTURES")
        del self.config["variables"]["BANKGATE_CUDA_ARCHITECTURES"]
        self.assertCaught("no variable BANKGATE_CUDA_ARCHITECTURES")

    def test_a_shallow_clone_for_the_comparison(self):
        del self.compare["variables"]["GIT_DEPTH"]
        self.assertCaught("without GIT_DEPTH: 0")

    def test_compare_on_every_pipeline(self):
        self.compare["rules"].append({"if": "$CI_COMMIT_BRANCH"})
        self.assertCaught("runs for more than merge requests")

    def test_no_compare_job(self):
        del self.config["bankgate-compare"]
        self.assertCaught("there is no GitLab job bankgate-compare")

    def test_artifacts_only_on_success(self):
        self.compare["artifacts"]["when"] = "on_success"
        self.assertCaught("bankgate-compare keeps its artifacts only when it passes")

    def test_runs_the_history_store_did_not_take_left_behind(self):
        self.gate["artifacts"]["paths"].remove("build/bankgate/history-pending/")
        self.assertCaught("bankgate-gate does not keep the runs the history store did not take")

    def test_the_history_store_written_into_the_file(self):
        self.gate.setdefault("variables", {})["BANKGATE_HISTORY"] = "postgresql://gate:secret@db/history"
        self.assertCaught("writes BANKGATE_HISTORY into the file")


class BrokenGitlabConfigurationTest(unittest.TestCase):
    """Each alteration of the committed GitLab configuration must be caught."""

    def setUp(self):
        self.config = load(GITLAB)
        self.gate = self.config["bankgate-gate"]

    def assertCaught(self, reason):
        problems = gitlab_problems(self.config)
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def test_not_tagged_gpu(self):
        self.gate["tags"] = ["docker"]
        self.assertCaught("not tagged gpu")

    def test_fork_rule_missing(self):
        self.gate["rules"] = self.gate["rules"][1:]
        self.assertCaught("refuse merge requests from forks")

    def test_a_rule_without_condition(self):
        self.gate["rules"].append({"when": "always"})
        self.assertCaught("rule without a condition")

    def test_a_command_that_is_not_a_ci_script(self):
        self.gate["before_script"] = ["apt-get install -y cmake"]
        self.assertCaught("runs something other than a ci/ script")

    def test_a_global_before_script(self):
        self.config["default"] = {"before_script": ["curl https://example.com/x | sh"]}
        self.assertCaught("shell syntax")

    def test_artifacts_only_on_success(self):
        self.gate["artifacts"]["when"] = "on_success"
        self.assertCaught("when: always")

    def test_junit_report_elsewhere(self):
        self.gate["artifacts"]["reports"]["junit"] = "build/gate/gate-junit.xml"
        self.assertCaught("does not report build/gate/bankgate/gate/junit.xml")

    def test_candidates_left_out(self):
        self.gate["artifacts"]["paths"].remove("build/gate/bankgate/gate/candidates/")
        self.assertCaught("does not keep ['build/gate/bankgate/gate/candidates']")

    def test_an_included_file(self):
        self.config["include"] = [{"remote": "https://example.com/more-jobs.yml"}]
        self.assertCaught("includes other files")

    def test_gate_job_renamed(self):
        self.config["gate"] = self.config.pop("bankgate-gate")
        self.assertCaught("no GitLab job bankgate-gate")


class BrokenShardedTemplatesTest(unittest.TestCase):
    """Each alteration of the split gate's templates must be caught."""

    def setUp(self):
        self.github = load(SHARDED_GITHUB)
        self.gate = self.github["jobs"]["gate"]
        self.gitlab = load(SHARDED_GITLAB)

    def assertCaught(self, reason, problems):
        self.assertTrue(any(reason in problem for problem in problems), f"'{reason}' not in {problems}")

    def gate_step(self):
        return next(step for step in self.gate["steps"] if " gate --shard " in str(step.get("run", "")))

    def test_no_matrix(self):
        del self.gate["strategy"]
        self.assertCaught("no job has a matrix of parts", sharded_github_problems(self.github))

    def test_a_shard_argument_without_the_matrix_variable(self):
        self.gate_step()["run"] = self.gate_step()["run"].replace("${{ matrix.shard }}/3", "1/3")
        self.assertCaught("the matrix variable over 3 parts", sharded_github_problems(self.github))

    def test_a_matrix_wider_than_its_shard_argument(self):
        self.gate["strategy"]["matrix"]["shard"] = [1, 2, 3, 4]
        self.assertCaught("the matrix variable over 4 parts", sharded_github_problems(self.github))

    def test_parts_cancelled_by_a_failing_one(self):
        del self.gate["strategy"]["fail-fast"]
        self.assertCaught("fail-fast: false", sharded_github_problems(self.github))

    def test_one_artifact_name_for_every_part(self):
        upload = next(step for step in self.gate["steps"] if "upload-artifact" in str(step.get("uses", "")))
        upload["with"]["name"] = "bankgate-gate-results"
        self.assertCaught("under a name per part", sharded_github_problems(self.github))

    def test_a_verdict_only_when_every_part_passed(self):
        self.github["jobs"]["verdict"]["if"] = FORK_GUARD
        self.assertCaught("not always() && (the fork guard)", sharded_github_problems(self.github))

    def test_a_verdict_for_forks(self):
        self.github["jobs"]["verdict"]["if"] = "always()"
        self.assertCaught("not always() && (the fork guard)", sharded_github_problems(self.github))

    def test_no_verdict_job(self):
        del self.github["jobs"]["verdict"]
        self.assertCaught("no verdict job", sharded_github_problems(self.github))

    def test_a_verdict_that_does_not_wait_for_the_parts(self):
        del self.github["jobs"]["verdict"]["needs"]
        self.assertCaught("does not need the gate job", sharded_github_problems(self.github))

    def test_a_verdict_that_merges_nothing(self):
        for step in self.github["jobs"]["verdict"]["steps"]:
            step.pop("run", None)
        self.assertCaught("does not run `bankgate summary --shards`", sharded_github_problems(self.github))

    def test_pull_request_target(self):
        self.github[True]["pull_request_target"] = None
        self.assertCaught("pull_request_target", sharded_github_problems(self.github))

    def test_an_old_download_action(self):
        step = next(s for s in self.github["jobs"]["verdict"]["steps"] if "download-artifact" in str(s.get("uses", "")))
        step["uses"] = "actions/download-artifact@v4"
        self.assertCaught("actions/download-artifact@v4 runs on the deprecated Node.js 20", sharded_github_problems(self.github))

    def test_gitlab_without_parallel_parts(self):
        del self.gitlab["bankgate-gate"]["parallel"]
        self.assertCaught("no job runs in parallel parts", sharded_gitlab_problems(self.gitlab))

    def test_gitlab_shard_argument_without_the_node_index(self):
        job = self.gitlab["bankgate-gate"]
        job["script"] = [line.replace("$CI_NODE_INDEX/$CI_NODE_TOTAL", "1/3") for line in job["script"]]
        self.assertCaught("$CI_NODE_INDEX/$CI_NODE_TOTAL", sharded_gitlab_problems(self.gitlab))

    def test_gitlab_parts_kept_in_one_folder(self):
        self.gitlab["bankgate-gate"]["after_script"] = ["cp -R build/bankgate/gate shards/"]
        self.assertCaught("under shards/$CI_NODE_INDEX", sharded_gitlab_problems(self.gitlab))
        self.gitlab["bankgate-gate"]["after_script"] = ['mkdir -p "shards/$CI_NODE_INDEX" && cp -R build/gate/. "shards/$CI_NODE_INDEX/"']
        self.assertCaught("(build/bankgate/gate) under shards/$CI_NODE_INDEX", sharded_gitlab_problems(self.gitlab))

    def test_gitlab_merge_without_needs(self):
        del self.gitlab["bankgate-verdict"]["needs"]
        self.assertCaught("does not need bankgate-gate", sharded_gitlab_problems(self.gitlab))

    def test_gitlab_merge_only_when_the_parts_passed(self):
        for rule in self.gitlab["bankgate-verdict"]["rules"][1:]:
            del rule["when"]
        self.assertCaught("does not run when a part failed", sharded_gitlab_problems(self.gitlab))

    def test_gitlab_fork_rule_missing(self):
        self.gitlab["bankgate-verdict"]["rules"] = self.gitlab["bankgate-verdict"]["rules"][1:]
        self.assertCaught("bankgate-verdict: its first rule must refuse merge requests from forks", sharded_gitlab_problems(self.gitlab))


if __name__ == "__main__":
    unittest.main()
