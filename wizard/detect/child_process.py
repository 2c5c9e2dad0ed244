"""Run a child process with a deadline, in its own session, and kill it with its children when the deadline passes.

What the probes share (doctor's environment probe, preflight's cluster and per-node probes): a child that hangs
never holds the wizard past its deadline, and nothing of the wizard's own session is touched when it is killed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ChildResult:
    stdout: str
    stderr: str
    returncode: int


def run_with_deadline(argv: Sequence[str], timeout: float, env: dict[str, str] | None = None) -> ChildResult | None:
    """The child's output and exit status, or None when it ran past `timeout` seconds (then it is killed).

    OSError (no such program, not executable) reaches the caller, which knows what the program was for.
    """
    return collect(spawn(argv, env), timeout)


def spawn(argv: Sequence[str], env: dict[str, str] | None = None, stdin: bool = False) -> subprocess.Popen:
    """Start a child in its own session (with a pipe to its standard input when `stdin`); OSError to the caller."""
    return subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        env=env,
        start_new_session=True,
    )


def collect(proc: subprocess.Popen, timeout: float, given: str | None = None) -> ChildResult | None:
    """Give a spawned child `given` on its standard input (when it has the pipe), wait at most `timeout` seconds
    for it to end; None when it did not (then it and what it started are killed)."""
    try:
        stdout, stderr = proc.communicate(given, timeout=max(0.1, timeout))
    except subprocess.TimeoutExpired:
        kill(proc)
        return None
    return ChildResult(stdout, stderr, proc.returncode)


def kill(proc: subprocess.Popen) -> None:
    """Kill a spawned child and everything in its session, and reap it."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)  # the child's own session: it and what it started, nothing else
    with contextlib.suppress(OSError, ValueError):
        proc.communicate()


def last_marked(stdout: str, mark: str) -> tuple[str, dict | None] | None:
    """A child's report: its last stdout line that starts with `mark`, and the JSON object after the mark (None
    when that is not JSON or not an object of schema 1); None when no line has the mark."""
    lines = [line for line in stdout.splitlines() if line.startswith(mark)]
    if not lines:
        return None
    try:
        report = json.loads(lines[-1][len(mark) :])
    except ValueError:
        return lines[-1], None
    if not isinstance(report, dict) or report.get("schema") != 1:
        return lines[-1], None
    return lines[-1], report


def last_words(stdout: str, stderr: str) -> str:
    """What a child that gave no report said last (its last stderr line, else the start of its stdout), bounded."""
    last_error = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()), "")
    return (last_error or stdout.strip()[:200])[:200]
