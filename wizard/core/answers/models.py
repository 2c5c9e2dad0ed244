"""The answers of the Models step: the algorithm (advantage estimator, KL), the models of each role, and the data.
Each field's docstring is its help (wizard.core.answers.model says how a field is declared)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from wizard.core.answers.section import (
    PositiveSize,
    Section,
)
from wizard.core.choices import (
    AdvEstimator,
    KlEstimator,
    LossAggMode,
    RewardManager,
    Truncation,
)
from wizard.core.fields import (
    Spec,
    needs_critic,
    with_kl_in_reward,
    with_kl_loss,
    with_lora,
    with_reward_model,
)
from wizard.core.paths import too_long


class Algorithm(Section):
    adv_estimator: Annotated[
        str, Spec("algorithm.adv_estimator", step="models", row=1, choices=AdvEstimator, title="Advantage estimator")
    ] = "gae"
    """How advantages are computed: gae (PPO with a critic), grpo, rloo, reinforce_plus_plus, remax, ...
    Group estimators (grpo, rloo, ...) compare the n responses to one prompt and need rollout n > 1."""
    use_kl_in_reward: Annotated[
        bool, Spec("algorithm.use_kl_in_reward", step="models", row=6, title="KL penalty in reward")
    ] = False
    """Subtract a KL penalty to the reference from the reward (PPO style). Needs the reference model."""
    kl_coef: Annotated[
        float,
        Spec("algorithm.kl_ctrl.kl_coef", step="models", row=7, when=with_kl_in_reward, title="Reward KL coefficient"),
    ] = Field(0.001, ge=0)
    """Weight of the in-reward KL penalty."""
    use_kl_loss: Annotated[bool, Spec("actor_rollout_ref.actor.use_kl_loss", step="models", row=3, title="KL loss")] = (
        False
    )
    """Add a KL term to the reference inside the actor loss (GRPO style). Needs the reference model."""
    kl_loss_coef: Annotated[
        float,
        Spec(
            "actor_rollout_ref.actor.kl_loss_coef", step="models", row=4, when=with_kl_loss, title="KL loss coefficient"
        ),
    ] = Field(0.001, ge=0)
    """Weight of the KL loss term."""
    kl_loss_type: Annotated[
        str,
        Spec(
            "actor_rollout_ref.actor.kl_loss_type",
            step="models",
            row=5,
            choices=KlEstimator,
            when=with_kl_loss,
            title="KL loss type",
        ),
    ] = "low_var_kl"
    """KL estimator of the loss term: kl (k1), abs, mse (k2), low_var_kl (k3) or full."""
    loss_agg_mode: Annotated[
        str,
        Spec(
            "actor_rollout_ref.actor.loss_agg_mode",
            step="models",
            row=21,
            choices=LossAggMode,
            title="Loss aggregation",
        ),
    ] = "token-mean"
    """How per-token losses are averaged: token-mean, token-sum, seq-mean-token-sum, seq-mean-token-mean,
    seq-mean-token-sum-norm."""
    entropy_coeff: Annotated[
        float, Spec("actor_rollout_ref.actor.entropy_coeff", step="models", row=22, title="Entropy coefficient")
    ] = 0.0
    """Weight of the entropy bonus; 0 turns it off."""
    lr: Annotated[float, Spec("actor_rollout_ref.actor.optim.lr", step="models", row=19, title="Learning rate")] = (
        Field(1e-6, gt=0, le=1)
    )
    """Actor learning rate."""
    critic_lr: Annotated[
        float, Spec("critic.optim.lr", step="models", row=20, when=needs_critic, title="Critic learning rate")
    ] = Field(1e-5, gt=0, le=1)
    """Critic learning rate (only used when there is a critic)."""


class Models(Section):
    actor_path: Annotated[
        str | None, Spec("actor_rollout_ref.model.path", step="models", row=2, title="Actor model", required=True)
    ] = None
    """The policy to train: a Hugging Face id (Qwen/Qwen3-8B) or an absolute local folder. The reference
    model is a frozen copy loaded from the same path."""
    critic_enable: Annotated[bool | None, Spec("critic.enable", step="models", row=8, title="Use a critic")] = None
    """Force the critic on or off; unset means: on exactly when the estimator is gae."""
    critic_path: Annotated[
        str | None, Spec("critic.model.path", step="models", row=9, when=needs_critic, title="Critic model")
    ] = None
    """The value model's starting checkpoint (usually the actor's). verl adds a fresh value head."""
    reward_model_enable: Annotated[
        bool, Spec("reward.reward_model.enable", step="models", row=10, title="Use a reward model")
    ] = False
    """Score responses with a reward model served by vLLM/SGLang."""
    reward_model_path: Annotated[
        str | None,
        Spec("reward.reward_model.model_path", step="models", row=11, when=with_reward_model, title="Reward model"),
    ] = None
    """The reward model: a sequence classifier with one label (a DisRM), or a generative RM."""
    custom_reward_path: Annotated[
        str | None, Spec("reward.custom_reward_function.path", step="models", row=12, title="Reward function file")
    ] = None
    """A Python file with your reward function (data_source, solution_str, ground_truth, extra_info)."""
    custom_reward_name: Annotated[
        str, Spec("reward.custom_reward_function.name", step="models", row=13, title="Reward function name")
    ] = "compute_score"
    """The function's name inside that file."""

    @field_validator("actor_path", "critic_path", "reward_model_path", "custom_reward_path")
    @classmethod
    def _openable(cls, value: str | None) -> str | None:
        """A model or file path no machine could open (over Linux's length limits) is refused at its field."""
        reason = too_long(value) if isinstance(value, str) else None
        if reason is not None:
            raise PydanticCustomError("path_too_long", str(reason))
        return value

    reward_manager: Annotated[
        str, Spec("reward.reward_manager.name", step="models", row=14, choices=RewardManager, title="Reward manager")
    ] = "naive"
    """How rewards are computed per batch: naive, dapo (overlong penalty), gdpo, remote, rate_limited."""
    data_source: Annotated[str | None, Spec(step="models", row=15, title="Data source")] = None
    """The data_source value of your training rows (openai/gsm8k, lighteval/MATH, ...). With no reward
    model and no custom function, verl's built-in scorer must know it."""
    lora_rank: Annotated[int, Spec("actor_rollout_ref.model.lora_rank", step="models", row=16, title="LoRA rank")] = (
        Field(0, ge=0, le=4096)
    )
    """LoRA rank; 0 trains all weights. With LoRA the reference is the base model with the adapter off."""
    lora_alpha: Annotated[
        int, Spec("actor_rollout_ref.model.lora_alpha", step="models", row=17, when=with_lora, title="LoRA alpha")
    ] = Field(16, ge=0, le=1 << 16)
    """LoRA alpha (scaling)."""
    use_remove_padding: Annotated[
        bool, Spec("actor_rollout_ref.model.use_remove_padding", step="hardware", row=14, title="Remove padding")
    ] = True
    """Pack sequences without padding. Required for Ulysses sequence parallelism."""
    enable_gradient_checkpointing: Annotated[
        bool,
        Spec(
            "actor_rollout_ref.model.enable_gradient_checkpointing",
            step="hardware",
            row=15,
            title="Gradient checkpointing",
        ),
    ] = True
    """Recompute activations in the backward pass: much less memory, about a third more compute."""
    trust_remote_code: Annotated[
        bool, Spec("actor_rollout_ref.model.trust_remote_code", step="models", row=18, title="Trust remote code")
    ] = False
    """Allow model code from the checkpoint (needed by some custom architectures)."""


class Data(Section):
    train_files: Annotated[
        str | list[str] | None, Spec("data.train_files", step="data", row=1, title="Training data")
    ] = None
    """Training prompts: parquet, json or jsonl files (absolute paths or hdfs://)."""
    val_files: Annotated[
        str | list[str] | None, Spec("data.val_files", step="data", row=2, title="Validation data")
    ] = None
    """Validation prompts, same formats."""
    prompt_key: Annotated[str, Spec("data.prompt_key", step="data", row=3, title="Prompt column")] = "prompt"
    """The column that holds each prompt as a chat list of {role, content}."""
    max_prompt_length: Annotated[
        int, Spec("data.max_prompt_length", step="data", row=4, unit="tokens", title="Max prompt length")
    ] = Field(512, **PositiveSize)
    """Longest prompt in tokens (chat template applied)."""
    max_response_length: Annotated[
        int, Spec("data.max_response_length", step="data", row=5, unit="tokens", title="Max response length")
    ] = Field(512, **PositiveSize)
    """Longest response the rollout may generate, in tokens."""
    filter_overlong_prompts: Annotated[
        bool, Spec("data.filter_overlong_prompts", step="data", row=6, title="Drop overlong prompts")
    ] = False
    """Drop prompts longer than max_prompt_length when loading the data."""
    truncation: Annotated[str, Spec("data.truncation", step="data", row=7, choices=Truncation, title="Truncation")] = (
        "error"
    )
    """What to do with an over-long prompt that was not filtered: error, left, right or middle."""
