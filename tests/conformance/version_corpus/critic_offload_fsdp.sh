#!/usr/bin/env bash
# The same offload where 0.8 and later keep the critic's engine settings: critic.fsdp.
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
    critic.fsdp.param_offload=True \
    critic.fsdp.optimizer_offload=True \
    trainer.n_gpus_per_node=4
