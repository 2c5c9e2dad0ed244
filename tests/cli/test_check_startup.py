"""What `check` loads at start-up: its own command and what its rules need, not the other commands or doctor's parsers.

DESIGN.md section 7 holds `check` to 20x faster than verl's start-up validation; most of `check`'s time is start-up.
The modules pinned here came off its path (issue 31): the other commands' modules and parsers (wizard.cli builds the
named command's parser alone) and packaging's requirement parser (only doctor's package rules use it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import require_json
from wizard.cli import ALIASES, build_parser, commands_needed
from wizard.commands import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
OFF_THE_PATH = (
    *(f"wizard.commands.{name}" for name in COMMANDS if name != "check"),
    "packaging.requirements",
    "packaging.markers",
    "packaging.tags",
)
DRIVER = """
import json, runpy, sys
sys.argv = ["verl-wizard", *sys.argv[1:]]
try:
    runpy.run_module("wizard", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "loaded": sorted(m for m in %r if m in sys.modules)}), file=sys.stderr)
"""


def run_check(argv: list[str]) -> tuple[dict, str]:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER % (OFF_THE_PATH,), *argv], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return json.loads(done.stderr.strip().splitlines()[-1]), done.stdout


def test_check_loads_neither_the_other_commands_nor_packagings_requirement_parser(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "wizard", "new", "--preset", "workshop-0.5b-1gpu", "--out", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    for command in ("check", "validate-config"):
        path_flag = (
            [str(tmp_path / "config.yaml")] if command == "check" else ["--config", str(tmp_path / "config.yaml")]
        )
        args = [command, *path_flag, "--mode", "cluster", "--format", "json"]
        state, out = run_check(args)
        assert state == {"code": 0, "loaded": []}, command
        report = require_json(args, out)
        assert report["verdict"] in ("pass", "warn") and isinstance(report["findings"], list)


def test_every_command_name_parses_with_only_the_modules_it_needs():
    names = build_parser()._subparsers._group_actions[0].choices
    assert set(ALIASES) <= set(names)
    for name in names:
        needed = commands_needed([name])
        assert len(needed) == 1 and name in build_parser(needed)._subparsers._group_actions[0].choices, name


def test_help_and_an_unknown_command_still_see_every_command():
    assert commands_needed(["--help"]) == commands_needed(["no-such-command"]) == COMMANDS
    done = subprocess.run(
        [sys.executable, "-m", "wizard", "no-such-command"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert all(f"'{name}'" in done.stderr for name in build_parser()._subparsers._group_actions[0].choices)


# pydantic's plugin lookup (every installed distribution's entry points) spied on, and the variable that turns it
# off read as the command starts: its child processes (verl's interpreter) must see the user's environment.
PLUGIN_DRIVER = """
import json, os, sys
import pydantic.plugin._loader as loader
from wizard import cli
scans, seen = [], {}
real_scan, real_load = loader.entry_points, cli.load_and_freeze
def scan(*args, **kwargs):
    scans.append(1)
    return real_scan(*args, **kwargs)
def load(argv):
    args = real_load(argv)
    seen["variable"] = os.environ.get("PYDANTIC_DISABLE_PLUGINS")
    return args
loader.entry_points, cli.load_and_freeze = scan, load
sys.argv = ["verl-wizard", *sys.argv[1:]]
code = cli.main()
print(json.dumps({"code": code, "scans": len(scans), **seen}), file=sys.stderr)
"""


def test_the_program_loads_the_answers_model_without_scanning_for_pydantic_plugins(tmp_path):
    config = tmp_path / "config.yaml"
    subprocess.run(
        [sys.executable, "-m", "wizard", "new", "--preset", "workshop-0.5b-1gpu", "--out", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    for users, expected in ((None, None), ("some_plugin", "some_plugin")):
        env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
        if users is not None:
            env["PYDANTIC_DISABLE_PLUGINS"] = users
        args = ["check", str(config), "--mode", "cluster", "--format", "json"]
        done = subprocess.run(
            [sys.executable, "-c", PLUGIN_DRIVER, *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        state = json.loads(done.stderr.strip().splitlines()[-1])
        # the user's own setting is theirs: with a list of names pydantic still looks (and skips those names)
        assert state == {"code": 0, "scans": 0 if users is None else 1, "variable": expected}, state
        assert require_json(args, done.stdout)["verdict"] in ("pass", "warn")
