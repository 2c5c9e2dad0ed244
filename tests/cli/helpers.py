"""Run the CLI as a user would: in this process (fast) or in a real subprocess (start-up, exit codes)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from wizard.cli import main

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, cwd: Path | None = None) -> Result:
    """main() in-process with captured output; an unexpected exception fails the test as a traceback would."""
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(old)
    return Result(int(code), out.getvalue(), err.getvalue())


def cli_subprocess(*args: str, cwd: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "wizard", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout
    )


def parsed(proc: Result):
    """A command's `--format json` output as data: json.loads of all of stdout, which must be one JSON document
    (a test fails on anything else, as a program reading it would); None where nothing was printed (exit 2)."""
    return json.loads(proc.stdout) if proc.stdout.strip() else None


def cli_json(*args: str, **kw):
    proc = cli(*args, "--format", "json", **kw)
    return proc, parsed(proc)


def check_json(path: Path | str, *args: str, cwd: Path | None = None):
    """`check PATH --format json ARGS`: (result, the parsed document, or None after a usage error). The format
    comes before ARGS, which may end with `-- ARG...` (the script's own arguments)."""
    proc = cli("check", str(path), "--format", "json", *args, cwd=cwd)
    return proc, parsed(proc)
