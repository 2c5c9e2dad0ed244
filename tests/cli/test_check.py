"""`verl-wizard check` on launch scripts, wizard configs, composed .hydra configs and answers files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import cli, cli_json
from wizard.core import verl_schema
from wizard.emit.yaml_text import nest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "check"


def error_ids(doc) -> set[str]:
    return {f["id"] for f in doc["findings"] if f["severity"] == "error"}


@pytest.mark.parametrize("script", ["grpo_8gpu_ok.sh", "ppo_1gpu_ok.sh"])
def test_realistic_example_scripts_pass(script):
    proc, doc = cli_json("check", str(FIXTURES / script), "--mode", "cluster")
    assert proc.returncode == 0 and doc["verdict"] == "pass", doc
    assert doc["source"] == "launch script"


def test_classic_mistakes_are_all_reported_in_one_run():
    proc, doc = cli_json("check", str(FIXTURES / "mistakes.sh"), "--mode", "cluster")
    assert proc.returncode == 1 and doc["verdict"] == "fail"
    # no data.val_files: verl's placeholder (DATA-011); reward_model.enable=True: main_ppo leaves the reward model off
    assert error_ids(doc) == {"BATCH-001", "KEY-001", "KEY-002", "DATA-011", "KEY-008"}
    legacy = [f for f in doc["findings"] if f["id"] in ("KEY-003", "KEY-008")]
    assert {(f["id"], f["paths"][0]) for f in legacy} == {
        ("KEY-008", "reward_model.enable"),
        ("KEY-003", "reward_model.model.path"),
    }
    typo = next(f for f in doc["findings"] if f["id"] == "KEY-001")
    assert typo["fixes"][0]["set"] == {
        "actor_rollout_ref.actor.ppo_epoch": None,
        "actor_rollout_ref.actor.ppo_epochs": 2,
    }


def test_tp2_on_one_gpu():
    proc, doc = cli_json("check", str(FIXTURES / "tp2_on_one_gpu.sh"), "--mode", "cluster")
    assert proc.returncode == 1 and error_ids(doc) == {"PLACE-001"}
    assert doc["findings"][0]["fixes"][0]["set"] == {"actor_rollout_ref.rollout.tensor_model_parallel_size": 1}


def test_validate_config_alias_is_check():
    proc = cli("validate-config", "--config", str(FIXTURES / "tp2_on_one_gpu.sh"), "--mode", "cluster")
    assert proc.returncode == 1 and "PLACE-001" in proc.stdout


def composed(engine: str = "dp", **changes) -> dict:
    """A full composed config as verl saves it in .hydra/config.yaml: every key, defaults included."""
    flat = dict(verl_schema.defaults(engine))
    flat.update(changes)
    return nest(flat)


def test_composed_hydra_config_reads_only_what_differs(tmp_path):
    good = composed(
        **{
            "actor_rollout_ref.model.path": "Qwen/Qwen3-8B",
            "actor_rollout_ref.rollout.name": "vllm",
            "algorithm.adv_estimator": "grpo",
            "actor_rollout_ref.rollout.n": 4,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 4,
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 8,
            "data.train_files": "/d/train.parquet",
            "data.val_files": "/d/test.parquet",
        }
    )
    path = tmp_path / ".hydra" / "config.yaml"
    path.parent.mkdir()
    path.write_text(yaml.safe_dump(good))
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert doc["source"] == "composed config" and proc.returncode == 0, doc
    bad = yaml.safe_load(path.read_text())
    bad["actor_rollout_ref"]["actor"]["ppo_mini_batch_size"] = 2048
    path.write_text(yaml.safe_dump(bad))
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert proc.returncode == 1 and "BATCH-002" in error_ids(doc)


def test_wizard_config_with_megatron_override_is_read_as_megatron(tmp_path):
    assert cli("new", "--preset", "grpo-megatron-tp2pp2-1x8", "--out", str(tmp_path)).returncode == 0
    config = tmp_path / "config.yaml"
    text = config.read_text().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: 3", 1)
    config.write_text(text)
    _proc, doc = cli_json("check", str(config), "--mode", "cluster")
    assert "PLACE-004" in error_ids(doc)


def test_check_reads_an_answers_file(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text(
        "rollout: {name: vllm, tensor_parallel_size: 1}\nmodels: {actor_path: Qwen/Qwen3-8B}\n"
        "algorithm: {adv_estimator: grpo}\nbatch: {rollout_n: 4, train_batch_size: 64, ppo_mini_batch_size: 16,"
        " ppo_micro_batch_size_per_gpu: 4, log_prob_micro_batch_size_per_gpu: 4}\ncluster: {n_gpus_per_node: 3}\n"
    )
    _proc, doc = cli_json("check", str(answers), "--mode", "cluster")
    assert doc["source"] == "answers file"
    assert "BATCH-001" in error_ids(doc)


def test_check_reads_the_answers_file_new_writes_with_its_record(tmp_path):
    out = tmp_path / "run"
    script = Path(__file__).resolve().parents[1] / "fixtures" / "old_scripts" / "removed_keys_v02_gsm8k.sh"
    assert cli("new", "--from-script", str(script), "--out", str(out)).returncode == 0
    text = (out / "answers.yaml").read_text()
    assert "\nprovenance:\n" in text and "\nmigrated:\n" in text
    proc, doc = cli_json("check", str(out / "answers.yaml"), "--mode", "cluster")
    assert doc["source"] == "answers file" and proc.returncode == 0, doc


def test_text_output_shows_reason_and_fix_as_set_flag():
    proc = cli("check", str(FIXTURES / "tp2_on_one_gpu.sh"), "--mode", "cluster")
    assert "why: Each inference replica takes TP GPUs" in proc.stdout
    assert "--set actor_rollout_ref.rollout.tensor_model_parallel_size=1" in proc.stdout
