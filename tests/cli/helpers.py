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


def cli_json(*args: str, **kw):
    proc = cli(*args, "--format", "json", **kw)
    return proc, json.loads(proc.stdout) if proc.stdout.strip() else None
