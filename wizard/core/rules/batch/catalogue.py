"""The rule catalogue's entries for batch arithmetic (BATCH-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "BATCH-001",
        "error",
        "Responses per step do not split evenly over the GPUs",
        "verl asserts at start-up that train_batch_size × rollout.n is divisible by the minimal batch (the GPU count for FSDP, dp × micro for Megatron).",
    ),
    (
        "BATCH-002",
        "error",
        "Mini-batch larger than the train batch",
        "An optimizer step cannot take more prompts than a training step produces; verl rejects it without dynamic batching and silently pads with it.",
    ),
    (
        "BATCH-003",
        "warning",
        "Train batch is not a multiple of the mini-batch",
        "verl pads the batch with dummy rows up to a multiple of the mini-batch: compute is spent on padding and rollout and update fall out of step.",
    ),
    (
        "BATCH-004",
        "error",
        "Mini-batch responses do not split over data-parallel ranks",
        "Every update asserts that ppo_mini_batch_size × n is divisible by the data-parallel size; it fails on the first step, after model loading.",
    ),
    (
        "BATCH-005",
        "error",
        "Per-GPU mini-batch is not a multiple of the micro-batch",
        "Micro-batches must tile each GPU's share of a mini-batch (and of the log-prob batch); verl asserts it at the first step.",
    ),
    (
        "BATCH-006",
        "error",
        "Micro-batch size set twice, or not at all",
        "Without dynamic batching verl needs exactly one micro-batch size per role, and its 0.9 workers need the per-GPU form.",
    ),
    (
        "BATCH-007",
        "error",
        "Token budget smaller than one sequence",
        "With dynamic batching a micro-batch must hold the longest sequence: budget × sp must be at least max_prompt_length + max_response_length.",
    ),
    (
        "BATCH-008",
        "warning",
        "Group estimator with one response per prompt",
        "GRPO-style estimators compare the responses to one prompt; with n = 1 verl takes each group's mean as 0 (and its std as 1), so the advantage is the raw reward with no baseline: noisier updates than the estimator is meant for (a distillation run that does not use task rewards is not affected).",
    ),
    (
        "BATCH-009",
        "warning",
        "GAE with several responses per prompt",
        "PPO with a critic usually samples one response per prompt; n > 1 multiplies rollout cost without the group baseline it pays for.",
    ),
    (
        "BATCH-010",
        "error",
        "The critic's batch chain does not split evenly",
        "The critic updates on the same responses with its own mini/micro sizes, and the same divisibility applies over its data-parallel ranks.",
    ),
    (
        "BATCH-011",
        "warning",
        "Optimizer steps per rollout outside 1..16",
        "Many updates on one batch of rollouts make the policy stale (off-policy); very large mini-batches waste the rollout.",
    ),
    (
        "BATCH-012",
        "error",
        "separate_async: train batch != parameter_sync_step × mini-batch",
        "The separate-async trainer syncs weights every parameter_sync_step mini-batches and asserts that they add up to one training batch.",
    ),
    (
        "BATCH-013",
        "error",
        "Fewer rows than one train batch",
        "verl's dataloader drops the last incomplete batch, so steps per epoch = rows // train_batch_size: with fewer rows (after filter_overlong_prompts) nothing is trained.",
    ),
    (
        "BATCH-014",
        "error",
        "Rollout log-prob batching differs from the actor's",
        "verl's workers assert that rollout.log_prob_use_dynamic_bsz equals actor.use_dynamic_bsz.",
    ),
    (
        "BATCH-015",
        "error",
        "Pass@k estimator with one response per prompt",
        "grpo_passk gives the best response of each prompt's group the advantage r_max - r_second_max; verl raises ValueError at the first step when a group has fewer than 2 responses.",
    ),
]
