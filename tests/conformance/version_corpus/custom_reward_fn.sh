#!/usr/bin/env bash
# A reward function of the user's own, under the top-level custom_reward_function group.
REWARD_FILE=$PWD/rewards/math_reward.py
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=/data/math/train.parquet \
    data.val_files=/data/math/test.parquet \
    data.train_batch_size=32 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-Math-1.5B \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    custom_reward_function.path=${REWARD_FILE} \
    custom_reward_function.name=compute_score \
    trainer.n_gpus_per_node=4
