"""`check --env NAME=VALUE` and `check ... -- ARG...`: an unknown value of a launch script becomes a checked one."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import check_json, cli

SCRIPT = """#!/usr/bin/env bash
MODEL=${1:?usage: train.sh MODEL}
python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=/data/gsm8k/train.parquet \\
    data.val_files=/data/gsm8k/test.parquet \\
    data.train_batch_size=50 \\
    actor_rollout_ref.model.path=$MODEL \\
    actor_rollout_ref.actor.ppo_mini_batch_size=10 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=5 \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=5 \\
    trainer.n_gpus_per_node=8 \\
    trainer.nnodes=${WORLD_SIZE}
"""


def check(path: Path, *extra: str):
    return check_json(path, "--mode", "cluster", *extra)


def ids(doc) -> set[str]:
    return {f["id"] for f in doc["findings"]}


def test_without_env_and_arguments_the_unknowns_are_noted_and_only_their_rules_skipped(tmp_path):
    path = tmp_path / "train.sh"
    path.write_text(SCRIPT)
    proc, doc = check(path)
    assert proc.returncode == 0 and "BATCH-001" not in ids(doc)
    world = next(n for n in doc["notes"] if "$WORLD_SIZE" in n)
    assert "trainer.nnodes is unknown" in world and "BATCH-001" in world and "--env WORLD_SIZE=VALUE" in world
    args = next(n for n in doc["notes"] if "arguments" in n)
    assert "actor_rollout_ref.model.path is unknown" in args and "ROLE-001" in args and "after --" in args


def test_env_and_arguments_make_them_checked(tmp_path):
    path = tmp_path / "train.sh"
    path.write_text(SCRIPT)
    proc, doc = check(path, "--env", "WORLD_SIZE=2", "--", "Qwen/Qwen3-8B")
    assert proc.returncode == 1 and "BATCH-001" in ids(doc)  # 50 × 4 = 200 responses over 16 GPUs
    assert not [n for n in doc["notes"] if " unknown" in n]
    proc, doc = check(path, "--env", "WORLD_SIZE=1", "--", "Qwen/Qwen3-8B")
    assert proc.returncode == 0 and "BATCH-001" not in ids(doc)


def test_a_bad_env_flag_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "train.sh"
    path.write_text(SCRIPT)
    proc = cli("check", str(path), "--env", "2WORLD=1")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--env 2WORLD=1" in proc.stderr


def test_new_from_script_takes_them_too(tmp_path):
    path = tmp_path / "train.sh"
    even = {"train_batch_size=50": "train_batch_size=64", "mini_batch_size=10": "mini_batch_size=16"}
    even |= {"size_per_gpu=5": "size_per_gpu=4"}
    text = SCRIPT
    for old, new in even.items():
        text = text.replace(old, new)
    path.write_text(text)
    out = tmp_path / "out"
    proc = cli("new", "--from-script", str(path), "--env", "WORLD_SIZE=2", "--out", str(out), "--", "Qwen/Qwen3-8B")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    config = (out / "config.yaml").read_text()
    assert "nnodes: 2" in config and "path: Qwen/Qwen3-8B" in config
    # without them, the typed value is left out (the layer below: one node) and the RUN.md says how to give it
    out2 = tmp_path / "out2"
    proc = cli(
        "new", "--from-script", str(path), "--out", str(out2), "--set", "actor_rollout_ref.model.path=Qwen/Qwen3-8B"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "nnodes: 2" not in (out2 / "config.yaml").read_text()
    assert "trainer.nnodes=$WORLD_SIZE" in (out2 / "RUN.md").read_text()
