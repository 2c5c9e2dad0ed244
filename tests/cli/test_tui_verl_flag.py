"""`verl-wizard tui --verl PYTHON|auto [--timeout S]` (and `verl-wizard --verl ...`): checked before the TUI opens.

An interpreter that is not there, or has no verl, is refused in one line with exit 2 before the app starts: run here
in a pseudo-terminal (the wizard has a terminal, so nothing else stops it first) and nothing reaches the screen.
The flags are declared once (wizard.commands.verl_flags) for check, new and the TUI, in a module light enough for
`verl-wizard` with no arguments, which must not load what asking verl needs.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import cli
from tests.cli.verl_fakes import make_fake_verl
from wizard.cli import build_parser, parse
from wizard.commands.tui import build_app
from wizard.commands.verl_flags import DEFAULT_TIMEOUT_S
from wizard.detect.env.verl_verdict import DEFAULT_DEADLINE_S
from wizard.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).with_name("verl-wizard")


def in_a_terminal(*args: str, env: dict | None = None) -> tuple[int, str, str]:
    """Run the installed wizard with a pseudo-terminal as stdin and stdout: (exit code, what the terminal got,
    stderr)."""
    main, other = pty.openpty()
    try:
        done = subprocess.run(
            [str(EXE), *args], stdin=other, stdout=other, stderr=subprocess.PIPE, text=True, timeout=60, env=env
        )
    finally:
        os.close(other)
    screen = b""
    os.set_blocking(main, False)
    try:
        while chunk := os.read(main, 65536):
            screen += chunk
    except (BlockingIOError, OSError):
        pass
    os.close(main)
    return done.returncode, screen.decode(errors="replace"), done.stderr


@pytest.mark.parametrize("argv", [["tui", "--verl", "/no/such/python"], ["--verl", "/no/such/python"]])
def test_a_python_that_is_not_there_is_one_line_exit_2_before_any_tui(argv):
    code, screen, stderr = in_a_terminal(*argv, "--preset", "workshop-grpo-0.5b-1gpu")
    assert code == 2 and screen == ""
    assert (
        stderr
        == "verl-wizard: error: --verl /no/such/python: no such file or command; give the interpreter that runs verl\n"
    )


def test_a_python_without_verl_is_refused_at_start_and_one_with_verl_is_taken(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONPATH", raising=False)
    with pytest.raises(UsageError) as caught:
        build_app(parse(["tui", "--verl", sys.executable]))
    assert "verl is not installed for this interpreter" in str(caught.value)
    # the neighbour: the same interpreter with a verl on its path, and the deadline given
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "fake")))
    app = build_app(parse(["tui", "--verl", sys.executable, "--timeout", "5"]))
    assert app.verl == (sys.executable, 5.0)
    assert build_app(parse(["tui"])).verl is None


def test_a_bad_timeout_is_one_line_exit_2():
    result = cli("tui", "--verl", sys.executable, "--timeout", "0")
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "--timeout" in result.stderr


def test_the_flags_are_declared_once_for_check_new_and_the_tui():
    subcommands = build_parser()._subparsers._group_actions[0].choices

    def flags(name: str) -> list[tuple]:
        return [
            (a.dest, a.help, a.default, a.type) for a in subcommands[name]._actions if a.dest in ("verl", "timeout")
        ]

    assert flags("tui") == flags("check") == flags("new") and len(flags("tui")) == 2
    assert DEFAULT_TIMEOUT_S == DEFAULT_DEADLINE_S


PROBE = """
import json, sys
import tests.tui.startup_probe as probe
probe.WATCH = probe.WATCH + tuple(sys.argv[1:])
sys.argv = sys.argv[:1]
probe.main()
"""
VERL_PATH = (
    "wizard.commands.verl_ask",
    "wizard.detect.env.verl_verdict",
    "wizard.core.rules.verl.verdict",
    "wizard.emit.verl_config",
    "wizard.tui.verl_run",
)


def test_the_plain_start_loads_nothing_of_asking_verl():
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *VERL_PATH], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    first = json.loads(done.stdout.strip().splitlines()[-1])["first_paint"]
    assert first["screen"] == "StartScreen" and not set(VERL_PATH) & set(first["loaded"]), first


def test_the_flags_module_adds_only_itself():
    code = (
        "import argparse, math, sys, wizard.commands; before = set(sys.modules); import wizard.commands.verl_flags; "
        "print(sorted(set(sys.modules) - before))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.stdout.strip() == "['wizard.commands.verl_flags']", done.stderr
