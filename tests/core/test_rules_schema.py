"""Schema rules: unknown keys with the closest real key, mandatory values, ignored legacy keys, bad values."""

from __future__ import annotations

import pytest

from tests.conftest import findings_for, ids


def test_key_001_typo_names_the_real_key():
    f = next(f for f in findings_for({"actor_rollout_ref.actor.ppo_mini_batchsize": 8}) if f.id == "KEY-001")
    assert "actor_rollout_ref.actor.ppo_mini_batch_size" in str(f.message)
    assert f.fixes[0].set == {
        "actor_rollout_ref.actor.ppo_mini_batchsize": None,
        "actor_rollout_ref.actor.ppo_mini_batch_size": 8,
    }


def test_key_001_real_keys_and_open_mappings_pass():
    assert "KEY-001" not in ids(
        {"actor_rollout_ref.actor.clip_ratio_high": 0.28, "actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space": 4}
    )


def test_key_001_megatron_only_key_under_fsdp():
    key = {"actor_rollout_ref.actor.megatron.use_mbridge": False}
    f = [f for f in findings_for(key) if f.id == "KEY-001"]
    assert f and "only with the megatron engine" in str(f[0].message)
    megatron = {**key, "model_engine": "megatron", "actor_rollout_ref.actor.use_dynamic_bsz": True}
    assert "KEY-001" not in ids(megatron)


def test_key_002_rollout_name_mandatory():
    assert "KEY-002" in ids({"actor_rollout_ref.rollout.name": None})
    assert "KEY-002" not in ids({"actor_rollout_ref.rollout.name": "sglang"})


def test_key_002_reward_model_rollout_name():
    rm = {"reward.reward_model.enable": True, "reward.reward_model.model_path": "/rm"}
    assert "KEY-002" in ids(rm)
    assert "KEY-002" not in ids({**rm, "reward.reward_model.rollout.name": "vllm"})


def test_key_003_legacy_reward_keys_warn_and_offer_the_new_home():
    f = next(f for f in findings_for({"custom_reward_function.path": "/r.py"}) if f.id == "KEY-003")
    assert f.severity.value == "warning"
    assert f.fixes[0].set == {"custom_reward_function.path": None, "reward.custom_reward_function.path": "/r.py"}


@pytest.mark.parametrize(
    "key, bad, good",
    [
        ("actor_rollout_ref.rollout.name", "hf", "vllm"),
        ("algorithm.adv_estimator", "grpoo", "rloo"),
        ("actor_rollout_ref.actor.loss_agg_mode", "token_mean", "token-mean"),
        ("actor_rollout_ref.rollout.mode", "sync", "async"),
        ("trainer.v1.trainer_mode", "async", "colocate_async"),
        ("reward.reward_manager.name", "prime", "dapo"),
    ],
)
def test_key_004_values_outside_allowed_sets(key, bad, good):
    assert "KEY-004" in ids({key: bad})
    assert "KEY-004" not in ids({key: good, "actor_rollout_ref.rollout.n": 4})


def test_key_004_suggests_the_close_value():
    f = next(f for f in findings_for({"actor_rollout_ref.actor.loss_agg_mode": "token_mean"}) if f.id == "KEY-004")
    assert f.fixes[0].set == {"actor_rollout_ref.actor.loss_agg_mode": "token-mean"}


def test_key_004_logger_list_checked_item_by_item():
    assert "KEY-004" in ids({"trainer.logger": ["console", "wandbb"]})
    assert "KEY-004" not in ids({"trainer.logger": ["console", "tensorboard"]})


def test_key_004_lora_rank_above_vllm_limit():
    assert "KEY-004" in ids({"actor_rollout_ref.model.lora_rank": 1024})
    assert "KEY-004" not in ids({"actor_rollout_ref.model.lora_rank": 512})


def test_key_005_sampled_validation_needs_temperature():
    over = {"actor_rollout_ref.rollout.val_kwargs.do_sample": True}
    assert "KEY-005" in ids({**over, "actor_rollout_ref.rollout.temperature": 0})
    assert "KEY-005" not in ids({**over, "actor_rollout_ref.rollout.temperature": 0.7})
