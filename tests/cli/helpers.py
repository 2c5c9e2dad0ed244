"""Run the CLI as a user would: in this process (fast) or in a real subprocess (start-up, exit codes).

Every run whose arguments ask for `--format json` has its stdout parsed here (require_json): a test cannot pass on
output that a program reading it would refuse. Tests that run the CLI another way (a console script, a fuzz runner)
call require_json or json_problem themselves; tests/cli/test_json_guard.py checks that no test file skips them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

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
    require_json(args, out.getvalue())
    return Result(int(code), out.getvalue(), err.getvalue())


def cli_subprocess(
    *args: str,
    cwd: Path | None = None,
    timeout: float = 60,
    program: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """`python -m wizard ARGS` in a child (or `program ARGS`, e.g. the installed console script), with this
    checkout on PYTHONPATH unless `env` is given whole; `--format json` output must parse (require_json)."""
    command = [*(program or (sys.executable, "-m", "wizard")), *args]
    env = dict(env) if env is not None else dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    require_json(args, done.stdout)
    return done


def asks_for_json(args: Sequence[object]) -> bool:
    """Whether a command line asks for `--format json`, as argparse reads it: `--format json` or `--format=json`
    (or an abbreviation of `--format`), the last one winning; what follows `--` is the script's, not ours."""
    chosen = None
    words = iter(str(a) for a in args)
    for word in words:
        if word == "--":
            break
        name, eq, value = word.partition("=")
        if len(name) >= 3 and "--format".startswith(name):
            chosen = value if eq else next(words, None)
    return chosen == "json"


def json_problem(args: Sequence[object], stdout: str) -> str | None:
    """What is wrong with the stdout of `verl-wizard ARGS` when ARGS ask for `--format json` and it printed
    something that is not one JSON document; None when it parses, printed nothing, or JSON was not asked for."""
    if not stdout.strip() or not asks_for_json(args):
        return None
    try:
        json.loads(stdout)
    except (ValueError, RecursionError) as exc:
        command = " ".join(str(a) for a in args)
        return f"`verl-wizard {command}` printed invalid JSON ({exc}); stdout starts: {stdout[:300]!r}"
    return None


def require_json(args: Sequence[object], stdout: str):
    """The parsed `--format json` output of `verl-wizard ARGS` (None where nothing was printed or JSON was not
    asked for); fails the test, naming the command and the start of stdout, when it does not parse."""
    problem = json_problem(args, stdout)
    if problem:
        pytest.fail(problem)
    return json.loads(stdout) if stdout.strip() and asks_for_json(args) else None


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
