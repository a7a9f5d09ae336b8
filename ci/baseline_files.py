"""Reading baseline and candidate files in the ci/ scripts: one place for their layout (gate/include/bankgate/gate/baseline.hpp)."""
import json


def timed_tests(files):
    """(file's parsed JSON, "Suite.test", its timing) for every timed test of every baseline or candidate file."""
    for f in sorted(files):
        suite = json.loads(f.read_text())
        for test, record in sorted(suite["tests"].items()):
            if record.get("timing"):
                yield suite, f"{suite['suite']}.{test}", record["timing"]
