"""A command run as its own process settles the collector before the interpreter's teardown (wizard.cli).

The teardown otherwise walks the whole heap again while it clears the modules (0.25 s of every command's wall time
at load 5, and after `check --verl`'s answer, time added to verl's). main() as the program (argv from sys.argv)
collects once, then freezes what is left and stops the collector; main(argv) called in-process, as the tests call
it, leaves the collector as it was.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import require_json

ROOT = Path(__file__).resolve().parents[2]
DRIVER = """
import gc, json, sys
from wizard.cli import main
as_program = sys.argv[1] == "program"
sys.argv = ["verl-wizard", "presets", "--format", "json"]
code = main() if as_program else main(sys.argv[1:])
print(json.dumps({"code": code, "enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}), file=sys.stderr)
"""


def drive(how: str) -> tuple[dict, list]:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, how], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stderr.strip().splitlines()[-1]), require_json(["presets", "--format", "json"], done.stdout)


def test_the_program_settles_the_collector_after_its_command():
    state, presets = drive("program")
    assert state["code"] == 0 and state["enabled"] is False and state["frozen"] > 1000
    assert presets and all("name" in preset for preset in presets)  # its whole output came first


def test_main_called_in_process_leaves_the_collector_as_it_was():
    state, presets = drive("in-process")
    assert state == {"code": 0, "enabled": True, "frozen": 0}
    assert presets and all("name" in preset for preset in presets)
