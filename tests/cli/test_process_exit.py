"""A command run as its own process settles the collector before the interpreter's teardown (wizard.cli).

The teardown otherwise walks the whole heap again while it clears the modules (0.25 s of every command's wall time
at load 5, and after `check --verl`'s answer, time added to verl's). main() as the program (argv from sys.argv)
collects once, then freezes what is left and stops the collector; main(argv) called in-process, as the tests call
it, leaves the collector as it was. As the program, main() also freezes what loading the command's modules built
before the command runs (wizard.cli.load_and_freeze), so that neither the command's collections nor the one at exit
walk it again.
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


# The command's run as seen from inside: the collector's state then, and whether loading left garbage that needs
# finalising (a file, a generator, a __del__), which freezing it unexamined would never finalise.
LOAD_DRIVER = """
import gc, json, sys
from wizard import cli
seen = {}
real_load = cli.load_and_freeze
def load(argv):
    args = real_load(argv)
    run = args.func
    def spy(args):
        seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())
        return run(args)
    args.func = spy
    return args
cli.load_and_freeze = load
sys.argv = ["verl-wizard", *sys.argv[1:]]
code = cli.main()
gc.unfreeze()
gc.set_debug(gc.DEBUG_SAVEALL)
gc.collect()
held = sorted({type(o).__name__ for o in gc.garbage if hasattr(type(o), "__del__") or type(o).__name__ in ("generator", "coroutine", "TextIOWrapper", "BufferedReader", "FileIO", "socket", "Popen")})
print(json.dumps({"code": code, "held": held, **seen}), file=sys.stderr)
"""


def test_the_program_runs_its_command_with_what_loading_built_frozen_and_the_collector_on(tmp_path):
    config = tmp_path / "config.yaml"
    subprocess.run(
        [sys.executable, "-m", "wizard", "new", "--preset", "workshop-0.5b-1gpu", "--out", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    args = ["check", str(config), "--mode", "cluster", "--format", "json"]
    done = subprocess.run(
        [sys.executable, "-c", LOAD_DRIVER, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    state = json.loads(done.stderr.strip().splitlines()[-1])
    # the answers model, the rules and the command's modules: tens of thousands of objects, none walked again
    assert state["code"] == 0 and state["enabled"] is True and state["frozen"] > 20000, state
    assert state["held"] == []  # neither loading nor the command left garbage that a finaliser should see
    assert require_json(args, done.stdout)["verdict"] in ("pass", "warn")
