"""`new --from-script` says what an imported script leaves unknown, as `check` does (issue 32 item 2): the
variable, the keys it feeds, the rules skipped, `--env`. Before, a script with `NNODES=$WORLD_SIZE` was silent:
trainer.nnodes fell back to 1 and the batch and placement rules ran on that guess."""

from __future__ import annotations

import json

from tests.cli.helpers import cli

SCRIPT = """#!/bin/bash
NNODES=$WORLD_SIZE
python3 -m verl.trainer.main_ppo \\
  algorithm.adv_estimator=grpo \\
  data.train_files=/data/train.parquet data.val_files=/data/val.parquet \\
  data.train_batch_size=256 \\
  actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
  actor_rollout_ref.actor.ppo_mini_batch_size=64 \\
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
  actor_rollout_ref.rollout.n=4 \\
  trainer.n_gpus_per_node=8 trainer.nnodes=$NNODES
"""


def _notes(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("note: $WORLD_SIZE")]


def test_new_from_script_prints_checks_note_on_an_unset_variable(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    checked = cli("check", str(script), "--mode", "cluster")
    made = cli("new", "--from-script", str(script), "--out", str(tmp_path / "out"))
    assert _notes(checked.stdout) and _notes(made.stdout) == _notes(checked.stdout), made.stdout
    note = _notes(made.stdout)[0]
    assert "trainer.nnodes" in note and "--env WORLD_SIZE=VALUE" in note and "PLACE-" in note
    doc = json.loads(cli("new", "--from-script", str(script), "--out", str(tmp_path / "o2"), "--format", "json").stdout)
    assert [f"note: {n}" for n in doc["notes"]] == _notes(checked.stdout)


def test_a_given_value_leaves_no_note_and_is_written(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    for extra, out in ((["--env", "WORLD_SIZE=2"], "a"), (["--set", "trainer.nnodes=2"], "b")):
        made = cli("new", "--from-script", str(script), *extra, "--out", str(tmp_path / out))
        assert made.returncode == 0 and not _notes(made.stdout), made.stdout
        assert "nnodes: 2" in (tmp_path / out / "config.yaml").read_text()
        doc = json.loads(
            cli("new", "--from-script", str(script), *extra, "--out", str(tmp_path / out), "--format", "json").stdout
        )
        assert "notes" not in doc
