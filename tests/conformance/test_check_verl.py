"""`check --verl` against the real verl 0.9.1 (VERL_PYTHON): its own verdict, quoted, beside the wizard's rules.

A config `new` writes is accepted (no VERL finding, the note names 0.9.1); a launch script with a bad batch split
is refused in validate_config with verl's own assertion text; a key 0.9.1 lacks gets Hydra's own error; a python
without verl is one line and exit 2; a python that hangs gives VERL-003 within the deadline.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import cli_subprocess

pytestmark = pytest.mark.conformance

WIZARD = Path(sys.executable).with_name("verl-wizard")
SPLIT = """python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_batch_size={batch} \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=1 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 \\
    trainer.n_gpus_per_node=8 {extra}
"""


def wizard(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """The installed console script as a user runs it; `--format json` output must parse (cli_subprocess)."""
    return cli_subprocess(*args, program=[str(WIZARD)], env=os.environ, timeout=timeout)


def verl_findings(doc: dict) -> list[dict]:
    return [f for f in doc["findings"] if f["id"].startswith("VERL-")]


def test_a_written_config_is_accepted_by_verl(tmp_path, verl_python):
    out = tmp_path / "out"
    assert wizard("new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(out)).returncode == 0
    done = wizard("check", str(out / "config.yaml"), "--mode", "cluster", "--verl", verl_python, "--format", "json")
    doc = json.loads(done.stdout)
    assert verl_findings(doc) == [], doc["findings"]
    assert doc["verl"]["version"] == "0.9.1" and doc["verl"]["stage"] is None
    assert doc["verl"]["checks"] == ["compose", "auto_set_device", "validate_config", "resolve"]
    assert any(note.startswith("verl 0.9.1 of ") and "accepts it" in note for note in doc["notes"])
    assert done.returncode == 0, done.stdout


def test_a_bad_batch_split_is_refused_in_verls_words(tmp_path, verl_python):
    script = tmp_path / "run.sh"
    script.write_text(SPLIT.format(batch=12, extra=""), encoding="utf-8")
    done = wizard("check", str(script), "--mode", "cluster", "--verl", verl_python, "--format", "json")
    doc = json.loads(done.stdout)
    found = verl_findings(doc)
    assert [f["id"] for f in found] == ["VERL-002"]
    assert "real_train_batch_size (12) must be divisible by minimal possible batch size (8)" in found[0]["message"]
    assert "verl 0.9.1" in found[0]["message"] and "validate_config" in found[0]["message"]
    assert done.returncode == 1
    # the neighbour: 16 divides by 8, and verl's checks pass
    script.write_text(SPLIT.format(batch=16, extra=""), encoding="utf-8")
    fine = json.loads(
        wizard("check", str(script), "--mode", "cluster", "--verl", verl_python, "--format", "json").stdout
    )
    assert verl_findings(fine) == [] and fine["verl"]["stage"] is None


def test_a_key_verl_lacks_gets_hydras_own_error(tmp_path, verl_python):
    script = tmp_path / "run.sh"
    script.write_text(SPLIT.format(batch=16, extra="\\\n    trainer.no_such_key=1"), encoding="utf-8")
    doc = json.loads(
        wizard("check", str(script), "--mode", "cluster", "--verl", verl_python, "--format", "json").stdout
    )
    found = verl_findings(doc)
    assert [f["id"] for f in found] == ["VERL-001"]
    assert "Could not override 'trainer.no_such_key'" in found[0]["message"]
    assert "Key 'no_such_key' is not in struct" in found[0]["message"]
    # the wizard's own rule on that key runs beside verl's
    assert any(f["paths"] == ["trainer.no_such_key"] for f in doc["findings"] if not f["id"].startswith("VERL-"))


def test_a_python_without_verl_is_one_line_exit_2(tmp_path, verl_python):
    script = tmp_path / "run.sh"
    script.write_text(SPLIT.format(batch=16, extra=""), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [str(WIZARD), "check", str(script), "--verl", sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "verl is not installed for this interpreter" in done.stderr


def test_a_hanging_python_gives_a_finding_within_the_deadline(tmp_path, verl_python):
    hang = tmp_path / "python"
    hang.write_text("#!/bin/sh\nsleep 300\n", encoding="utf-8")
    hang.chmod(hang.stat().st_mode | stat.S_IXUSR)
    script = tmp_path / "run.sh"
    script.write_text(SPLIT.format(batch=16, extra=""), encoding="utf-8")
    started = time.monotonic()
    done = wizard("check", str(script), "--verl", str(hang), "--timeout", "3", "--format", "json", timeout=60)
    assert time.monotonic() - started < 30
    found = verl_findings(json.loads(done.stdout))
    assert [(f["id"], f["severity"]) for f in found] == [("VERL-003", "error")]
    assert "within 3 s" in found[0]["message"] and done.returncode == 1
