"""The bankgate command, for the Python scripts in ci/: rules live in the command, and scripts ask it."""
import json
import os
import subprocess


def command(explicit=None):
    """The command to run: the one given, else $BANKGATE_COMMAND, else `bankgate` on PATH."""
    return explicit or os.environ.get("BANKGATE_COMMAND") or "bankgate"


def bare_names(names, explicit=None):
    """{demangled: the name results give the kernel}, from `bankgate kernel-name`."""
    names = list(dict.fromkeys(names))
    if not names:
        return {}
    result = subprocess.run([command(explicit), "kernel-name"], input="\n".join(names) + "\n", capture_output=True,
                            text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{command(explicit)} kernel-name failed: {result.stderr.strip()}")
    return {entry["name"]: entry["bare"] for entry in json.loads(result.stdout)}
