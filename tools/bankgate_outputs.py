"""Reading what bankgate writes, for the ci/ and bench/ scripts: one place for its JSON models and files.

The models (summary.json, `review --json`, `compare --json`) open with {"schema", "schema_version", "tool",
"provenance"}; schemas/*.schema.json describe them (gate/include/bankgate/gate/reports/output_json.hpp writes them).
A reader checks the head first, so a script fed another file, or a file of a newer schema, stops with a message
naming the file instead of a KeyError deep inside. Baseline and candidate files are the suite files of
gate/include/bankgate/gate/rules/baseline.hpp (schemas/baseline.schema.json, schemas/candidate.schema.json).
"""
import json
import pathlib

SCHEMA_VERSIONS = {"bankgate-summary": 1, "bankgate-review": 1, "bankgate-compare": 1}
SUITE_FILE_SCHEMA_VERSION = 4
FAILING_DURATION_VERDICTS = ("slower",)


class OutputError(Exception):
    """A file that is not the bankgate output a script expected."""


def _load(path):
    path = pathlib.Path(path)
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise OutputError(f"{path}: not readable as JSON ({e})") from e


def read_output(path, schema):
    """The JSON model `schema` ("bankgate-summary", ...) written to `path`, its head checked."""
    document = _load(path)
    found = document.get("schema") if isinstance(document, dict) else None
    if found != schema:
        raise OutputError(f"{path}: expected a {schema} document, found {found or 'no schema field'} "
                          "(written by a bankgate older than 0.4, or another file)")
    if document.get("schema_version") != SCHEMA_VERSIONS[schema]:
        raise OutputError(f"{path}: {schema} schema version {document.get('schema_version')}; these scripts read "
                          f"version {SCHEMA_VERSIONS[schema]}")
    return document


def read_summary(path):
    return read_output(path, "bankgate-summary")


def read_review(path):
    return read_output(path, "bankgate-review")


def read_compare(path):
    return read_output(path, "bankgate-compare")


def read_suite_file(path):
    """A baseline or candidate file (one suite on one GPU)."""
    document = _load(path)
    if not isinstance(document, dict) or document.get("schema_version") != SUITE_FILE_SCHEMA_VERSION:
        raise OutputError(f"{path}: not a baseline or candidate file of schema {SUITE_FILE_SCHEMA_VERSION}")
    return document


def timed_tests(files):
    """(file's parsed JSON, "Suite.test", its timing) for every timed test of every baseline or candidate file; a test
    whose case launched several kernels gives one per kernel, "Suite.test (kernel)"."""
    for f in sorted(files):
        suite = read_suite_file(f)
        for test, record in sorted(suite["tests"].items()):
            name = f"{suite['suite']}.{test}"
            for kernel in record.get("kernels", [record]):
                if kernel.get("timing"):
                    yield suite, name + (f" ({kernel['kernel']})" if "kernels" in record else ""), kernel["timing"]


def duration_findings(compare_document):
    """(test name, finding) for every duration finding of a `compare --json` document."""
    for test in compare_document["tests"]:
        for finding in test["findings"]:
            if finding["timing"]:
                yield test["name"], finding
