"""The derived batch chain and pools."""

from __future__ import annotations

from fractions import Fraction

from wizard.core.layers import build
from wizard.core.plan import build_plan


def plan_of(values):
    return build_plan(build([("t", values)]).answers)


def test_fsdp_chain_numbers():
    p = plan_of(
        {
            "data.train_batch_size": 1024,
            "actor_rollout_ref.rollout.n": 5,
            "actor_rollout_ref.actor.ppo_mini_batch_size": 256,
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 8,
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size": 2,
            "actor_rollout_ref.rollout.tensor_model_parallel_size": 2,
            "algorithm.adv_estimator": "grpo",
        }
    )
    c = p.actor
    assert (c.responses_per_step, c.dp, c.mini_batch_responses) == (5120, 4, 1280)
    assert c.mini_batch_per_gpu == 320 and c.micro_steps_per_mini_batch == 40 and c.optimizer_steps_per_step == 4
    assert p.rollout_replicas == 4 and p.critic is None and not p.need_ref


def test_megatron_dp_and_uneven_split_is_a_fraction():
    p = plan_of(
        {
            "model_engine": "megatron",
            "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 2,
            "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size": 2,
            "trainer.n_gpus_per_node": 8,
        }
    )
    assert p.engine == "megatron" and p.actor.dp == 2 and p.model_parallel == 4
    q = plan_of({"trainer.n_gpus_per_node": 6, "actor_rollout_ref.actor.ppo_mini_batch_size": 3})
    assert q.actor.mini_batch_per_gpu == Fraction(3, 6)


def test_pools_add_up():
    p = plan_of(
        {
            "trainer.v1.trainer_mode": "separate_async",
            "actor_rollout_ref.rollout.nnodes": 1,
            "actor_rollout_ref.rollout.n_gpus_per_node": 4,
            "reward.reward_model.enable": True,
            "reward.reward_model.enable_resource_pool": True,
            "reward.reward_model.nnodes": 1,
            "reward.reward_model.n_gpus_per_node": 2,
        }
    )
    assert [(pool.name, pool.gpus) for pool in p.pools] == [("trainer", 8), ("reward model", 2), ("rollout", 4)]
    assert p.total_gpus == 14 and p.rollout_replicas == 2


def test_critic_follows_actor_unless_set():
    base = {"algorithm.adv_estimator": "gae", "actor_rollout_ref.actor.ppo_mini_batch_size": 64}
    assert plan_of(base).critic.mini_batch_prompts == 64
    assert plan_of({**base, "critic.ppo_mini_batch_size": 32}).critic.mini_batch_prompts == 32
