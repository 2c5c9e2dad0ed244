"""Old and forked launch scripts: `check` reports every refused key at once, `new --from-script` carries them over.

The fixtures in tests/fixtures/old_scripts are written in the style of public verl repositories, one per
class of problem (removed keys, moved reward keys, fork-only keys, `+` on existing keys, a broken
continuation, a foreign --config-name) and one with ten problems at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import cli, cli_json
from wizard.core import verl_schema
from wizard.detect.config.files import flatten_config
from wizard.detect.script.importer import import_script, migrate_script

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "old_scripts"
SCRIPTS = sorted(p.name for p in OLD.glob("*.sh"))


def report(name: str) -> dict:
    proc, doc = cli_json("check", str(OLD / name), "--mode", "cluster")
    assert proc.returncode in (0, 1), proc.stderr
    return doc


def found(doc, severities=("error", "warning")) -> set[tuple[str, str]]:
    return {(f["id"], f["paths"][0] if f["paths"] else "") for f in doc["findings"] if f["severity"] in severities}


def first_fix(doc, rule_id: str, path: str) -> dict:
    finding = next(f for f in doc["findings"] if f["id"] == rule_id and f["paths"][0] == path)
    return finding["fixes"][0]["set"] if finding["fixes"] else {}


# --- check: every class reported completely in one run ----------------------------------------


def test_removed_keys_all_reported_with_release_and_fix():
    doc = report("removed_keys_v02_gsm8k.sh")
    assert found(doc) == {
        ("KEY-001", "actor_rollout_ref.actor.fsdp_config.grad_offload"),
        ("KEY-001", "actor_rollout_ref.rollout.val_temperature"),
        ("KEY-001", "trainer.val_generations_to_log_to_wandb"),
        ("KEY-001", "trainer.remove_previous_ckpt_in_save"),
    }
    assert first_fix(doc, "KEY-001", "actor_rollout_ref.rollout.val_temperature") == {
        "actor_rollout_ref.rollout.val_temperature": None,
        "actor_rollout_ref.rollout.val_kwargs.temperature": 0,
    }
    assert first_fix(doc, "KEY-001", "actor_rollout_ref.actor.fsdp_config.grad_offload") == {
        "actor_rollout_ref.actor.fsdp_config.grad_offload": None
    }
    grad = next(f for f in doc["findings"] if f["paths"] == ["actor_rollout_ref.actor.fsdp_config.grad_offload"])
    assert "removed in verl 0.3.0" in grad["message"]


def test_moved_reward_keys_each_get_their_new_home():
    doc = report("moved_reward_keys_v05_rm.sh")
    assert found(doc) == {
        ("KEY-001", "critic.model.fsdp_config.param_offload"),
        ("KEY-001", "reward_model.micro_batch_size_per_gpu"),
        ("KEY-008", "reward_model.enable"),  # main_ppo leaves the reward model off: an error
        ("KEY-003", "reward_model.model.path"),
        ("KEY-003", "reward_model.reward_manager"),
        ("KEY-003", "custom_reward_function.path"),
        ("KEY-003", "custom_reward_function.name"),
    }
    assert first_fix(doc, "KEY-003", "reward_model.model.path") == {
        "reward_model.model.path": None,
        "reward.reward_model.model_path": "Skywork/Skywork-Reward-V2-Qwen3-0.6B",
    }
    assert first_fix(doc, "KEY-003", "reward_model.reward_manager") == {
        "reward_model.reward_manager": None,
        "reward.reward_manager.name": "naive",
    }
    assert first_fix(doc, "KEY-008", "reward_model.enable") == {
        "reward_model.enable": None,
        "reward.reward_model.enable": True,
        "reward.reward_model.rollout.name": "vllm",
    }
    assert first_fix(doc, "KEY-001", "critic.model.fsdp_config.param_offload") == {
        "critic.model.fsdp_config.param_offload": None,
        "critic.fsdp.param_offload": False,
    }


def test_fork_keys_are_called_fork_keys_not_typos():
    doc = report("fork_only_keys.sh")
    assert found(doc, ("error", "warning", "info")) == {
        ("SCRIPT-006", "algorithm.curriculum.enable"),
        ("SCRIPT-006", "algorithm.curriculum.warmup_epochs"),
        ("SCRIPT-006", "data.difficulty_key"),
        ("SCRIPT-006", "actor_rollout_ref.actor.entropy_coeff_schedule"),
        ("SCRIPT-007", "actor_rollout_ref.rollout.curriculum_temperature"),
        ("SCRIPT-008", "trainer.upload_to_hub"),
    }
    for f in doc["findings"]:
        assert "did you mean" not in f["message"]
    assert first_fix(doc, "SCRIPT-006", "data.difficulty_key") == {"data.difficulty_key": None}


def test_plus_on_existing_keys_and_a_new_open_entry_without_plus():
    doc = report("plus_on_existing_keys.sh")
    assert found(doc) == {
        ("SCRIPT-005", "actor_rollout_ref.actor.fsdp_config.model_dtype"),
        ("SCRIPT-005", "actor_rollout_ref.rollout.max_num_seqs"),
        ("SCRIPT-005", "trainer.val_before_train"),
        ("SCRIPT-006", "actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space"),
    }
    plus = next(f for f in doc["findings"] if f["paths"] == ["trainer.val_before_train"])
    assert "line 26" in plus["message"] and "write trainer.val_before_train=False" in plus["message"]


def test_broken_continuation_says_what_bash_passes():
    doc = report("broken_continuation.sh")
    [cut] = [f for f in doc["findings"] if f["id"] == "SCRIPT-001"]
    assert cut["message"].startswith("line 16: a # comment after the line-continuation backslash")
    assert "verl never gets actor_rollout_ref.rollout.name" in cut["message"]
    # what bash really runs: the keys after line 16 are missing, and the rules see that
    assert {"KEY-002", "BATCH-008"} <= {f["id"] for f in doc["findings"]}


def test_foreign_config_name_is_one_finding():
    doc = report("foreign_config_name.sh")
    assert doc["verdict"] == "pass"
    assert found(doc) == {("SCRIPT-009", "retriever.url")}
    [own] = [f for f in doc["findings"] if f["id"] == "SCRIPT-009"]
    assert "'search_agent_grpo'" in own["message"] and "4 of its overrides" in own["message"]


TEN = {
    ("KEY-001", "actor_rollout_ref.actor.ppo_epoch"),  # a typo, with the real key
    ("KEY-001", "actor_rollout_ref.actor.fsdp_config.grad_offload"),  # removed in 0.3.0
    ("KEY-001", "ray_init.num_cpus"),  # moved in 0.6.0
    ("KEY-001", "trainer.val_generations_to_log_to_wandb"),  # renamed in 0.4.0
    ("KEY-003", "custom_reward_function.path"),  # moved under reward.* in 0.7.1
    ("SCRIPT-002", "trainer.nnodes"),  # a missing backslash
    ("SCRIPT-003", "trainer.default_local_dir"),  # an empty value
    ("SCRIPT-004", "actor_rollout_ref.rollout.gpu_memory_utilization"),  # the same key twice
    ("SCRIPT-005", "trainer.val_before_train"),  # + on a key verl has
    ("SCRIPT-006", "actor_rollout_ref.actor.entropy_coeff_schedule"),  # a fork's key without +
}


def test_ten_problems_in_one_report():
    doc = report("ten_problems.sh")
    assert found(doc) == TEN
    assert len([f for f in doc["findings"] if f["severity"] != "info"]) == 10


# --- new --from-script: a verl 0.9.1 config, and RUN.md lists every change ---------------------


@pytest.mark.parametrize("name", SCRIPTS)
def test_import_writes_only_keys_of_verl_0_9_1_and_lists_every_change(name, tmp_path):
    proc, doc = cli_json("new", "--from-script", str(OLD / name), "--out", str(tmp_path))
    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert "config.yaml" in doc["written"] and "RUN.md" in doc["written"]
    config = yaml.safe_load((tmp_path / "config.yaml").read_text())
    engine = "megatron" if "megatron" in str(config["defaults"]) else "dp"
    body = {k: v for k, v in config.items() if k not in ("defaults", "hydra")}
    for key in flatten_config(body, engine):
        assert verl_schema.key_exists(key, engine), f"{name}: {key} is not a verl 0.9.1 key"
    run_md = (tmp_path / "RUN.md").read_text()
    imported = import_script(OLD / name)
    assert f"## Migrated from `{OLD / name}`" in run_md
    for line in [*imported.changed, *imported.dropped, *imported.notes]:
        assert f"- {line}\n" in run_md, line
    changed, dropped = run_md.split("### Keys changed")[1], run_md.split("### Keys dropped")[1]
    assert ("- none" in changed.split("###")[0]) == (not imported.changed)
    assert ("- none" in dropped.split("###")[0]) == (not imported.dropped)


def test_import_moves_the_reward_settings(tmp_path):
    flat, notes = migrate_script(OLD / "moved_reward_keys_v05_rm.sh")
    assert flat["reward.reward_model.enable"] is True
    assert flat["reward.reward_model.model_path"] == "Skywork/Skywork-Reward-V2-Qwen3-0.6B"
    assert flat["reward.reward_manager.name"] == "naive"
    assert flat["reward.custom_reward_function.path"] == "./rewards/math_verify.py"
    assert flat["critic.fsdp.param_offload"] is False
    assert not [k for k in flat if k.startswith(("reward_model.", "custom_reward_function."))]
    assert any(n.startswith("dropped: reward_model.micro_batch_size_per_gpu=8: removed in verl 0.7.1") for n in notes)


def test_import_keeps_what_the_author_meant_across_a_broken_continuation():
    flat, notes = migrate_script(OLD / "broken_continuation.sh")
    assert flat["trainer.nnodes"] == 2 and flat["actor_rollout_ref.rollout.n"] == 8
    assert flat["actor_rollout_ref.actor.clip_ratio_high"] == 0.28
    assert "line 16: removed what followed the line-continuation backslash" in notes
    assert "line 20: added the missing line-continuation backslash" in notes


def test_import_drops_fork_keys_and_plus_prefixes_disappear():
    flat, notes = migrate_script(OLD / "fork_only_keys.sh")
    assert not [k for k in flat if "curriculum" in k or "difficulty" in k or "upload_to_hub" in k]
    assert sum(n.startswith("dropped: ") for n in notes) == 6
    plus, _ = migrate_script(OLD / "plus_on_existing_keys.sh")
    assert plus["trainer.val_before_train"] is False
    assert plus["actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space"] == 8
    assert plus["data.train_files"] == "${oc.env:HOME}/data/gsm8k/train.parquet"


def test_import_of_ten_problems_repairs_renames_and_drops(tmp_path):
    flat, notes = migrate_script(OLD / "ten_problems.sh")
    assert flat["trainer.total_epochs"] == 10 and flat["trainer.save_freq"] == 20
    assert flat["ray_kwargs.ray_init.num_cpus"] == 64 and flat["trainer.log_val_generations"] == 10
    assert flat["actor_rollout_ref.rollout.gpu_memory_utilization"] == 0.7
    assert "trainer.default_local_dir" not in flat
    assert "actor_rollout_ref.actor.ppo_epoch" not in flat and "actor_rollout_ref.actor.ppo_epochs" not in flat
    assert any("did you mean actor_rollout_ref.actor.ppo_epochs" in str(n) for n in notes)


def test_set_flags_apply_over_the_imported_script(tmp_path):
    proc = cli(
        "new",
        "--from-script",
        str(OLD / "ten_problems.sh"),
        "--set",
        "actor_rollout_ref.actor.ppo_epochs=2",
        "--set",
        "trainer.total_epochs=3",
        "--out",
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stdout
    config = yaml.safe_load((tmp_path / "config.yaml").read_text())
    assert config["trainer"]["total_epochs"] == 3 and config["actor_rollout_ref"]["actor"]["ppo_epochs"] == 2


def test_from_script_with_a_missing_or_foreign_file_writes_nothing(tmp_path):
    proc = cli("new", "--from-script", str(tmp_path / "nope.sh"), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "nope.sh: no such file" in proc.stderr
    other = tmp_path / "hello.sh"
    other.write_text("#!/bin/bash\necho hello\n")
    proc = cli("new", "--from-script", str(other), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "no `python -m verl.trainer.main_ppo` command" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_the_tui_import_takes_env_and_arguments_after_the_path(tmp_path):
    from wizard.detect.script.importer import parse_import_spec

    path = tmp_path / "train.sh"
    path.write_text(
        "#!/bin/bash\nMODEL=$1\npython3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=$MODEL "
        "actor_rollout_ref.rollout.name=vllm trainer.nnodes=$NODES\n"
    )
    spec = f"{path} --env NODES=2 -- Qwen/Qwen3-8B"
    assert parse_import_spec(spec) == (str(path), {"NODES": "2"}, ["Qwen/Qwen3-8B"])
    flat, _ = migrate_script(spec)
    assert flat["trainer.nnodes"] == 2 and flat["actor_rollout_ref.model.path"] == "Qwen/Qwen3-8B"
    # the path alone: both are unknown and left out, each with a note saying how to give it
    flat, notes = migrate_script(str(path))
    assert "actor_rollout_ref.model.path" not in flat and "trainer.nnodes" not in flat
    assert any("actor_rollout_ref.model.path=$1" in str(n) and "-- ARG" in str(n) for n in notes)
    assert any("trainer.nnodes=$NODES" in str(n) and "--env" in str(n) for n in notes)


@pytest.mark.parametrize("preset", ["grpo-8b-1x8", "grpo-megatron-tp2pp2-1x8"])
def test_importing_the_run_sh_new_writes_gives_back_the_same_config(preset, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    assert cli("new", "--preset", preset, "--out", str(first)).returncode == 0
    proc = cli("new", "--from-script", str(first / "run.sh"), "--out", str(second))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    body = [line for line in (first / "config.yaml").read_text().splitlines() if not line.startswith("#")]
    again = [line for line in (second / "config.yaml").read_text().splitlines() if not line.startswith("#")]
    assert again == body
    assert f"config from {first / 'config.yaml'}" in (second / "RUN.md").read_text()
