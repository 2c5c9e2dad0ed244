#!/usr/bin/env bash
# --config-name given as a separate word, with the critic on Megatron too (GAE).
python3 -m verl.trainer.main_ppo --config-name ppo_megatron_trainer \
    algorithm.adv_estimator=gae \
    data.train_files=/data/gsm8k/train.parquet \
    data.val_files=/data/gsm8k/test.parquet \
    data.train_batch_size=64 \
    actor_rollout_ref.model.path=deepseek-ai/deepseek-llm-7b-chat \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.tensor_model_parallel_size=4 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 \
    critic.model.path=deepseek-ai/deepseek-llm-7b-chat \
    critic.megatron.tensor_model_parallel_size=4 \
    critic.ppo_micro_batch_size_per_gpu=2 \
    trainer.n_gpus_per_node=8 \
    trainer.nnodes=2
