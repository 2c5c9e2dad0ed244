"""`command exec CMD` (and `builtin exec CMD`) is `exec CMD`: CMD runs in the script's place and nothing after it
runs. The reader raised TypeError on it (the builtins' table holds None for exec; mypy found the call of an
Optional, issue 29 part E); bash is the judge of what runs."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from wizard.detect.script.launch import parse_launch_script

TRAIN = "python3 -m verl.trainer.main_ppo"


def _script(prefix: str) -> str:
    return "\n".join(
        [
            "#!/bin/bash",
            "set -e",
            f"{prefix}{TRAIN} data.train_batch_size=64 trainer.n_gpus_per_node=8",
            f"{TRAIN} data.train_batch_size=128",
            "",
        ]
    )


def _bash_runs(text: str) -> list[str]:
    """The commands bash runs, each echoed in place of python3 (so that nothing real starts)."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash here")
    echoed = text.replace("python3 -m", "echo python3 -m")
    done = subprocess.run([bash, "-c", echoed], capture_output=True, text=True, timeout=10, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("prefix", ["command exec ", "builtin exec ", "command -- exec "])
def test_command_exec_runs_its_command_and_ends_the_script(prefix):
    text = _script(prefix)
    script = parse_launch_script(text, "run.sh")
    assert script.as_dotted()["data.train_batch_size"] == 64
    assert script.as_dotted()["trainer.n_gpus_per_node"] == 8
    assert not [p for p in script.problems if p.kind == "multiple-commands"]
    # bash runs the first command only: the exec'd one
    assert _bash_runs(text) == [f"{TRAIN} data.train_batch_size=64 trainer.n_gpus_per_node=8"]


def test_plain_exec_reads_the_same():
    text = _script("exec ")
    script = parse_launch_script(text, "run.sh")
    assert script.as_dotted()["data.train_batch_size"] == 64
    assert not [p for p in script.problems if p.kind == "multiple-commands"]
    assert _bash_runs(text) == [f"{TRAIN} data.train_batch_size=64 trainer.n_gpus_per_node=8"]


def test_command_without_exec_is_still_one_command_of_many():
    # `command python3 ...` does not end the script: bash runs the next command too, and so does the reader
    text = _script("command ")
    script = parse_launch_script(text, "run.sh")
    assert script.as_dotted()["data.train_batch_size"] == 64
    assert [p.kind for p in script.problems if p.kind == "multiple-commands"] == ["multiple-commands"]
    assert len(_bash_runs(text)) == 2
