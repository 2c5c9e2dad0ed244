#!/usr/bin/env bash
# A curriculum sampler named by class, under data.sampler as 0.7 read it.
python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files=/data/curriculum/train.parquet \
    data.val_files=/data/curriculum/test.parquet \
    data.train_batch_size=64 \
    data.sampler.class_path=/home/me/project/samplers.py \
    data.sampler.class_name=EasyFirstSampler \
    actor_rollout_ref.model.path=Qwen/Qwen2.5-1.5B-Instruct \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=4 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \
    trainer.n_gpus_per_node=8
