"""Every check verl 0.9.1 runs on a config (start-up B1-B16, config-only worker checks C8-C14): a case
verl rejects is flagged by our rules with an error.

The numbering follows the project's research notes on verl's checks. Not covered here: B9 (router replay
was removed in 0.9.1), B11 and B14 (verl only prints a notice or a warning).
"""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for

MEGATRON = {**BASE, "model_engine": "megatron"}
GAE = {
    **BASE,
    "algorithm.adv_estimator": "gae",
    "actor_rollout_ref.rollout.n": 1,
    "critic.model.path": "Qwen/Qwen3-8B",
    "critic.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 2,
}

CASES = [
    # (verl check, base, overrides, rule id)
    ("B1 N % (TP*PP*CP)", MEGATRON, {"actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 3}, "PLACE-004"),
    (
        "B2 FSDP (B*n) % N",
        BASE,
        {
            "data.train_batch_size": 65,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 5,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 5,
        },
        "BATCH-001",
    ),
    (
        "B2 Megatron (B*n) % (dp*mu)",
        MEGATRON,
        {"actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 2, "data.train_batch_size": 66},
        "BATCH-001",
    ),
    ("B3 actor micro both set", BASE, {"actor_rollout_ref.actor.ppo_micro_batch_size": 8}, "BATCH-006"),
    ("B3 actor micro neither", BASE, {"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": None}, "BATCH-006"),
    ("B4 loss_agg_mode", BASE, {"actor_rollout_ref.actor.loss_agg_mode": "mean"}, "KEY-004"),
    ("B5 FSDP strategy", BASE, {"critic.strategy": "deepspeed"}, "KEY-004"),
    ("B5 Megatron dtype", MEGATRON, {"actor_rollout_ref.actor.megatron.dtype": "float32"}, "KEY-004"),
    ("B5 FSDP lr scheduler", BASE, {"actor_rollout_ref.actor.optim.lr_scheduler_type": "linear"}, "KEY-004"),
    ("B6 B >= m", BASE, {"actor_rollout_ref.actor.ppo_mini_batch_size": 128}, "BATCH-002"),
    (
        "B7 deprecated global micro",
        BASE,
        {
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": None,
            "actor_rollout_ref.actor.ppo_micro_batch_size": 4,
        },
        "BATCH-006",
    ),
    (
        "B8 sp needs remove padding",
        BASE,
        {
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size": 2,
            "actor_rollout_ref.model.use_remove_padding": False,
        },
        "PLACE-006",
    ),
    (
        "B10 rollout log-prob micro neither",
        BASE,
        {"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": None},
        "BATCH-006",
    ),
    ("B10 ref log-prob micro neither", BASE, {"actor_rollout_ref.actor.use_kl_loss": True}, "BATCH-006"),
    ("B10 rollout log-prob micro both", BASE, {"actor_rollout_ref.rollout.log_prob_micro_batch_size": 64}, "BATCH-006"),
    ("B12 critic micro neither", GAE, {"critic.ppo_micro_batch_size_per_gpu": None}, "BATCH-006"),
    ("B12 critic B >= mini", GAE, {"critic.ppo_mini_batch_size": 128}, "BATCH-010"),
    ("B13 critic model path", GAE, {"critic.model.path": None}, "ROLE-002"),
    ("B13 critic ~ path", GAE, {"critic.model.path": "~/models/qwen"}, "ROLE-007"),
    (
        "B15 do_sample needs temperature",
        BASE,
        {"actor_rollout_ref.rollout.val_kwargs.do_sample": True, "actor_rollout_ref.rollout.temperature": 0},
        "KEY-005",
    ),
    ("B16 LoRA rank <= 512 with vLLM", BASE, {"actor_rollout_ref.model.lora_rank": 1024}, "KEY-004"),
    ("C1 rollout.name mandatory", BASE, {"actor_rollout_ref.rollout.name": None}, "KEY-002"),
    ("C1 rollout mode sync removed", BASE, {"actor_rollout_ref.rollout.mode": "sync"}, "KEY-004"),
    ("C1 EP == TP*DP", BASE, {"actor_rollout_ref.rollout.expert_parallel_size": 8}, "PLACE-013"),
    ("C3 unknown estimator", BASE, {"algorithm.adv_estimator": "simple"}, "KEY-004"),
    ("C4 unknown reward manager", BASE, {"reward.reward_manager.name": "foo"}, "KEY-004"),
    ("C5 unknown trainer mode", BASE, {"trainer.v1.trainer_mode": "x"}, "KEY-004"),
    (
        "C6 reward pool sizes",
        BASE,
        {
            "reward.reward_model.enable": True,
            "reward.reward_model.model_path": "/rm",
            "reward.reward_model.rollout.name": "vllm",
            "reward.reward_model.enable_resource_pool": True,
        },
        "PLACE-009",
    ),
    (
        "C8 N % rollout TP",
        BASE,
        {
            "trainer.n_gpus_per_node": 6,
            "actor_rollout_ref.rollout.tensor_model_parallel_size": 4,
            "data.train_batch_size": 48,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 12,
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 4,
        },
        "PLACE-001",
    ),
    (
        "C9 log-prob dynamic == actor dynamic",
        BASE,
        {"actor_rollout_ref.rollout.log_prob_use_dynamic_bsz": True},
        "BATCH-014",
    ),
    (
        "C10 replica spans nodes",
        BASE,
        # TP 6 on nodes of 4 GPUs: a replica wider than a node that is not whole nodes (one of whole nodes runs)
        {"trainer.nnodes": 3, "trainer.n_gpus_per_node": 4, "actor_rollout_ref.rollout.tensor_model_parallel_size": 6},
        "PLACE-002",
    ),
    (
        "C12 (m*n) % dp",
        BASE,
        {
            "actor_rollout_ref.actor.ppo_mini_batch_size": 3,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 1,
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 1,
        },
        "BATCH-004",
    ),
    ("C13 (m*n/dp) % mu", BASE, {"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 3}, "BATCH-005"),
    (
        "C13 log-prob share % micro",
        BASE,
        {"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 6},
        "BATCH-005",
    ),
    (
        "C14 token budget * sp >= L",
        BASE,
        {"actor_rollout_ref.actor.use_dynamic_bsz": True, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 1000},
        "BATCH-007",
    ),
    (
        "C16 separate_async B == pss * m",
        BASE,
        {
            "trainer.v1.trainer_mode": "separate_async",
            "actor_rollout_ref.rollout.nnodes": 1,
            "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl",
            "trainer.v1.separate_async.parameter_sync_step": 2,
        },
        "BATCH-012",
    ),
    (
        "C16 separate_async naive sync",
        BASE,
        {"trainer.v1.trainer_mode": "separate_async", "actor_rollout_ref.rollout.nnodes": 1},
        "PLACE-009",
    ),
    (
        "C18 filter groups with colocated RM",
        BASE,
        {
            "reward.reward_model.enable": True,
            "reward.reward_model.model_path": "/rm",
            "reward.reward_model.rollout.name": "vllm",
            "algorithm.filter_groups.enable": True,
        },
        "ROLE-010",
    ),
    ("C22 unknown data_source", BASE, {"models.data_source": "my_set"}, "ROLE-005"),
]


@pytest.mark.parametrize("check, base, overrides, rule_id", CASES, ids=[c[0] for c in CASES])
def test_verl_rejection_is_flagged_as_an_error(check, base, overrides, rule_id):
    errors = {f.id for f in findings_for(overrides, base=base) if f.severity.value == "error"}
    assert rule_id in errors, f"{check}: expected {rule_id}, got {sorted(errors)}"


@pytest.mark.parametrize(
    "base",
    [BASE, GAE, {**MEGATRON, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 2}],
    ids=["grpo", "gae", "megatron"],
)
def test_the_bases_pass(base):
    assert [f.id for f in findings_for(base=base) if f.severity.value == "error"] == []
