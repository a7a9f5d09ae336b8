"""Validates JSON files against one of bankgate's schemas (schemas/), for the shell tests:

    validate_output.py SCHEMA_FILE_NAME FILE...     e.g. validate_output.py summary.schema.json summary.json

Prints each problem with its file and JSON path; exits 1 if there is any, 0 when every file validates.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = pathlib.Path(__file__).resolve().parents[2] / "schemas"


def validator(name):
    registry = Registry()
    for schema in SCHEMAS.glob("*.schema.json"):
        registry = registry.with_resource(schema.name, Resource.from_contents(json.loads(schema.read_text())))
    return Draft202012Validator(json.loads((SCHEMAS / name).read_text()), registry=registry)


def problems(name, document):
    return [f"{e.json_path}: {e.message[:300]}" for e in validator(name).iter_errors(document)]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    found = [f"{path}: {p}" for path in argv[2:] for p in problems(argv[1], json.loads(pathlib.Path(path).read_text()))]
    print("\n".join(found) if found else f"{len(argv) - 2} file(s) valid against {argv[1]}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
