"""`--verl PY` starts verl's child before the commands' modules load (issue 31, the speed budget of --verl).

Building the parser loads every command's module (about 0.3 s); the child used to start only after that, inside
the command, so that time was added to verl's own. Each case runs the CLI in a fresh interpreter (an in-process
test would find the modules already loaded) with subprocess.Popen spied on: at the moment verl's child starts,
is the check command's module loaded yet? The fake verl (tests/cli/verl_fakes.py) answers as in test_check_verl.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import require_json
from tests.cli.verl_fakes import find_hydra_python, make_fake_verl
from wizard.detect.env import verl_head_start, verl_verdict

ROOT = Path(__file__).resolve().parents[2]
DRIVER = """
import json, subprocess, sys
real = subprocess.Popen
spawned = []

class Spy(real):
    def __init__(self, args, *rest, **kwargs):
        super().__init__(args, *rest, **kwargs)
        if any("VERL_WIZARD_VERL" in str(part) for part in args):
            spawned.append({"check_loaded": "wizard.commands.check" in sys.modules, "proc": self})

subprocess.Popen = Spy
from wizard.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
record = [{"check_loaded": s["check_loaded"], "ended": s["proc"].poll() is not None} for s in spawned]
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "spawned": record}, out)
"""


@pytest.fixture(scope="module")
def hydra_python() -> str:
    return find_hydra_python()


def drive(tmp_path: Path, *argv: str) -> tuple[dict, subprocess.CompletedProcess]:
    record = tmp_path / "record.json"
    env = {**os.environ, "PYTHONPATH": str(make_fake_verl(tmp_path / "fake"))}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(record), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    require_json(argv, done.stdout)  # a --format json command's output is JSON, whatever the test reads of it
    return json.loads(record.read_text()), done


def launch(tmp_path: Path, batch: int) -> str:
    path = tmp_path / "run.sh"
    path.write_text(
        f"python3 -m verl.trainer.main_ppo data.train_batch_size={batch} trainer.n_gpus_per_node=8\n", encoding="utf-8"
    )
    return str(path)


def test_verl_starts_before_the_commands_load_and_answers(tmp_path, hydra_python):
    record, done = drive(tmp_path, "check", launch(tmp_path, 12), "--verl", hydra_python, "--format", "json")
    assert record["spawned"] == [{"check_loaded": False, "ended": True}]
    doc = json.loads(done.stdout)
    # the fake refuses 12 over the 8 GPUs verl's defaults give, in its own words
    assert record["code"] == 1 and doc["verl"]["stage"] == "validate_config"
    assert doc["verl"]["version"] == "0.0.0+fake" and doc["verl"]["python"] == hydra_python


def test_the_neighbour_verl_auto_starts_in_the_command_and_answers_the_same(tmp_path, hydra_python, monkeypatch):
    """auto finds its interpreter by running candidates: no head start, the same verdict."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{hydra_python}" "$@"\n', encoding="utf-8")  # its own site-packages kept
    python.chmod(0o755)
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    record, done = drive(tmp_path, "check", launch(tmp_path, 12), "--verl", "auto", "--format", "json")
    assert record["spawned"] == [{"check_loaded": True, "ended": True}]
    assert json.loads(done.stdout)["verl"]["stage"] == "validate_config"


def test_a_child_nobody_takes_is_stopped_when_the_command_ends(tmp_path, hydra_python):
    """A bad flag is exit 2 from the parser: the child started ahead of it does not linger."""
    record, done = drive(tmp_path, "check", launch(tmp_path, 16), "--verl", hydra_python, "--no-such-flag")
    assert record == {"code": 2, "spawned": [{"check_loaded": False, "ended": True}]}
    assert done.stderr.count("\n") == 1 and "--no-such-flag" in done.stderr


@pytest.mark.parametrize(
    ("argv", "value"),
    [
        (["check", "run.sh", "--verl", "py"], "py"),
        (["new", "--out", "o", "--verl=py"], "py"),
        (["validate-config", "--config", "c.yaml", "--verl", "py"], "py"),
        (["check", "run.sh", "--verl-version", "0.8.0"], None),
        (["check", "run.sh", "--", "--verl", "py"], None),  # the script's own arguments
        (["doctor", "--verl", "py"], None),
        ([], None),
    ],
)
def test_only_a_commands_own_verl_flag_starts_it(argv, value):
    assert verl_head_start.verl_value(argv) == value


def test_the_child_carries_the_mark_a_process_list_finds(tmp_path):
    assert verl_verdict.MARK.strip() in verl_head_start.BOOT
