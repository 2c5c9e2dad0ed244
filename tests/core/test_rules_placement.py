"""Placement rules: parallel groups, pools and capacity."""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for, ids
from wizard.detect.hardware.fake import fake_topology

TP = "actor_rollout_ref.rollout.tensor_model_parallel_size"


@pytest.mark.parametrize("gpus, tp, fails", [(6, 4, True), (6, 3, False), (8, 4, False), (1, 2, True), (1, 1, False)])
def test_place_001_rollout_tp_divides_gpus(gpus, tp, fails):
    over = {
        "trainer.n_gpus_per_node": gpus,
        TP: tp,
        "data.train_batch_size": 48,
        "actor_rollout_ref.actor.ppo_mini_batch_size": 48,
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 1,
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 1,
    }
    assert ("PLACE-001" in ids(over)) == fails


def test_place_001_fix_on_one_gpu_is_tp_1():
    f = next(f for f in findings_for({"trainer.n_gpus_per_node": 1, TP: 2}) if f.id == "PLACE-001")
    assert f.fixes[0].set == {TP: 1}


@pytest.mark.parametrize(
    "nodes, per_node, tp, found",
    [
        (3, 4, 6, [("PLACE-002", "error")]),  # 6 GPUs of 4-GPU nodes: verl's replica asserts whole nodes
        (2, 4, 8, [("PLACE-014", "warning")]),  # two whole nodes: verl runs it, TP over the network
        (4, 8, 16, [("PLACE-014", "warning")]),  # verl's own 72B scaling example
        (2, 8, 8, []),
        (1, 8, 8, []),
    ],
)
def test_place_002_014_rollout_tp_wider_than_a_node(nodes, per_node, tp, found):
    values = {"trainer.nnodes": nodes, "trainer.n_gpus_per_node": per_node, TP: tp}
    got = [(f.id, f.severity.value) for f in findings_for(values) if f.id in ("PLACE-002", "PLACE-014")]
    assert got == found


@pytest.mark.parametrize("tp, pp, fails", [(3, 1, True), (2, 2, False), (4, 2, False), (16, 1, True)])
def test_place_004_megatron_fit(tp, pp, fails):
    over = {
        "model_engine": "megatron",
        "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": tp,
        "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size": pp,
        "trainer.nnodes": 2 if tp == 16 else 1,
        "actor_rollout_ref.actor.use_dynamic_bsz": True,
    }
    assert ("PLACE-004" in ids(over)) == fails


def test_place_006_sp_needs_remove_padding():
    sp = {"actor_rollout_ref.actor.ulysses_sequence_parallel_size": 2}
    assert "PLACE-006" in ids({**sp, "actor_rollout_ref.model.use_remove_padding": False})
    assert "PLACE-006" not in ids(sp)


def test_place_007_capacity_from_topology():
    small, big = fake_topology("4xA100-nvlink"), fake_topology("8xH100")
    assert "PLACE-007" in ids(topology=small)
    assert "PLACE-007" not in ids(topology=big)
    assert "PLACE-007" not in ids()


def test_place_007_counts_the_reward_pool():
    rm = {
        "reward.reward_model.enable": True,
        "reward.reward_model.model_path": "/rm",
        "reward.reward_model.rollout.name": "vllm",
        "reward.reward_model.enable_resource_pool": True,
        "reward.reward_model.nnodes": 1,
        "reward.reward_model.n_gpus_per_node": 2,
    }
    f = [f for f in findings_for(rm, topology=fake_topology("8xH100")) if f.id == "PLACE-007"]
    assert f and "10 GPUs" in str(f[0].message)


def test_place_009_split_pools():
    split = {"trainer.v1.trainer_mode": "separate_async"}
    assert "PLACE-009" in ids(split)
    assert "PLACE-009" not in ids(
        {**split, "actor_rollout_ref.rollout.nnodes": 1, "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl"}
    )
    assert "PLACE-009" in ids({"actor_rollout_ref.hybrid_engine": False})


def test_place_012_sp_divides_gpus():
    assert "PLACE-012" in ids(
        {
            "trainer.n_gpus_per_node": 6,
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size": 4,
            TP: 2,
            "actor_rollout_ref.actor.use_dynamic_bsz": True,
        }
    )
    assert "PLACE-012" not in ids(
        {"actor_rollout_ref.actor.ulysses_sequence_parallel_size": 4, "actor_rollout_ref.actor.use_dynamic_bsz": True}
    )


def test_place_013_rollout_layout():
    assert "PLACE-013" in ids({"actor_rollout_ref.rollout.expert_parallel_size": 4})
    assert "PLACE-013" not in ids({"actor_rollout_ref.rollout.expert_parallel_size": 2})
    assert "PLACE-013" in ids({"actor_rollout_ref.rollout.pipeline_model_parallel_size": 2})


def test_base_is_clean():
    assert ids(base=BASE) == set()


# --- found by the agreement test against verl 0.9.1 (tests/agreement) ----------------------------

CRITIC = {
    "algorithm.adv_estimator": "gae",
    "actor_rollout_ref.rollout.n": 1,
    "critic.model.path": "x/y",
    "critic.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 2,
}
ENGINE_SP = "critic.fsdp.ulysses_sequence_parallel_size"


@pytest.mark.parametrize(
    "overrides, fails",
    [
        ({ENGINE_SP: 2, "critic.model.use_remove_padding": False}, True),  # the size verl's V1 critic engine uses
        ({ENGINE_SP: 2}, False),
        ({ENGINE_SP: 1, "critic.model.use_remove_padding": False}, False),
    ],
)
def test_place_006_critic_engine_sequence_parallelism_needs_remove_padding(overrides, fails):
    found = any(f.id == "PLACE-006" and ENGINE_SP in f.paths for f in findings_for({**CRITIC, **overrides}))
    assert found == fails


@pytest.mark.parametrize("sp, fails", [(3, True), (2, False), (8, False)])
def test_place_012_critic_engine_sequence_parallelism_divides_the_gpus(sp, fails):
    found = any(f.id == "PLACE-012" and ENGINE_SP in f.paths for f in findings_for({**CRITIC, ENGINE_SP: sp}))
    assert found == fails


MEGATRON_QWEN3 = {
    "model_engine": "megatron",
    "actor_rollout_ref.model.path": "Qwen/Qwen3-8B",  # 32 heads, 8 KV heads
    "trainer.nnodes": 2,
    "trainer.n_gpus_per_node": 8,
}
MEG_TP = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size"


@pytest.mark.parametrize("tp, fails", [(16, True), (8, False), (4, False)])
def test_place_005_megatron_tp_must_divide_the_kv_heads(tp, fails):
    from wizard.core.layers import build
    from wizard.detect.models import inspect_models

    values = {**BASE, **MEGATRON_QWEN3, MEG_TP: tp}
    found = [
        f
        for f in findings_for(
            {**MEGATRON_QWEN3, MEG_TP: tp}, **inspect_models(build([("t", values)]).answers, "cluster")
        )
        if f.id == "PLACE-005" and "replicate" in str(f.message)
    ]
    assert bool(found) == fails
    if fails:
        assert {MEG_TP: 8} in [fix.set for fix in found[0].fixes]
