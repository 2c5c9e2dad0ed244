#!/usr/bin/env bash
# Written for verl-wizard's tests. GRPO on one node of 8 GPUs: each update takes 16 prompts x 2 responses, so each
# GPU holds 32 / 8 = 4 responses of a mini-batch, and the actor's micro-batch takes 4 of them at a time.
# The neighbour of micro_over_share.sh: verl 0.9.1 accepts it and its updates split evenly.
set -euo pipefail

gpus=8
micro=4

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=/data/train.parquet \
    data.val_files=/data/val.parquet \
    data.train_batch_size=64 \
    data.max_prompt_length=512 \
    data.max_response_length=512 \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=2 \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=${micro} \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    trainer.n_gpus_per_node=${gpus} \
    trainer.nnodes=1 \
    "$@"
