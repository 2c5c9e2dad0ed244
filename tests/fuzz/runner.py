"""Run one CLI command in-process on fuzzed input and say what is wrong with how it ended.

The contract (DESIGN.md section 4): exit 0, 1 or 2; exit 2 prints one line on stderr naming the
problem (``verl-wizard: error: ...``); `--format json` output is one JSON document; nothing ever prints
a traceback; no input makes a command run longer than ``TIME_LIMIT`` seconds; nothing is written outside
``--out`` (the run happens in a sandbox folder that is compared before and after).

In-process because a fresh interpreter per input would cost more than the whole fuzz budget; the
alarm signal bounds the time of each input (pytest runs tests in the main thread).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from tests.cli.helpers import json_problem
from wizard.cli import build_parser, main

TIME_LIMIT = 20  # seconds per input; a hang is anything slower


class Hang(BaseException):
    """Raised by the alarm when one input runs past TIME_LIMIT (not an Exception: no `except Exception` may swallow it)."""


@dataclass
class Outcome:
    """How one command ended."""

    argv: list[str]
    code: int | None = None
    stdout: str = ""
    stderr: str = ""
    crash: str = ""  # a traceback that escaped main()
    seconds: float = 0.0
    stray_writes: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Every way this run broke the contract; empty when it kept it."""
        out = []
        if self.crash:
            out.append(f"an exception escaped main():\n{self.crash}")
        if self.code not in (0, 1, 2):
            out.append(f"exit code {self.code!r}, not 0, 1 or 2")
        for name, text in (("stdout", self.stdout), ("stderr", self.stderr)):
            if "Traceback (most recent call last)" in text:
                out.append(f"a traceback on {name}:\n{text[-3000:]}")
        if self.code == 2:
            lines = [line for line in self.stderr.splitlines() if line.strip()]
            if (
                len(lines) != 1
                or not lines[0].startswith("verl-wizard: error: ")
                or len(lines[0]) <= len("verl-wizard: error: ")
            ):
                out.append(f"exit 2 without exactly one 'verl-wizard: error: ...' line on stderr: {self.stderr!r}")
        if self.code in (0, 1) and not self.stdout.strip():
            out.append(f"exit {self.code} with nothing on stdout")
        invalid = json_problem(self.argv, self.stdout)
        if invalid:
            out.append(invalid)
        if self.stray_writes:
            out.append(f"wrote outside --out: {self.stray_writes}")
        return out


def available_commands() -> set[str]:
    """The subcommands this build of the CLI registers (a command still being written may be absent)."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in root.rglob("*"):
        if path.is_file() or path.is_symlink():
            stat = path.lstat()
            out[str(path.relative_to(root))] = (stat.st_size, stat.st_mtime_ns)
    return out


def run_cli(argv: list[str], sandbox: Path, out_dir: str | None = None, time_limit: int = TIME_LIMIT) -> Outcome:
    """Run ``verl-wizard argv`` with the sandbox as working directory; check what it wrote.

    ``out_dir`` (relative to the sandbox) is where the command may write; anything else new or
    changed under the sandbox is a stray write.
    """
    outcome = Outcome(list(argv))
    before = _snapshot(sandbox)
    stdout, stderr = io.StringIO(), io.StringIO()

    def on_alarm(signum, frame):
        raise Hang(f"no result after {time_limit} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    cwd = os.getcwd()
    start = time.perf_counter()
    try:
        os.chdir(sandbox)
        signal.alarm(time_limit)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                outcome.code = main(list(argv))
            except SystemExit as exc:  # argparse's --help and errors
                outcome.code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except Hang as exc:
        outcome.crash = f"HANG: {exc}"
    except BaseException:
        outcome.crash = traceback.format_exc()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(cwd)
    outcome.seconds = time.perf_counter() - start
    outcome.stdout, outcome.stderr = stdout.getvalue(), stderr.getvalue()
    after = _snapshot(sandbox)
    allowed = (out_dir.rstrip("/") + "/") if out_dir else None
    outcome.stray_writes = sorted(
        name
        for name, stamp in after.items()
        if before.get(name) != stamp and not (allowed and (name + "/").startswith(allowed))
    )
    return outcome
