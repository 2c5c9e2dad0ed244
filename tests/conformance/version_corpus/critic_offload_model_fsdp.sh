#!/usr/bin/env bash
# PPO with the critic's parameters offloaded, where 0.7 kept the critic's FSDP settings: under critic.model.
set -euo pipefail
MODEL=Qwen/Qwen2.5-0.5B-Instruct
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=gae \
    data.train_files=/data/gsm8k/train.parquet \
    data.val_files=/data/gsm8k/test.parquet \
    data.train_batch_size=64 \
    actor_rollout_ref.model.path=$MODEL \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.actor.fsdp_config.param_offload=True \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    critic.model.path=$MODEL \
    critic.ppo_micro_batch_size_per_gpu=4 \
    critic.model.fsdp_config.param_offload=True \
    critic.model.fsdp_config.optimizer_offload=True \
    trainer.n_gpus_per_node=4
