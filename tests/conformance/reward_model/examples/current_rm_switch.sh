#!/usr/bin/env bash
# Written for verl-wizard's tests. The neighbour of legacy_rm_switch.sh: the same run with the switch verl 0.9.1
# reads (reward.reward_model.enable), so the reward model is used.
set -euo pipefail

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=/data/train.parquet \
    data.val_files=/data/val.parquet \
    data.train_batch_size=32 \
    data.max_prompt_length=256 \
    data.max_response_length=256 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    reward.reward_model.enable=True \
    reward.reward_model.model_path=/models/qwen-0.5b-reward \
    reward.reward_model.rollout.name=vllm \
    trainer.n_gpus_per_node=4 \
    trainer.nnodes=1
