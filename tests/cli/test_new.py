"""`verl-wizard new`: every preset writes its artefacts; errors write nothing; files are never clobbered."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.cli.helpers import cli, cli_json
from wizard.core import verl_schema
from wizard.core.presets import preset_names
from wizard.detect.config.files import flatten_config

PRESETS = preset_names()


def test_presets_json_lists_every_preset_with_its_shape():
    proc = cli("presets", "--format", "json")
    listed = json.loads(proc.stdout)
    assert proc.returncode == 0
    assert (
        {p["name"] for p in listed}
        == set(PRESETS)
        >= {
            "workshop-0.5b-1gpu",
            "workshop-grpo-0.5b-1gpu",
            "grpo-8b-1x8",
            "ppo-critic-8b-1x8",
            "grpo-megatron-tp2pp2-1x8",
            "grpo-7b-2x8",
            "grpo-lora-8b-2gpu",
        }
    )
    shapes = {p["name"]: (p["nnodes"], p["n_gpus_per_node"]) for p in listed}
    assert shapes["grpo-7b-2x8"] == (2, 8) and shapes["workshop-0.5b-1gpu"] == (1, 1)
    assert shapes["workshop-grpo-0.5b-1gpu"] == (1, 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_new_writes_every_artefact_with_only_real_keys(preset, tmp_path):
    proc, doc = cli_json("new", "--preset", preset, "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert doc["verdict"] == "pass" and doc["written"] == ["config.yaml", "run.sh", "answers.yaml", "RUN.md"]
    config = yaml.safe_load((tmp_path / "config.yaml").read_text())
    engine = "megatron" if {"override model_engine": "megatron"} in config["defaults"] else "dp"
    body = {k: v for k, v in config.items() if k not in ("hydra", "defaults")}
    keys = flatten_config(body, engine)
    assert keys, "config.yaml holds no values"
    assert [k for k in keys if not verl_schema.key_exists(k, engine)] == []
    assert (tmp_path / "run.sh").stat().st_mode & 0o100


def test_answers_file_replays_to_the_same_config(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert (
        cli("new", "--preset", "grpo-8b-1x8", "--set", "data.train_batch_size=512", "--out", str(first)).returncode == 0
    )
    assert cli("new", "--answers", str(first / "answers.yaml"), "--out", str(second)).returncode == 0
    assert yaml.safe_load((first / "config.yaml").read_text()) == yaml.safe_load((second / "config.yaml").read_text())
    assert (first / "answers.yaml").read_text() == (second / "answers.yaml").read_text()


def test_errors_write_nothing_and_exit_1(tmp_path):
    out = tmp_path / "out"
    proc, doc = cli_json(
        "new", "--preset", "grpo-8b-1x8", "--set", "actor_rollout_ref.actor.ppo_mini_batch_size=2048", "--out", str(out)
    )
    assert proc.returncode == 1 and doc["verdict"] == "fail" and doc["written"] == []
    assert "BATCH-002" in {f["id"] for f in doc["findings"]}
    assert not out.exists()


def test_set_takes_launch_script_spelling_and_fix_keys_are_verl_keys(tmp_path):
    proc, doc = cli_json(
        "new",
        "--preset",
        "workshop-0.5b-1gpu",
        "--set",
        "+actor_rollout_ref.rollout.tensor_model_parallel_size=2",
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 1
    place = next(f for f in doc["findings"] if f["id"] == "PLACE-001")
    assert place["fixes"][0]["set"] == {"actor_rollout_ref.rollout.tensor_model_parallel_size": 1}
    assert place["paths"][0] == "actor_rollout_ref.rollout.tensor_model_parallel_size"


def test_existing_different_file_needs_force(tmp_path):
    (tmp_path / "config.yaml").write_text("mine\n")
    proc = cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path))
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert (tmp_path / "config.yaml").read_text() == "mine\n"
    assert not (tmp_path / "run.sh").exists()
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path), "--force").returncode == 0
    assert (tmp_path / "config.yaml").read_text() != "mine\n"


def test_rerun_with_identical_output_needs_no_force(tmp_path):
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path)).returncode == 0
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path)).returncode == 0


def test_answers_carry_the_topology_and_new_answers_replays_it_byte_for_byte(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    proc = cli("new", "--preset", "workshop-grpo-0.5b-1gpu", "--topology", "1xH100", "--out", str(first))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (first / "answers.yaml").read_text()
    assert "\ntopology: 1xH100\n" in text
    assert cli("new", "--answers", str(first / "answers.yaml"), "--out", str(second)).returncode == 0
    assert (second / "answers.yaml").read_text() == text
    plain = tmp_path / "c"
    assert cli("new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(plain)).returncode == 0
    assert "topology:" not in (plain / "answers.yaml").read_text()  # none given, none recorded
