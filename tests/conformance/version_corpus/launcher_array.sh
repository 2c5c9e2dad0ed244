#!/usr/bin/env bash
# The launcher and the shared arguments kept in arrays, then the run's own values.
set -euo pipefail

LAUNCH=(python3 -u)
COMMON=(
    algorithm.adv_estimator=rloo
    data.train_files=/data/gsm8k/train.parquet
    data.val_files=/data/gsm8k/test.parquet
    data.max_prompt_length=512
    data.max_response_length=512
)
ACTOR=(
    actor_rollout_ref.model.path=meta-llama/Llama-3.2-1B-Instruct
    actor_rollout_ref.actor.ppo_mini_batch_size=32
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4
    actor_rollout_ref.rollout.name=vllm
    actor_rollout_ref.rollout.n=5
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4
)

"${LAUNCH[@]}" -m verl.trainer.main_ppo "${COMMON[@]}" "${ACTOR[@]}" \
    data.train_batch_size=128 \
    trainer.n_gpus_per_node=8 \
    trainer.total_training_steps=200
