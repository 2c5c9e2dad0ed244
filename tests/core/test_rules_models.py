"""Rules that read the models (ROLE-004, ROLE-008, ROLE-011, PLACE-005) and the memory estimate (PLACE-008)."""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for
from tests.model_dirs import write_model
from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules import apply_fix, context_for, evaluate
from wizard.detect.hardware.fake import fake_topology
from wizard.detect.models import inspect_models

TP = "actor_rollout_ref.rollout.tensor_model_parallel_size"
SP = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
RM_ON = {"reward.reward_model.enable": True, "reward.reward_model.rollout.name": "vllm"}
GAE = {
    "algorithm.adv_estimator": "gae",
    "actor_rollout_ref.rollout.n": 1,
    "actor_rollout_ref.actor.ppo_mini_batch_size": 16,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 2,
    "critic.ppo_micro_batch_size_per_gpu": 2,
}


def run(overrides: dict, topology=None):
    """Findings with the models read the way `check` reads them (local folders, cache, catalogue)."""
    values = {**BASE, **overrides}
    answers = build([("t", values)]).answers
    return findings_for(overrides, topology=topology, **inspect_models(answers, "local"))


def found(findings, rule_id):
    return [f for f in findings if f.id == rule_id]


# ---------------------------------------------------------------- ROLE-004


def test_role_004_causal_lm_as_reward_model_fails(tmp_path):
    rm = write_model(tmp_path / "rm", arch="Qwen2ForCausalLM")
    f = found(run({**RM_ON, "reward.reward_model.model_path": rm}), "ROLE-004")
    assert f and "Qwen2ForCausalLM" in str(f[0].message) and "config.json" in str(f[0].message)


def test_role_004_classifier_with_one_label_passes(tmp_path):
    rm = write_model(tmp_path / "rm", arch="Qwen2ForSequenceClassification", num_labels=1)
    assert not found(run({**RM_ON, "reward.reward_model.model_path": rm}), "ROLE-004")


def test_role_004_classifier_with_two_labels_fails(tmp_path):
    rm = write_model(tmp_path / "rm", arch="LlamaForSequenceClassification", id2label={"0": "bad", "1": "good"})
    f = found(run({**RM_ON, "reward.reward_model.model_path": rm}), "ROLE-004")
    assert f and "num_labels=2" in str(f[0].message)


def test_role_004_generative_reward_model_with_a_custom_function_passes(tmp_path):
    rm = write_model(tmp_path / "rm", arch="Qwen2ForCausalLM")
    assert not found(
        run({**RM_ON, "reward.reward_model.model_path": rm, "reward.custom_reward_function.path": "/r.py"}), "ROLE-004"
    )


def test_role_004_silent_when_the_model_cannot_be_read():
    assert not found(run({**RM_ON, "reward.reward_model.model_path": "/no/such/rm"}), "ROLE-004")


# ---------------------------------------------------------------- ROLE-008


def test_role_008_critic_with_another_vocabulary_warns_and_fix_uses_the_actor(tmp_path):
    actor = write_model(tmp_path / "actor", words=["the", "cat", "sat"])
    critic = write_model(tmp_path / "critic", words=["der", "hund", "lief", "weg"])
    f = found(run({**GAE, "actor_rollout_ref.model.path": actor, "critic.model.path": critic}), "ROLE-008")
    assert f and f[0].severity.value == "warning" and "tokenizer" in str(f[0].message)
    assert f[0].fixes[0].set == {"critic.model.path": actor}


def test_role_008_same_tokenizer_passes(tmp_path):
    actor = write_model(tmp_path / "actor", words=["the", "cat"])
    critic = write_model(tmp_path / "critic", words=["the", "cat"], hidden_size=1024)
    assert not found(run({**GAE, "actor_rollout_ref.model.path": actor, "critic.model.path": critic}), "ROLE-008")


def test_role_008_catalogue_families_differ():
    f = found(
        run(
            {
                **GAE,
                "actor_rollout_ref.model.path": "Qwen/Qwen3-8B",
                "critic.model.path": "meta-llama/Llama-3.1-8B-Instruct",
            }
        ),
        "ROLE-008",
    )
    assert f and "qwen3" in str(f[0].message) and "llama3" in str(f[0].message)
    assert not found(
        run(
            {
                **GAE,
                "actor_rollout_ref.model.path": "Qwen/Qwen2.5-7B-Instruct",
                "critic.model.path": "Qwen/Qwen2.5-0.5B-Instruct",
            }
        ),
        "ROLE-008",
    )  # embedding rows differ, tokenizer does not


def test_role_008_reward_model_without_tokenizer(tmp_path):
    rm = write_model(tmp_path / "rm", arch="Qwen2ForSequenceClassification", num_labels=1, tokenizer=False)
    assert found(run({**RM_ON, "reward.reward_model.model_path": rm}), "ROLE-008")
    rm_tok = write_model(tmp_path / "rm2", arch="Qwen2ForSequenceClassification", num_labels=1)
    assert not found(run({**RM_ON, "reward.reward_model.model_path": rm_tok}), "ROLE-008")


# ---------------------------------------------------------------- ROLE-011


def test_role_011_critic_from_a_reward_model_checkpoint(tmp_path):
    skywork = write_model(tmp_path / "some-rm", arch="LlamaForSequenceClassification", num_labels=1)
    f = found(run({**GAE, "critic.model.path": skywork}), "ROLE-011")
    assert f and f[0].severity.value == "warning" and f[0].fixes[0].set == {"critic.model.path": "Qwen/Qwen3-8B"}


def test_role_011_leaves_the_same_checkpoint_case_to_role_003(tmp_path):
    rm = write_model(tmp_path / "rm", arch="LlamaForSequenceClassification", num_labels=1)
    findings = run({**GAE, **RM_ON, "critic.model.path": rm, "reward.reward_model.model_path": rm})
    assert found(findings, "ROLE-003") and not found(findings, "ROLE-011")


def test_role_011_quiet_for_a_causal_lm_critic():
    assert not found(run({**GAE, "critic.model.path": "Qwen/Qwen3-8B"}), "ROLE-011")


# ---------------------------------------------------------------- PLACE-005


def test_place_005_28_heads_on_tp_8_fails_with_the_valid_tp_sizes(tmp_path):
    actor = write_model(tmp_path / "actor", num_attention_heads=28, num_key_value_heads=4, hidden_size=3584)
    f = found(run({"actor_rollout_ref.model.path": actor, TP: 8}), "PLACE-005")
    assert f and "28 attention heads" in str(f[0].message)
    assert [fix.set[TP] for fix in f[0].fixes] == [4, 2, 1]


@pytest.mark.parametrize("tp", [1, 2, 4])
def test_place_005_dividing_tp_passes(tmp_path, tp):
    actor = write_model(tmp_path / "actor", num_attention_heads=28, num_key_value_heads=4, hidden_size=3584)
    assert not found(run({"actor_rollout_ref.model.path": actor, TP: tp}), "PLACE-005")


def test_place_005_catalogue_model_on_tp_8():
    f = found(run({"actor_rollout_ref.model.path": "Qwen/Qwen2.5-7B-Instruct", TP: 8}), "PLACE-005")
    assert f and "from the catalogue" in str(f[0].message)


def test_place_005_ulysses_sp_and_kv_heads(tmp_path):
    dyn = {"actor_rollout_ref.actor.use_dynamic_bsz": True}
    heads28 = write_model(tmp_path / "a", num_attention_heads=28, num_key_value_heads=4, hidden_size=3584)
    assert found(run({**dyn, "actor_rollout_ref.model.path": heads28, SP: 8}), "PLACE-005")
    # KV heads 4 with sp 8 are repeated (sp % kv == 0): fine when the query heads divide
    heads32 = write_model(tmp_path / "b", num_attention_heads=32, num_key_value_heads=4, hidden_size=4096)
    assert not found(run({**dyn, "actor_rollout_ref.model.path": heads32, SP: 8}), "PLACE-005")
    # KV heads 6 with sp 4: neither divides the other
    kv6 = write_model(tmp_path / "c", num_attention_heads=24, num_key_value_heads=6, hidden_size=3072)
    f = found(run({**dyn, "actor_rollout_ref.model.path": kv6, SP: 4}), "PLACE-005")
    assert f and "KV heads" in str(f[0].message) and all(fix.set[SP] in (1, 2) for fix in f[0].fixes)


def test_place_005_kv_heads_for_rollout_tp(tmp_path):
    kv6 = write_model(tmp_path / "c", num_attention_heads=24, num_key_value_heads=6, hidden_size=3072)
    assert found(run({"actor_rollout_ref.model.path": kv6, TP: 4}), "PLACE-005")
    assert not found(run({"actor_rollout_ref.model.path": kv6, TP: 2}), "PLACE-005")


# ---------------------------------------------------------------- PLACE-008

EIGHT_GPU_PRESETS = ["grpo-8b-1x8", "ppo-critic-8b-1x8", "grpo-megatron-tp2pp2-1x8"]


def preset_ctx(name: str, topology: str, **over):
    values = dict(load_preset(name).values)
    values.update(over)
    layered = build([("preset", values)])
    return context_for(
        layered.answers,
        layered.flat,
        mode="cluster",
        topology=fake_topology(topology),
        **inspect_models(layered.answers, "cluster"),
    )


def memory_findings(ctx, severity=None):
    return [f for f in evaluate(ctx) if f.id == "PLACE-008" and (severity is None or f.severity.value == severity)]


@pytest.mark.parametrize("preset", EIGHT_GPU_PRESETS)
def test_place_008_eight_gpu_presets_fit_8xh100(preset):
    assert memory_findings(preset_ctx(preset, "8xH100")) == []


@pytest.mark.parametrize("preset", ["workshop-0.5b-1gpu", "workshop-grpo-0.5b-1gpu"])
def test_place_008_workshop_presets_fit_one_h100(preset):
    assert memory_findings(preset_ctx(preset, "1xH100")) == []


def test_place_008_skipped_without_a_topology():
    layered = build([("preset", load_preset("grpo-8b-1x8").values)])
    ctx = context_for(layered.answers, layered.flat, mode="cluster", **inspect_models(layered.answers, "cluster"))
    assert not [f for f in evaluate(ctx) if f.id == "PLACE-008"]


@pytest.mark.parametrize("preset", EIGHT_GPU_PRESETS)
def test_place_008_eight_gpu_presets_fail_on_24gb_cards(preset):
    errors = memory_findings(preset_ctx(preset, "8x4090-pcie"), "error")
    assert errors and all("GiB" in str(f.message) for f in errors)


def phase_total(ctx, finding):
    """The share of the GPU the finding's phase takes in `ctx` (None when that phase is gone)."""
    from wizard.core.memory.estimate import estimate_memory
    from wizard.core.rules.roles.model_files import gpu_memory_mib

    mib = gpu_memory_mib(ctx.topology)
    name = finding.message.args["phase"]  # the phase the message names, as a message key
    for phase in estimate_memory(ctx.answers, ctx.plan, ctx.models, mib).phases:
        if phase.name == name:
            return phase.total / (mib * 2**20)
    return None


def test_place_008_each_fix_brings_its_phase_under_the_limit():
    ctx = preset_ctx("grpo-8b-1x8", "8x4090-pcie")
    findings = memory_findings(ctx)
    kinds = set()
    for finding in findings:
        assert finding.fixes, str(finding.message)
        limit = 1.0 if finding.severity.value == "error" else 0.9
        before = phase_total(ctx, finding)
        for fix in finding.fixes:
            after = phase_total(apply_fix(ctx, fix.set), finding)
            assert after is not None and after <= limit < before, (str(finding.message), str(fix.label), after)
            kinds.update(key.rsplit(".", 1)[-1] for key in fix.set)
    assert {
        "optimizer_offload",
        "log_prob_max_token_len_per_gpu",
        "gpu_memory_utilization",
        "tensor_model_parallel_size",
    } <= kinds


def test_place_008_token_budget_fix_for_a_model_that_fits_otherwise():
    ctx = preset_ctx(
        "grpo-8b-1x8",
        "8x4090-pcie",
        **{"actor_rollout_ref.model.path": "Qwen/Qwen3-4B", "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 32768},
    )
    update = [f for f in memory_findings(ctx, "error") if str(f.message).startswith("actor update")]
    assert update and "actor_rollout_ref.actor.ppo_max_token_len_per_gpu" in update[0].fixes[0].set
    budget = update[0].fixes[0].set["actor_rollout_ref.actor.ppo_max_token_len_per_gpu"]
    assert 3072 <= budget < 32768 and budget % 1024 == 0


def test_place_008_micro_batch_fix_without_dynamic_batching():
    ctx = preset_ctx(
        "grpo-8b-1x8",
        "8x4090-pcie",
        **{
            "actor_rollout_ref.model.path": "Qwen/Qwen3-4B",
            "actor_rollout_ref.actor.use_dynamic_bsz": False,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 16,
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 4,
            "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu": 4,
        },
    )
    update = [f for f in memory_findings(ctx, "error") if str(f.message).startswith("actor update")]
    micro = update[0].fixes[0].set["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"]
    assert micro < 16 and (256 * 5 // 8) % micro == 0  # still tiles the per-GPU mini-batch


def test_place_008_applying_the_fixes_reaches_a_plan_that_fits():
    ctx = preset_ctx("grpo-8b-1x8", "8x4090-pcie")
    for _ in range(8):
        errors = memory_findings(ctx, "error")
        if not errors:
            break
        ctx = apply_fix(ctx, errors[0].fixes[0].set)
    assert memory_findings(ctx, "error") == []


def test_place_008_kv_cache_too_small_for_one_sequence():
    ctx = preset_ctx(
        "grpo-8b-1x8",
        "8x4090-pcie",
        **{
            "actor_rollout_ref.rollout.gpu_memory_utilization": 0.34,
            "actor_rollout_ref.actor.fsdp_config.optimizer_offload": True,
        },
    )
    kv = [f for f in memory_findings(ctx, "error") if "KV cache" in str(f.message)]
    assert kv and any(fix.set.get(TP) == 4 for fix in kv[0].fixes)
