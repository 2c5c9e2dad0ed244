"""The answers of the Batch step: prompts and responses per step, mini- and micro-batches, lengths, and the
dynamic batch limits. Each field's docstring is its help."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from wizard.core.answers.section import (
    PositiveSize,
    Section,
)
from wizard.core.fields import (
    Spec,
    dynamic_batches,
    fixed_micro_batches,
    needs_critic,
)


class Batch(Section):
    train_batch_size: Annotated[
        int,
        Spec("data.train_batch_size", step="batch", row=1, unit="prompts", title="Prompts per step", required=True),
    ] = Field(1024, **PositiveSize)
    """Prompts per training step. Responses per step = this × rollout n."""
    rollout_n: Annotated[
        int,
        Spec(
            "actor_rollout_ref.rollout.n",
            step="batch",
            row=2,
            unit="responses per prompt",
            title="Responses per prompt",
        ),
    ] = Field(1, **PositiveSize)
    """Responses sampled per prompt. GRPO-style estimators need more than 1."""
    ppo_mini_batch_size: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.ppo_mini_batch_size", step="batch", row=3, unit="prompts", title="Mini-batch size"
        ),
    ] = Field(256, **PositiveSize)
    """Prompts per optimizer step (its responses: × n). train_batch_size / this = updates per epoch."""
    ppo_micro_batch_size_per_gpu: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
            step="batch",
            row=5,
            unit="responses",
            when=fixed_micro_batches,
            title="Micro-batch per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Responses per forward/backward pass on one GPU (gradient accumulation splits the mini-batch)."""
    ppo_micro_batch_size: Annotated[
        int | None, Spec("actor_rollout_ref.actor.ppo_micro_batch_size", unit="responses")
    ] = Field(None, **PositiveSize)
    """Deprecated global micro-batch size; verl 0.9 workers need the per-GPU form instead."""
    use_dynamic_bsz: Annotated[
        bool, Spec("actor_rollout_ref.actor.use_dynamic_bsz", step="batch", row=4, title="Dynamic batch size")
    ] = False
    """Pack micro-batches by a token budget instead of a fixed count (faster with varied lengths)."""
    ppo_max_token_len_per_gpu: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.ppo_max_token_len_per_gpu",
            step="batch",
            row=6,
            unit="tokens",
            when=dynamic_batches,
            title="Tokens per GPU",
        ),
    ] = Field(16384, **PositiveSize)
    """Token budget per GPU per micro-batch when packing dynamically; × sp must hold one full sequence."""
    ppo_epochs: Annotated[
        int, Spec("actor_rollout_ref.actor.ppo_epochs", step="batch", row=7, unit="epochs", title="PPO epochs")
    ] = Field(1, ge=1, le=1024)
    """Passes of the actor over each batch of responses."""
    log_prob_micro_batch_size_per_gpu: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
            step="batch",
            row=8,
            unit="responses",
            when=fixed_micro_batches,
            title="Log-prob micro-batch per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Responses per GPU per pass when recomputing the old log-probs."""
    log_prob_micro_batch_size: Annotated[
        int | None, Spec("actor_rollout_ref.rollout.log_prob_micro_batch_size", unit="responses")
    ] = Field(None, **PositiveSize)
    """Deprecated global form of the log-prob micro-batch size."""
    log_prob_use_dynamic_bsz: Annotated[bool | None, Spec("actor_rollout_ref.rollout.log_prob_use_dynamic_bsz")] = None
    """Token-budget packing for the old log-probs; unset follows the actor (and it must equal it)."""
    log_prob_max_token_len_per_gpu: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
            step="batch",
            row=9,
            unit="tokens",
            when=dynamic_batches,
            title="Log-prob tokens per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Token budget for the old log-probs; unset follows the actor's."""
    ref_log_prob_micro_batch_size_per_gpu: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
            step="batch",
            row=10,
            unit="responses",
            when=fixed_micro_batches,
            title="Reference log-prob micro-batch per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Responses per GPU per pass of the reference model."""
    ref_log_prob_micro_batch_size: Annotated[
        int | None, Spec("actor_rollout_ref.ref.log_prob_micro_batch_size", unit="responses")
    ] = Field(None, **PositiveSize)
    """Deprecated global form of the reference micro-batch size."""
    ref_log_prob_use_dynamic_bsz: Annotated[bool | None, Spec("actor_rollout_ref.ref.log_prob_use_dynamic_bsz")] = None
    """Token-budget packing for the reference; unset follows the actor."""
    ref_log_prob_max_token_len_per_gpu: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
            step="batch",
            row=11,
            unit="tokens",
            when=dynamic_batches,
            title="Reference log-prob tokens per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Token budget for the reference; unset follows the actor's."""
    critic_ppo_mini_batch_size: Annotated[
        int | None,
        Spec(
            "critic.ppo_mini_batch_size",
            step="batch",
            row=12,
            unit="prompts",
            when=needs_critic,
            title="Critic mini-batch size",
        ),
    ] = Field(None, **PositiveSize)
    """Prompts per critic optimizer step; unset follows the actor's."""
    critic_ppo_micro_batch_size_per_gpu: Annotated[
        int | None,
        Spec(
            "critic.ppo_micro_batch_size_per_gpu",
            step="batch",
            row=13,
            unit="responses",
            when=needs_critic,
            title="Critic micro-batch per GPU",
        ),
    ] = Field(None, **PositiveSize)
    """Responses per critic forward/backward on one GPU."""
    critic_ppo_micro_batch_size: Annotated[int | None, Spec("critic.ppo_micro_batch_size", unit="responses")] = Field(
        None, **PositiveSize
    )
    """Deprecated global form of the critic micro-batch size."""
    critic_use_dynamic_bsz: Annotated[bool | None, Spec("critic.use_dynamic_bsz")] = None
    """Token-budget packing for the critic; unset follows the actor."""
    critic_ppo_max_token_len_per_gpu: Annotated[
        int,
        Spec(
            "critic.ppo_max_token_len_per_gpu",
            step="batch",
            row=14,
            unit="tokens",
            when=needs_critic,
            title="Critic tokens per GPU",
        ),
    ] = Field(32768, **PositiveSize)
    """The critic's token budget per GPU when packing dynamically."""
    critic_forward_max_token_len_per_gpu: Annotated[
        int | None, Spec("critic.forward_max_token_len_per_gpu", unit="tokens")
    ] = Field(None, **PositiveSize)
    """The critic's token budget for value inference; unset follows its training budget."""
    critic_ppo_epochs: Annotated[int | None, Spec("critic.ppo_epochs", unit="epochs")] = Field(None, ge=1, le=1024)
    """Critic passes over each batch; unset follows the actor."""
