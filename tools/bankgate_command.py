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


def protocol(build=None, explicit=None):
    """The run protocol as the command states it (`bankgate protocol`, gate/include/bankgate/gate/protocol/run_protocol.hpp):
    {"environment", "layout", "measure_test_prefix", "test_properties", "exit_codes"}, the layout's paths in the
    build folder `build` where given. Scripts read these names here instead of keeping copies."""
    args = [command(explicit), "protocol"] + (["--build", str(build)] if build else [])
    try:
        result = subprocess.run(args, capture_output=True, text=True, check=False)
    except OSError as e:
        raise RuntimeError(f"cannot run {command(explicit)} ({e}); set BANKGATE_COMMAND to the bankgate command") from e
    if result.returncode != 0:
        raise RuntimeError(f"{command(explicit)} protocol failed: {result.stderr.strip()}")
    return json.loads(result.stdout)


def help_text(args=(), explicit=None):
    """What `bankgate ARGS --help` prints (CLI11 names the program `bankgate` wherever it lies)."""
    result = subprocess.run([command(explicit), *args, "--help"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{command(explicit)} {' '.join(args)} --help failed: {result.stderr.strip()}")
    return result.stdout


def subcommands(explicit=None):
    """The subcommands `bankgate --help` lists, in its order: [{"names": [name, alias...], "summary", "group"}].
    Every section of the help but "Options:" lists subcommands, one a line: "  name, alias   summary"."""
    found, group = [], None
    for line in help_text(explicit=explicit).splitlines():
        if line.endswith(":") and not line.startswith(" "):
            group = None if line == "Options:" else line[:-1]
        elif group and line.startswith("  ") and line.strip():
            names, _, summary = line.strip().partition("  ")
            found.append({"names": names.split(", "), "summary": summary.strip(), "group": group})
    if not found:
        raise RuntimeError(f"{command(explicit)} --help lists no subcommands")
    return found
