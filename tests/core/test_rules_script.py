"""Launch-script rules (SCRIPT-*) and KEY-001's history-aware messages: a failing case and its neighbours."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BASE
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.config.files import read_launch_script


def script_findings(lines: list[str], flags: str = "", base: dict | None = None):
    """Findings for a script running main_ppo with `lines` as overrides on top of a good base."""
    body = " \\\n".join([f"python3 -m verl.trainer.main_ppo{flags}", *lines]) + "\n"
    source = read_launch_script(Path("run.sh"), "#!/bin/bash\nset -x\n" + body)
    layered = build([("base", dict(BASE if base is None else base)), ("launch script", source.flat)])
    return evaluate(context_for(layered.answers, layered.flat, mode="cluster", script=source.script))


def by_id(findings, rule_id):
    return [f for f in findings if f.id == rule_id]


def test_a_clean_script_has_no_script_findings():
    findings = script_findings(
        [
            "trainer.total_epochs=3",
            "+actor_rollout_ref.model.override_config.attention_dropout=0.0",
            "++trainer.val_before_train=false",
        ]
    )
    assert not [f for f in findings if f.id.startswith("SCRIPT")]


def test_configs_without_a_script_get_no_script_findings():
    layered = build([("base", {**BASE, "trainer.my_key": 1})])
    findings = evaluate(context_for(layered.answers, layered.flat, mode="cluster"))
    assert not [f for f in findings if f.id.startswith("SCRIPT")]
    assert "belongs to a fork" in str(by_id(findings, "KEY-001")[0].message)


# --- shell level -----------------------------------------------------------------------------


def findings_of_text(body: str):
    source = read_launch_script(Path("run.sh"), body)
    layered = build([("base", BASE), ("launch script", source.flat)])
    return evaluate(context_for(layered.answers, layered.flat, mode="cluster", script=source.script))


def test_script_001_comment_after_backslash_names_the_line_and_the_lost_keys():
    body = (
        "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 \\ # three epochs\n"
        "  trainer.save_freq=10 \\\n  trainer.test_freq=5\n"
    )
    [f] = by_id(findings_of_text(body), "SCRIPT-001")
    assert f.severity.value == "error" and "line 2" in str(f.message)
    assert "trainer.save_freq, trainer.test_freq" in str(f.message)
    assert not by_id(script_findings(["trainer.total_epochs=3 \\", "trainer.save_freq=10"]), "SCRIPT-001")


def test_script_002_missing_backslash():
    body = "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3\n  trainer.save_freq=10 \\\n  trainer.test_freq=5\n"
    [f] = by_id(findings_of_text(body), "SCRIPT-002")
    assert "line 2" in str(f.message) and "trainer.save_freq, trainer.test_freq" in str(f.message)
    assert not by_id(script_findings(["trainer.total_epochs=3", "trainer.save_freq=10"]), "SCRIPT-002")


def test_script_003_empty_value_with_a_checked_fix():
    [f] = by_id(script_findings(["trainer.default_local_dir="]), "SCRIPT-003")
    assert f.paths == ("trainer.default_local_dir",) and f.severity.value == "warning"
    assert [fix.set for fix in f.fixes] == [{"trainer.default_local_dir": None}]
    assert not by_id(script_findings(["trainer.default_local_dir=''"]), "SCRIPT-003")  # an explicit empty string


def test_script_004_same_key_twice_with_different_values():
    [f] = by_id(script_findings(["trainer.save_freq=10", "trainer.save_freq=20"]), "SCRIPT-004")
    assert "Hydra keeps the last one" in str(f.message) and f.paths == ("trainer.save_freq",)
    assert not by_id(script_findings(["trainer.save_freq=10", "trainer.save_freq=10"]), "SCRIPT-004")


def test_script_010_value_hydra_rejects():
    [f] = by_id(script_findings(["trainer.logger=console,wandb"]), "SCRIPT-010")
    assert "sweep" in str(f.message)
    assert not by_id(script_findings(["trainer.logger=[console,wandb]"]), "SCRIPT-010")


def test_script_011_unclosed_quote():
    assert by_id(script_findings(["trainer.project_name='math rl"]), "SCRIPT-011")
    assert not by_id(script_findings(["trainer.project_name='math rl'"]), "SCRIPT-011")


def test_script_012_second_verl_command():
    body = "python3 -m verl.trainer.main_ppo trainer.total_epochs=1\npython3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"
    assert by_id(findings_of_text(body), "SCRIPT-012")
    assert not by_id(findings_of_text("python3 -m verl.trainer.main_ppo trainer.total_epochs=1\n"), "SCRIPT-012")


# --- + prefixes ------------------------------------------------------------------------------


def test_script_005_plus_on_a_key_verl_has():
    [f] = by_id(script_findings(["+trainer.val_before_train=False"]), "SCRIPT-005")
    assert "Could not append to config" in str(f.message) and "write trainer.val_before_train=False" in str(f.message)
    neighbours = script_findings(
        [
            "++trainer.val_before_train=False",
            "trainer.val_before_train=False",
            "+actor_rollout_ref.model.override_config.rope_theta=1000000",
        ]
    )
    assert not by_id(neighbours, "SCRIPT-005")


def test_script_005_plus_on_a_null_key_is_what_hydra_allows():
    # Hydra appends with + where the key's value is null or ??? (verl 0.9.1's data.gen_batch_size: null) and merges a
    # mapping or a list; verl-recipe's flash_rl_ascend writes +data.gen_batch_size=96 and verl composes it.
    assert not by_id(script_findings(["+data.gen_batch_size=96"]), "SCRIPT-005")
    assert not by_id(script_findings(["+actor_rollout_ref.model.override_config={rope_theta:1000000}"]), "SCRIPT-005")
    # the neighbour: a key set to a value refuses +, a scalar over a set mapping too
    assert by_id(script_findings(["+trainer.total_epochs=3"]), "SCRIPT-005")
    assert by_id(script_findings(["+data.max_prompt_length=1024"]), "SCRIPT-005")


def test_script_006_new_entry_of_an_open_mapping_needs_plus():
    [f] = by_id(script_findings(["actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=8"]), "SCRIPT-006")
    assert "write +actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=8" in str(f.message)
    assert not by_id(script_findings(["+actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=8"]), "SCRIPT-006")


def test_script_006_fork_key_without_plus_replaces_key_001():
    findings = script_findings(["algorithm.curriculum.enable=True"])
    [f] = by_id(findings, "SCRIPT-006")
    assert "belongs to a fork or to the script's own code" in str(f.message)
    assert "+algorithm.curriculum.enable=True" in str(f.message)
    assert [fix.set for fix in f.fixes] == [{"algorithm.curriculum.enable": None}]
    assert not by_id(findings, "KEY-001")  # one finding per key


def test_script_007_plus_key_under_a_config_class_and_008_under_a_plain_section():
    [f] = by_id(script_findings(["+actor_rollout_ref.actor.my_flag=1"]), "SCRIPT-007")
    assert "actor_rollout_ref.actor" in str(f.message) and "unexpected keyword argument my_flag" in str(f.message)
    plain = script_findings(["+trainer.my_flag=1"])
    assert by_id(plain, "SCRIPT-008") and not by_id(plain, "SCRIPT-007") and not by_id(plain, "KEY-001")
    assert by_id(plain, "SCRIPT-008")[0].severity.value == "info"


def test_removed_and_typo_keys_stay_key_001_in_a_script():
    findings = script_findings(
        ["actor_rollout_ref.actor.fsdp_config.grad_offload=False", "actor_rollout_ref.actor.ppo_epoch=2"]
    )
    messages = {f.paths[0]: f for f in by_id(findings, "KEY-001")}
    assert "removed in verl 0.3.0" in str(messages["actor_rollout_ref.actor.fsdp_config.grad_offload"].message)
    typo = messages["actor_rollout_ref.actor.ppo_epoch"]
    assert typo.fixes[0].set == {"actor_rollout_ref.actor.ppo_epoch": None, "actor_rollout_ref.actor.ppo_epochs": 2}
    assert not by_id(findings, "SCRIPT-006")


# --- a primary config of the script's own -----------------------------------------------------


def test_script_009_foreign_config_name_reported_once_not_as_unknown_keys():
    lines = [
        "retriever.url=http://127.0.0.1:8000",
        "retriever.topk=3",
        "agent.max_turns=4",
        "actor_rollout_ref.actor.fsdp_config.grad_offload=False",
    ]
    findings = script_findings(lines, flags=" --config-path=./config --config-name=search_grpo")
    [f] = by_id(findings, "SCRIPT-009")
    assert "'search_grpo'" in str(f.message) and "3 of its overrides" in str(f.message)
    assert set(f.paths) == {"retriever.url", "retriever.topk", "agent.max_turns"}
    assert not by_id(findings, "SCRIPT-006")
    assert [k.paths for k in by_id(findings, "KEY-001")] == [("actor_rollout_ref.actor.fsdp_config.grad_offload",)]


@pytest.mark.parametrize("flags", ["", " --config-name=ppo_trainer", " --config-name=ppo_megatron_trainer"])
def test_script_009_verl_own_config_names_pass(flags):
    assert not by_id(script_findings(["trainer.total_epochs=1"], flags=flags), "SCRIPT-009")


# --- KEY-001 and KEY-003 with the history ------------------------------------------------------


def test_key_001_moved_key_offers_the_new_home():
    [f] = by_id(script_findings(["ray_init.num_cpus=64"]), "KEY-001")
    assert "moved to ray_kwargs.ray_init.num_cpus in verl 0.6.0" in str(f.message)
    assert f.fixes[0].set == {"ray_init.num_cpus": None, "ray_kwargs.ray_init.num_cpus": 64}


def test_key_003_reward_model_keys_move_with_a_fix_that_works():
    findings = script_findings(["reward_model.enable=True", "reward_model.model.path=/models/rm"])
    fixes = {f.paths[0]: f.fixes[0].set for f in [*by_id(findings, "KEY-003"), *by_id(findings, "KEY-008")]}
    assert fixes["reward_model.model.path"] == {
        "reward_model.model.path": None,
        "reward.reward_model.model_path": "/models/rm",
    }
    assert fixes["reward_model.enable"]["reward.reward_model.enable"] is True


def test_key_001_reward_model_key_0_9_1_has_no_placeholder_for():
    [f] = by_id(script_findings(["reward_model.micro_batch_size_per_gpu=8"]), "KEY-001")
    assert "removed in verl 0.7.1" in str(f.message)
    assert not by_id(script_findings(["reward_model.micro_batch_size_per_gpu=8"]), "KEY-003")


# --- Hydra config-group choices and open mappings (issue 16) --------------------------------------


def test_model_engine_is_a_choice_not_an_unknown_key():
    findings = script_findings(["model_engine=megatron", "trainer.total_epochs=3"])
    assert not [f for f in findings if f.id.startswith(("SCRIPT", "KEY"))]
    assert by_id(script_findings(["model_engine=megatorn"]), "SCRIPT-013")
    [bad] = by_id(script_findings(["model_engine=megatorn"]), "SCRIPT-013")
    assert "dp, megatron, torchtitan, veomni" in str(bad.message) and bad.paths == ("model_engine",)


def test_a_group_choice_brings_the_keys_of_its_option():
    key = "actor_rollout_ref.actor.megatron.dist_checkpointing_path=/ckpt"
    assert by_id(script_findings([key]), "KEY-001")  # the dp actor has no megatron section
    chosen = script_findings(["actor@actor_rollout_ref.actor=megatron_actor", key])
    assert not [f for f in chosen if f.id.startswith(("SCRIPT", "KEY"))]
    assert by_id(script_findings(["actor@actor_rollout_ref.actor=no_such_actor"]), "SCRIPT-013")


def test_mappings_verl_config_classes_leave_open_take_new_entries_with_plus():
    # FSDPEngineConfig types mixed_precision as a dict: verl 0.9.1 accepts any entry under it
    entry = "actor_rollout_ref.actor.fsdp_config.mixed_precision.param_dtype=bf16"
    assert not [f for f in script_findings(["+" + entry]) if f.id.startswith(("SCRIPT", "KEY"))]
    # without + Hydra has no key to override there
    assert by_id(script_findings([entry]), "SCRIPT-006")
    # a key under a config class that is not a dict field is still refused at start-up
    assert by_id(script_findings(["+actor_rollout_ref.actor.fsdp_config.no_such_knob=1"]), "SCRIPT-007")


def test_script_014_overrides_after_the_pipe_go_to_tee():
    cut = "python3 -m verl.trainer.main_ppo trainer.total_epochs=1 2>&1 | tee run.log \\\n    trainer.resume_mode=disable\n"
    [f] = by_id(findings_of_text(cut), "SCRIPT-014")
    assert "trainer.resume_mode" in str(f.message) and "tee" in str(f.message)
    whole = (
        "python3 -m verl.trainer.main_ppo trainer.total_epochs=1 trainer.resume_mode=disable 2>&1 | tee -a run.log\n"
    )
    assert not by_id(findings_of_text(whole), "SCRIPT-014")  # a log pipe at the end loses nothing
    after = "python3 -m verl.trainer.main_ppo trainer.total_epochs=1; echo trainer.done=1\n"
    assert not by_id(findings_of_text(after), "SCRIPT-014")  # another command, not a pipe
    either = "python3 -m verl.trainer.main_ppo trainer.total_epochs=1 || echo trainer.failed=1\n"
    assert not by_id(findings_of_text(either), "SCRIPT-014")
