"""Batch rules as tables: for each rule a failing case and its passing neighbours."""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for, ids

MU = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"
M = "actor_rollout_ref.actor.ppo_mini_batch_size"
B = "data.train_batch_size"
N = "actor_rollout_ref.rollout.n"
DYN = "actor_rollout_ref.actor.use_dynamic_bsz"
LP = "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu"


def test_base_config_has_no_errors_or_warnings():
    assert ids() == set()


@pytest.mark.parametrize(
    "overrides, expected",
    [
        ({B: 66, M: 6, MU: 3, LP: 3}, True),  # 66*4=264 % 8 = 0 -> pass, 65*4 fails below
        ({B: 65, M: 5, MU: 5, LP: 5}, True),
        ({B: 64, "trainer.n_gpus_per_node": 6, M: 12, MU: 2, LP: 2}, True),
    ],
)
def test_batch_001_responses_must_split_over_gpus(overrides, expected):
    total = overrides[B] * 4
    gpus = overrides.get("trainer.n_gpus_per_node", 8)
    assert ("BATCH-001" in ids(overrides)) == (total % gpus != 0)


def test_batch_001_not_checked_with_dynamic_batching_like_verl():
    assert "BATCH-001" in ids({B: 65, M: 5})
    assert "BATCH-001" not in ids({B: 65, M: 5, DYN: True})


def test_batch_001_megatron_uses_dp_times_micro():
    base = dict(BASE, **{"model_engine": "megatron", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 2})
    # dp = 8/2 = 4, minimal = 4 * mu(4) = 16; B*n = 64*4 = 256 ok; 66*4 = 264 not a multiple of 16
    assert "BATCH-001" not in ids(base=base)
    assert "BATCH-001" in ids({B: 66}, base=base)


def test_batch_001_fixes_are_the_nearest_valid_sizes_both_ways():
    f = next(f for f in findings_for({B: 65, M: 5, MU: 5, LP: 5}) if f.id == "BATCH-001")
    assert [fix.set[B] for fix in f.fixes] == [64, 66]
    assert "65 × n 4 = 260" in str(f.message)


@pytest.mark.parametrize("m, fails", [(65, True), (64, False), (16, False)])
def test_batch_002_mini_batch_larger_than_train_batch(m, fails):
    assert ("BATCH-002" in ids({M: m})) == fails


def test_batch_002_is_flagged_under_dynamic_batching_too():
    assert "BATCH-002" in ids({M: 128, DYN: True})


@pytest.mark.parametrize("b, fails", [(80, True), (64, False), (128, False)])
def test_batch_003_train_batch_not_multiple_of_mini(b, fails):
    result = ids({B: b, M: 32, MU: 4})
    assert ("BATCH-003" in result) == fails


@pytest.mark.parametrize("m, n, fails", [(3, 4, True), (2, 4, False), (4, 2, False), (3, 8, False)])
def test_batch_004_mini_batch_responses_split_over_dp(m, n, fails):
    result = ids({M: m, N: n, MU: 1, LP: 1})
    assert ("BATCH-004" in result) == fails


def test_batch_004_uses_dp_after_sequence_parallelism():
    # sp 2 -> dp 4: 3*4 = 12 splits over 4 but not over 8
    assert "BATCH-004" in ids({M: 3, MU: 1, LP: 1})
    assert "BATCH-004" not in ids({M: 3, MU: 1, LP: 1, "actor_rollout_ref.actor.ulysses_sequence_parallel_size": 2})


@pytest.mark.parametrize("mu, fails", [(3, True), (4, False), (8, False), (16, True)])
def test_batch_005_per_gpu_share_multiple_of_micro(mu, fails):
    # share = 16*4/8 = 8
    assert ("BATCH-005" in ids({MU: mu})) == fails


def test_batch_005_fixes_are_divisors_of_the_share():
    f = next(f for f in findings_for({MU: 3}) if f.id == "BATCH-005")
    assert sorted(fix.set[MU] for fix in f.fixes) == [2, 4]


@pytest.mark.parametrize("lp, fails", [(6, True), (8, False), (32, False), (64, True)])
def test_batch_005_log_prob_micro_divides_padded_share(lp, fails):
    # 64*4 = 256 responses / 8 GPUs = 32 per GPU
    assert ("BATCH-005" in ids({LP: lp})) == fails


def test_batch_006_neither_micro_size():
    assert "BATCH-006" in ids({MU: None})
    assert "BATCH-006" not in ids({MU: None, DYN: True})


def test_batch_006_both_micro_sizes():
    assert "BATCH-006" in ids({"actor_rollout_ref.actor.ppo_micro_batch_size": 32})


def test_batch_006_only_the_deprecated_global_form():
    f = [f for f in findings_for({MU: None, "actor_rollout_ref.actor.ppo_micro_batch_size": 32}) if f.id == "BATCH-006"]
    assert f and "deprecated" in str(f[0].message)


def test_batch_006_reference_micro_needed_only_when_reference_used():
    kl = {"actor_rollout_ref.actor.use_kl_loss": True}
    assert "BATCH-006" in ids(kl)
    assert "BATCH-006" not in ids({**kl, "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu": 8})
    assert "BATCH-006" not in ids()


def test_batch_006_rollout_log_prob_micro_missing():
    assert "BATCH-006" in ids({LP: None})


@pytest.mark.parametrize("budget, sp, fails", [(1023, 1, True), (1024, 1, False), (512, 2, False), (511, 2, True)])
def test_batch_007_token_budget_times_sp_holds_a_sequence(budget, sp, fails):
    over = {
        DYN: True,
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": budget,
        "actor_rollout_ref.actor.ulysses_sequence_parallel_size": sp,
    }
    # L = 512 + 512 = 1024
    assert ("BATCH-007" in ids(over)) == fails


def test_batch_007_checks_the_critic_budget_too():
    gae = {
        "algorithm.adv_estimator": "gae",
        N: 1,
        M: 16,
        "critic.model.path": "Qwen/Qwen3-8B",
        DYN: True,
        "critic.ppo_max_token_len_per_gpu": 1000,
    }
    assert "BATCH-007" in ids(gae)
    assert "BATCH-007" not in ids({**gae, "critic.ppo_max_token_len_per_gpu": 4096})


@pytest.mark.parametrize(
    "estimator, n, fails", [("grpo", 1, True), ("grpo", 2, False), ("rloo", 1, True), ("reinforce_plus_plus", 1, False)]
)
def test_batch_008_group_estimator_needs_n_above_one(estimator, n, fails):
    assert ("BATCH-008" in ids({"algorithm.adv_estimator": estimator, N: n, M: 32, MU: 4})) == fails


@pytest.mark.parametrize("estimator", ["grpo", "rloo", "opo", "gpg"])
def test_batch_008_is_a_warning_verl_runs_a_group_of_one(estimator):
    # verl 0.9.1 takes a one-response group's mean as 0: the run learns from the raw reward (no baseline).
    found = [f for f in findings_for({"algorithm.adv_estimator": estimator, N: 1, M: 32, MU: 4}) if f.id == "BATCH-008"]
    assert [f.severity.value for f in found] == ["warning"]
    assert "no baseline" in str(found[0].message) and "BATCH-015" not in ids(
        {"algorithm.adv_estimator": estimator, N: 1, M: 32, MU: 4}
    )


@pytest.mark.parametrize("n, fails", [(1, True), (2, False)])
def test_batch_015_passk_needs_two_responses(n, fails):
    found = findings_for({"algorithm.adv_estimator": "grpo_passk", N: n, M: 32, MU: 4})
    assert [(f.id, f.severity.value) for f in found if f.id in ("BATCH-008", "BATCH-015")] == (
        [("BATCH-015", "error")] if fails else []
    )


def test_batch_009_gae_with_several_responses_warns():
    gae = {"algorithm.adv_estimator": "gae", "critic.model.path": "x/y", "critic.ppo_micro_batch_size_per_gpu": 4}
    assert "BATCH-009" in ids(gae)
    assert "BATCH-009" not in ids({**gae, N: 1, M: 32})


def test_batch_010_critic_chain():
    gae = {
        "algorithm.adv_estimator": "gae",
        N: 1,
        M: 16,
        MU: 2,
        LP: 2,
        "critic.model.path": "x/y",
        "critic.ppo_micro_batch_size_per_gpu": 2,
    }
    assert "BATCH-010" not in ids(gae)
    assert "BATCH-010" in ids({**gae, "critic.ppo_micro_batch_size_per_gpu": 3})
    assert "BATCH-010" in ids({**gae, "critic.ppo_mini_batch_size": 12})
    assert "BATCH-010" in ids({**gae, "critic.ppo_mini_batch_size": 128})


@pytest.mark.parametrize("m, epochs, warns", [(2, 1, True), (4, 1, False), (16, 4, False), (8, 3, True)])
def test_batch_011_optimizer_steps_per_rollout(m, epochs, warns):
    # B = 64: steps = 64 / m × epochs -> 32, 16, 16, 24
    over = {M: m, MU: 1, LP: 1, "actor_rollout_ref.actor.ppo_epochs": epochs}
    assert ("BATCH-011" in ids(over)) == warns


def test_batch_012_separate_async_sync_step():
    split = {
        "trainer.v1.trainer_mode": "separate_async",
        "actor_rollout_ref.rollout.nnodes": 1,
        "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl",
    }
    # B 64 = 4 × 16 passes; 8 × 16 = 128 does not
    assert "BATCH-012" not in ids(split)
    assert "BATCH-012" in ids({**split, "trainer.v1.separate_async.parameter_sync_step": 8})


def test_batch_014_log_prob_dynamic_must_match_actor():
    assert "BATCH-014" in ids({"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True})
    assert "BATCH-014" not in ids({"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": False})


# --- found by the agreement test against verl 0.9.1 (tests/agreement) ----------------------------

GAE = {
    "algorithm.adv_estimator": "gae",
    N: 1,
    M: 16,
    MU: 2,
    LP: 2,
    "critic.model.path": "x/y",
    "critic.ppo_micro_batch_size_per_gpu": 2,
}


@pytest.mark.parametrize(
    "overrides, fails",
    [
        # verl's V1 critic ignores critic.ulysses_sequence_parallel_size: dp stays 8, and 4 responses do not split
        ({M: 4, "critic.ulysses_sequence_parallel_size": 2, "critic.ppo_micro_batch_size_per_gpu": 1}, True),
        # the key it does read: dp 4, 4 responses split
        ({M: 4, "critic.fsdp.ulysses_sequence_parallel_size": 2, "critic.ppo_micro_batch_size_per_gpu": 1}, False),
        ({M: 8, "critic.ulysses_sequence_parallel_size": 2, "critic.ppo_micro_batch_size_per_gpu": 1}, False),
        # the legacy trainer reads the deprecated key
        (
            {
                M: 4,
                "critic.ulysses_sequence_parallel_size": 2,
                "critic.ppo_micro_batch_size_per_gpu": 1,
                "trainer.use_v1": False,
            },
            False,
        ),
    ],
)
def test_batch_010_critic_data_parallel_size_is_the_one_verl_runs(overrides, fails):
    errors = {f.id for f in findings_for({**GAE, LP: 1, MU: 1, **overrides}) if f.severity.value == "error"}
    assert ("BATCH-010" in errors) == fails, errors


def test_batch_010_critic_following_the_actor_is_offered_its_own_mini_batch():
    megatron = {
        **GAE,
        "model_engine": "megatron",
        "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size": 2,
        "trainer.n_gpus_per_node": 2,
        N: 3,
        M: 33,
        B: 132,
        MU: 1,
        LP: 9,
        "critic.enable": True,
    }
    finding = next(f for f in findings_for(megatron) if f.id == "BATCH-010")
    assert any("critic.ppo_mini_batch_size" in fix.set for fix in finding.fixes), finding.fixes


LONG = {"data.max_prompt_length": 1000, "data.max_response_length": 39000}


@pytest.mark.parametrize(
    "overrides, fails",
    [
        (LONG, True),  # 40000 tokens > 32768 × sp 1, dynamic or not
        (
            {
                **LONG,
                DYN: True,
                "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 40000,
                "critic.ppo_max_token_len_per_gpu": 65536,
            },
            True,
        ),
        ({**LONG, "critic.fsdp.ulysses_sequence_parallel_size": 2}, False),
        ({"data.max_prompt_length": 768, "data.max_response_length": 32000}, False),
        ({**LONG, "trainer.use_v1": False}, False),
    ],
)
def test_batch_007_v1_critic_packs_32768_tokens_per_gpu(overrides, fails):
    findings = [f for f in findings_for({**GAE, **overrides}) if f.id == "BATCH-007" and "V1 trainer" in str(f.message)]
    assert bool(findings) == fails, [str(f.message) for f in findings]


def test_batch_007_v1_critic_fix_raises_the_critic_sequence_parallelism():
    finding = next(f for f in findings_for({**GAE, **LONG}) if f.id == "BATCH-007")
    assert {"critic.fsdp.ulysses_sequence_parallel_size": 2} in [fix.set for fix in finding.fixes]


def test_batch_007_reference_budget_is_not_used_with_lora():
    ref = {
        DYN: True,
        "actor_rollout_ref.actor.use_kl_loss": True,
        "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu": 100,
    }
    assert "BATCH-007" in ids(ref)
    assert "BATCH-007" not in ids({**ref, "actor_rollout_ref.model.lora_rank": 8})


@pytest.mark.parametrize(
    "overrides, fails",
    [
        ({"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True, LP: None}, True),  # verl asks by the actor's flag
        ({DYN: True, LP: None}, False),
        ({LP: None}, True),
    ],
)
def test_batch_006_rollout_micro_needed_whenever_the_actor_packs_by_count(overrides, fails):
    found = any(f.id == "BATCH-006" and LP in f.paths for f in findings_for(overrides))
    assert found == fails


@pytest.mark.parametrize(
    "overrides, fails",
    [
        ({"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True, LP: 6}, True),  # the actor's engine splits by 6
        ({LP: 6}, True),
        ({DYN: True, LP: 6}, False),
    ],
)
def test_batch_005_log_prob_pass_splits_the_way_the_actor_packs(overrides, fails):
    found = any(f.id == "BATCH-005" and LP in f.paths for f in findings_for(overrides))
    assert found == fails


@pytest.mark.parametrize(
    "overrides, fails",
    [
        # the actor packs by tokens, so the log-prob pass does too, whatever rollout.log_prob_use_dynamic_bsz says
        (
            {
                DYN: True,
                "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": False,
                "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu": 1000,
            },
            True,
        ),
        ({DYN: True, "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu": 1000}, True),
        ({DYN: True, "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu": 1024}, False),
        (
            {
                "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True,
                "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu": 1000,
            },
            False,
        ),
    ],
)
def test_batch_007_log_prob_budget_follows_the_actor_packing(overrides, fails):
    found = any(
        f.id == "BATCH-007" and "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu" in f.paths
        for f in findings_for(overrides)
    )
    assert found == fails
