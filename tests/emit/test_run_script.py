"""run.sh is valid bash, quotes every user value, and runs exactly one python command."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import cli

NASTY = "exp $(touch /tmp/pwned-{tag}) `touch /tmp/pwned2-{tag}` 'q\" ; rm -rf ~\nnext"


@pytest.fixture
def stub_python(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "python3"
    stub.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done > "$ARGV_OUT"\n')
    stub.chmod(0o755)
    return bin_dir


def test_run_sh_is_valid_bash_and_runs_only_the_trainer(tmp_path, stub_python):
    tag = tmp_path.name
    out = tmp_path / "out dir"
    name = NASTY.format(tag=tag)
    assert (
        cli(
            "new",
            "--preset",
            "workshop-0.5b-1gpu",
            "--set",
            f"trainer.experiment_name={name!r}",
            "--set",
            f"actor_rollout_ref.model.path='/models/a b $(touch /tmp/pwned3-{tag})'",
            "--out",
            str(out),
        ).returncode
        == 0
    )
    script = out / "run.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    env = dict(os.environ, PATH=f"{stub_python}:{os.environ['PATH']}", ARGV_OUT=str(tmp_path / "argv"))
    env.pop("CUDA_VISIBLE_DEVICES", None)
    proc = subprocess.run(["bash", str(script), "trainer.total_epochs=1"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    argv = (tmp_path / "argv").read_text().splitlines()
    assert argv == [
        "-m",
        "verl.trainer.main_ppo",
        f"--config-path={out}",
        "--config-name=config",
        "trainer.total_epochs=1",
    ]
    for marker in ("pwned", "pwned2", "pwned3"):
        assert not Path(f"/tmp/{marker}-{tag}").exists()


def test_run_sh_refuses_a_hand_set_cuda_visible_devices(tmp_path, stub_python):
    assert cli("new", "--preset", "workshop-0.5b-1gpu", "--out", str(tmp_path / "o")).returncode == 0
    env = dict(
        os.environ,
        PATH=f"{stub_python}:{os.environ['PATH']}",
        ARGV_OUT=str(tmp_path / "argv"),
        CUDA_VISIBLE_DEVICES="0",
    )
    proc = subprocess.run(["bash", str(tmp_path / "o" / "run.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode == 2 and "CUDA_VISIBLE_DEVICES" in proc.stderr
    assert not (tmp_path / "argv").exists()


def test_wandb_logger_requires_the_key_from_the_environment(tmp_path, stub_python):
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path / "o")).returncode == 0
    env = dict(os.environ, PATH=f"{stub_python}:{os.environ['PATH']}", ARGV_OUT=str(tmp_path / "argv"))
    env.pop("WANDB_API_KEY", None)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    proc = subprocess.run(["bash", str(tmp_path / "o" / "run.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode != 0 and "WANDB_API_KEY" in proc.stderr
    env["WANDB_API_KEY"] = "dummy"
    assert subprocess.run(["bash", str(tmp_path / "o" / "run.sh")], env=env).returncode == 0


def test_bash_is_available():
    assert shutil.which("bash")
