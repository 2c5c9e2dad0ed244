"""`--verl PY`'s head start: verl's interpreter begins importing verl before the wizard loads its commands.

Parsing the command line loads every command's module (the answers model, the rules: about 0.3 s here), and the
command itself only then started verl's child, so that time was added to verl's own import. `begin(argv)`, called
first by wizard.cli, starts the child at once for `check`, `validate-config` or `new` with `--verl PATH` (a path,
or a name on PATH; `--verl auto` searches by running interpreters and keeps the command's own start). The child
runs BOOT: it imports verl, then reads one JSON line holding the program to run (wizard.detect.env.verl_verdict
sends the verdict script that way, with its question after it). `take(python)` hands the child to the command when
it resolved the same interpreter; `drop()` kills a child nobody took (bad flags, `--help`, an early error).

Standard library only, and `subprocess` and `json` only when a child starts: every start of the wizard, the TUI's first
paint included, imports this module.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import time

# The child's whole command line. The mark names it in a process list (verl_verdict.MARK, what its report starts
# with); verl's import failing here is reported by the program, which imports verl again and says how it failed.
BOOT = (
    "# VERL_WIZARD_VERL head start: import verl, then run the program sent as one JSON line on stdin\n"
    "try:\n"
    "    import verl  # noqa: F401\n"
    "except Exception:\n"
    "    pass\n"
    "import json, sys\n"
    "exec(compile(json.loads(sys.stdin.readline()), '<verl-wizard>', 'exec'))\n"
)
COMMANDS = ("check", "validate-config", "new")
FLAG = "--verl"

_started: dict[str, tuple] = {}  # the resolved interpreter -> (its child, when it started)


def framed(program: str, request_line: str) -> str:
    """What the child reads after BOOT's import: the program as one JSON line, then the program's own input."""
    import json  # deferred: only a command with --verl sends a program (the TUI's first paint loads no json)

    return json.dumps(program) + "\n" + request_line


def verl_value(argv: list[str]) -> str | None:
    """The value of `--verl` on a command that takes it, before any `--`; None when there is none."""
    if not argv or argv[0] not in COMMANDS:
        return None
    found = None
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == FLAG and index + 1 < len(argv):
            found = argv[index + 1]
        elif arg.startswith(FLAG + "="):
            found = arg[len(FLAG) + 1 :]
    return found


def resolved(value: str) -> str | None:
    """The interpreter `--verl value` names, as wizard.detect.env.probe.resolve_python finds it; None when it is
    `auto` or not an executable file (the command then says what is wrong, or searches)."""
    if not value or value == "auto":
        return None
    found = value if os.sep in value else shutil.which(value)
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        return None
    return found


def begin(argv: list[str]) -> None:
    """Start verl's child now when argv asks verl for its verdict with a named interpreter."""
    python = resolved(verl_value(argv) or "")
    if python is None or python in _started:
        return
    import subprocess  # deferred: only a command with --verl starts a child (the TUI's first paint does not)

    try:
        proc = subprocess.Popen(
            [python, "-c", BOOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
        )
    except OSError:
        return  # the command starts it again and words what went wrong
    _started[python] = (proc, time.monotonic())


def take(python: str) -> tuple | None:
    """(the child started for `python`, when it started), handed over once; None when none was started for it."""
    return _started.pop(python, None)


def drop() -> None:
    """Kill the children nobody took, with what they started, and reap them."""
    while _started:
        _, (proc, _) = _started.popitem()
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)  # its own session: the child and what it started, nothing else
        with contextlib.suppress(OSError, ValueError):
            proc.communicate()


__all__ = ["BOOT", "begin", "drop", "framed", "take"]
