"""Fake `verl` packages for `check --verl` / `new --verl` tests: built in a folder that goes on PYTHONPATH.

A fake has what the wizard's child asks of a verl: `verl.__version__`, a Hydra config tree at
verl/trainer/config/ppo_trainer.yaml, `verl.utils.config.validate_config` (which raises on one planted rule:
train_batch_size must divide by the GPU count), `verl.utils.device.auto_set_device` and the two `need_*`
helpers. Composing needs hydra-core in the interpreter that is asked: `hydra_python` finds one or skips.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLANTED = "planted: train_batch_size ({b}) must be divisible by {n} GPUs"

FILES = {
    "verl/__init__.py": '__version__ = "__VERSION__"\n',
    "verl/trainer/__init__.py": "",
    "verl/trainer/config/__init__.py": "",
    "verl/trainer/config/ppo_trainer.yaml": (
        "data:\n  train_batch_size: 8\ntrainer:\n  n_gpus_per_node: 8\n  nnodes: 1\n  device: cuda\n"
        "actor_rollout_ref:\n  model:\n    path: ~/models/placeholder\n"
    ),
    "verl/trainer/ppo/__init__.py": "",
    "verl/trainer/ppo/utils.py": (
        "def need_reference_policy(config):\n    return False\n\n\ndef need_critic(config):\n    return False\n"
    ),
    "verl/utils/__init__.py": "",
    "verl/utils/device.py": "def auto_set_device(config):\n    pass\n",
    "verl/utils/config.py": (
        "def validate_config(config, use_reference_policy, use_critic):\n"
        "    n = config.trainer.n_gpus_per_node * config.trainer.nnodes * __STRICT__\n"
        "    b = config.data.train_batch_size\n"
        '    print("a line verl prints on stdout")\n'
        f"    assert b % n == 0, f{PLANTED!r}\n"
    ),
}


def make_fake_verl(folder: Path, version: str = "0.0.0+fake", hang: bool = False, strict: int = 1) -> Path:
    """Write a fake verl under `folder` (the PYTHONPATH entry); `hang` makes `import verl` sleep; `strict` makes
    the planted rule ask train_batch_size to divide by that many times the GPU count (a rule the wizard lacks)."""
    for name, text in FILES.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("__VERSION__", version).replace("__STRICT__", str(strict)), encoding="utf-8")
    if hang:
        (folder / "verl/__init__.py").write_text("import time\ntime.sleep(120)\n", encoding="utf-8")
    return folder


def _has_hydra(python: str) -> bool:
    try:
        done = subprocess.run([python, "-c", "import hydra, omegaconf"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def find_hydra_python() -> str:
    """An interpreter with hydra-core: this one, else the conformance environment's; the test is skipped without."""
    for candidate in (sys.executable, os.environ.get("VERL_PYTHON"), str(ROOT / ".venv-verl" / "bin" / "python")):
        if candidate and Path(candidate).is_file() and _has_hydra(candidate):
            return candidate
    pytest.skip("no interpreter with hydra-core here (the conformance tier asks the real verl 0.9.1)")
