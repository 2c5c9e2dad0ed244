"""The typed answers model: everything the wizard asks, one field per question, each declared once.

A field is `name: Annotated[type, Spec(...)] = default`: pydantic's part is the type, the default and the
range (`Field(ge=..., le=...)`); the `Spec` (wizard.core.fields) holds the rest: the verl key, the TUI step
and row, the choices (an enum of wizard.core.choices), the unit and when the field is shown. Each field's
docstring is its user-facing help (read by wizard.core.keymap.field_help from this file's source, so that
start-up does not pay for pydantic's docstring extraction).

Fields with a verl key have verl 0.9.1's default, and `None` means "not set: verl's own default or
interpolation applies". Fields without one are the wizard's own (the deployment target, the data_source of
the rows). Any other verl key goes in `extra` and is passed through.

Who reads it: wizard.core.keymap (the specs, verl key <-> field), wizard.core.layers (answers from presets,
files and flags), wizard.core.plan and the rules, the emitters, the TUI.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from wizard.core.choices import (
    KUBERAY_TARGETS,
    KUBERNETES_TARGETS,
    REMOTE_TARGETS,
    AdvEstimator,
    AuthMode,
    KlEstimator,
    LoadFormat,
    Logger,
    LossAggMode,
    RewardManager,
    RolloutMode,
    RolloutName,
    Strategy,
    Target,
    TrainerMode,
    Truncation,
)
from wizard.core.fields import (
    Spec,
    dynamic_batches,
    fixed_micro_batches,
    needs_critic,
    on_fsdp,
    on_megatron,
    on_targets,
    with_kl_in_reward,
    with_kl_loss,
    with_lora,
    with_reward_model,
    with_split_pools,
)
from wizard.i18n.text import msg

MAX_SIZE = 1 << 24  # no real run has more prompts, tokens or GPUs than this per step
PositiveSize = dict(ge=1, le=MAX_SIZE)

# Which deployment answers each target reads (the Deployment step shows the chosen target's).
KUBE = on_targets(*KUBERNETES_TARGETS)
KUBERAY = on_targets(*KUBERAY_TARGETS)
RAYJOB = on_targets(Target.RAY_JOB.value)
SLURM = on_targets(Target.SLURM.value)
K8S_JOB = on_targets(Target.K8S_JOB.value)
REMOTE = on_targets(*REMOTE_TARGETS)
LOCAL_SLURM = on_targets(Target.LOCAL.value, Target.SLURM.value)


def _numeric_not_bool(annotation: Any) -> bool:
    """Whether a field's type takes numbers but not booleans (int, float, int | None, str | int, ...)."""
    members = set(get_args(annotation)) if get_args(annotation) else {annotation}
    return bool(members & {int, float}) and bool not in members


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        """`true` is not 1: pydantic's lax mode would take a boolean for an integer or float field."""
        if isinstance(value, bool) and _numeric_not_bool(cls.model_fields[info.field_name].annotation):
            raise PydanticCustomError("bool_for_number", str(msg("answers.bool_for_number")))
        return value


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


class Engine(Section):
    strategy: Annotated[
        str, Spec("actor_rollout_ref.actor.strategy", step="hardware", row=6, choices=Strategy, title="Training engine")
    ] = "fsdp"
    """Training engine: fsdp, fsdp2 or megatron."""
    ulysses_sp: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.ulysses_sequence_parallel_size",
            step="hardware",
            row=7,
            unit="GPUs",
            when=on_fsdp,
            title="Sequence parallel size",
        ),
    ] = Field(1, ge=1, le=1024)
    """Ulysses sequence parallelism for the actor (and reference): GPUs that share one sequence."""
    critic_ulysses_sp: Annotated[int, Spec("critic.ulysses_sequence_parallel_size", unit="GPUs")] = Field(
        1, ge=1, le=1024
    )
    """Ulysses sequence parallelism for the critic."""
    param_offload: Annotated[
        bool,
        Spec(
            "actor_rollout_ref.actor.fsdp_config.param_offload",
            step="hardware",
            row=11,
            when=on_fsdp,
            title="Offload actor weights",
        ),
    ] = False
    """Keep actor parameters in CPU memory between uses (FSDP)."""
    optimizer_offload: Annotated[
        bool,
        Spec(
            "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
            step="hardware",
            row=12,
            when=on_fsdp,
            title="Offload optimizer",
        ),
    ] = False
    """Keep actor optimizer states in CPU memory (FSDP)."""
    ref_param_offload: Annotated[
        bool,
        Spec(
            "actor_rollout_ref.ref.fsdp_config.param_offload",
            step="hardware",
            row=13,
            when=on_fsdp,
            title="Offload reference weights",
        ),
    ] = False
    """Keep the reference model in CPU memory (it only runs forward passes)."""
    critic_param_offload: Annotated[bool, Spec("critic.fsdp.param_offload")] = False
    """Keep critic parameters in CPU memory (FSDP)."""
    critic_optimizer_offload: Annotated[bool, Spec("critic.fsdp.optimizer_offload")] = False
    """Keep critic optimizer states in CPU memory (FSDP)."""
    megatron_tp: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.megatron.tensor_model_parallel_size",
            step="hardware",
            row=8,
            unit="GPUs",
            when=on_megatron,
            title="Megatron tensor parallel",
        ),
    ] = Field(1, ge=1, le=1024)
    """Megatron tensor parallelism of the actor (the reference follows)."""
    megatron_pp: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size",
            step="hardware",
            row=9,
            unit="GPUs",
            when=on_megatron,
            title="Megatron pipeline parallel",
        ),
    ] = Field(1, ge=1, le=1024)
    """Megatron pipeline parallelism of the actor."""
    megatron_cp: Annotated[
        int,
        Spec(
            "actor_rollout_ref.actor.megatron.context_parallel_size",
            step="hardware",
            row=10,
            unit="GPUs",
            when=on_megatron,
            title="Megatron context parallel",
        ),
    ] = Field(1, ge=1, le=1024)
    """Megatron context parallelism of the actor."""


class Rollout(Section):
    name: Annotated[
        str | None,
        Spec("actor_rollout_ref.rollout.name", step="hardware", row=3, choices=RolloutName, title="Rollout engine"),
    ] = None
    """The inference engine that generates responses: vllm, sglang or trtllm. verl 0.9 has no default."""
    mode: Annotated[str, Spec("actor_rollout_ref.rollout.mode", choices=RolloutMode)] = "async"
    """Rollout mode; only async exists in verl 0.9."""
    tensor_parallel_size: Annotated[
        int,
        Spec(
            "actor_rollout_ref.rollout.tensor_model_parallel_size",
            step="hardware",
            row=4,
            unit="GPUs",
            title="Rollout tensor parallel",
        ),
    ] = Field(2, ge=1, le=1024)
    """GPUs per inference replica. Must divide the GPU count and stay inside one node."""
    gpu_memory_utilization: Annotated[
        float,
        Spec(
            "actor_rollout_ref.rollout.gpu_memory_utilization",
            step="hardware",
            row=5,
            unit="share of GPU memory",
            title="Rollout GPU memory share",
        ),
    ] = Field(0.5, gt=0, le=1)
    """Share of each GPU's memory the inference engine may take (weights + KV cache)."""
    temperature: Annotated[float, Spec("actor_rollout_ref.rollout.temperature")] = Field(1.0, ge=0)
    """Sampling temperature for training rollouts."""
    val_do_sample: Annotated[bool, Spec("actor_rollout_ref.rollout.val_kwargs.do_sample")] = False
    """Sample (rather than decode greedily) during validation."""
    load_format: Annotated[str, Spec("actor_rollout_ref.rollout.load_format", choices=LoadFormat)] = "dummy"
    """How the engine gets its first weights; dummy (synced from the trainer) or safetensors (LoRA)."""
    layered_summon: Annotated[bool, Spec("actor_rollout_ref.rollout.layered_summon")] = False
    """Sync LoRA weights layer by layer (less peak memory)."""


class Cluster(Section):
    nnodes: Annotated[int, Spec("trainer.nnodes", step="hardware", row=1, unit="nodes", title="Nodes")] = Field(
        1, ge=1, le=65536
    )
    """Machines in the training pool."""
    n_gpus_per_node: Annotated[
        int, Spec("trainer.n_gpus_per_node", step="hardware", row=2, unit="GPUs", title="GPUs per node")
    ] = Field(8, ge=1, le=1024)
    """GPUs used on each machine (every node must have the same count)."""
    trainer_mode: Annotated[
        str, Spec("trainer.v1.trainer_mode", step="hardware", row=16, choices=TrainerMode, title="Trainer mode")
    ] = "sync"
    """sync (colocated, the default), colocate_async, or separate_async (a standalone rollout pool)."""
    hybrid_engine: Annotated[bool, Spec("actor_rollout_ref.hybrid_engine")] = True
    """Actor and rollout share GPUs. false only with separate_async."""
    rollout_nnodes: Annotated[
        int,
        Spec(
            "actor_rollout_ref.rollout.nnodes",
            step="hardware",
            row=17,
            unit="nodes",
            when=with_split_pools,
            title="Rollout nodes",
        ),
    ] = Field(0, ge=0, le=65536)
    """Machines of the standalone rollout pool (separate_async only)."""
    rollout_n_gpus_per_node: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.rollout.n_gpus_per_node",
            step="hardware",
            row=18,
            unit="GPUs",
            when=with_split_pools,
            title="Rollout GPUs per node",
        ),
    ] = Field(None, ge=0, le=1024)
    """GPUs per machine of the standalone rollout pool; unset follows n_gpus_per_node."""
    parameter_sync_step: Annotated[
        int,
        Spec(
            "trainer.v1.separate_async.parameter_sync_step",
            step="batch",
            row=15,
            unit="mini-batches",
            when=with_split_pools,
            title="Weight sync interval",
        ),
    ] = Field(4, ge=1, le=MAX_SIZE)
    """Mini-batches between weight syncs to the rollout pool (separate_async)."""
    checkpoint_backend: Annotated[
        str,
        Spec(
            "actor_rollout_ref.rollout.checkpoint_engine.backend", step="hardware", row=19, title="Weight sync backend"
        ),
    ] = "naive"
    """How weights travel from trainer to rollout: naive (colocated), nccl, nixl, mooncake."""
    reward_pool_enable: Annotated[
        bool,
        Spec(
            "reward.reward_model.enable_resource_pool",
            step="hardware",
            row=20,
            when=with_reward_model,
            title="Separate reward GPUs",
        ),
    ] = False
    """Give the reward model GPUs of its own instead of sharing the training pool."""
    reward_pool_nnodes: Annotated[
        int,
        Spec(
            "reward.reward_model.nnodes",
            step="hardware",
            row=21,
            unit="nodes",
            when=with_reward_model,
            title="Reward model nodes",
        ),
    ] = Field(0, ge=0, le=65536)
    """Machines of the reward model's own pool."""
    reward_pool_n_gpus_per_node: Annotated[
        int,
        Spec(
            "reward.reward_model.n_gpus_per_node",
            step="hardware",
            row=22,
            unit="GPUs",
            when=with_reward_model,
            title="Reward model GPUs per node",
        ),
    ] = Field(8, ge=0, le=1024)
    """GPUs per machine of the reward model's own pool."""


class Trainer(Section):
    project_name: Annotated[str, Spec("trainer.project_name", step="deployment", row=33, title="Project name")] = Field(
        "verl_examples", min_length=1, max_length=256
    )
    """Tracking project name."""
    experiment_name: Annotated[
        str, Spec("trainer.experiment_name", step="deployment", row=34, title="Experiment name")
    ] = Field("gsm8k", min_length=1, max_length=256)
    """Tracking run name; also names the checkpoint folder and Kubernetes objects."""
    total_epochs: Annotated[
        int, Spec("trainer.total_epochs", step="deployment", row=35, unit="epochs", title="Epochs")
    ] = Field(30, ge=1, le=1 << 20)
    """Passes over the training data."""
    total_training_steps: Annotated[
        int | None,
        Spec("trainer.total_training_steps", step="deployment", row=36, unit="steps", title="Training steps"),
    ] = Field(None, ge=1, le=1 << 30)
    """Stop after this many steps (wins over total_epochs)."""
    save_freq: Annotated[
        int, Spec("trainer.save_freq", step="deployment", row=37, unit="steps", title="Save every")
    ] = Field(-1, ge=-1)
    """Checkpoint every this many steps; -1 never."""
    test_freq: Annotated[
        int, Spec("trainer.test_freq", step="deployment", row=38, unit="steps", title="Validate every")
    ] = Field(-1, ge=-1)
    """Validate every this many steps; -1 never."""
    logger: Annotated[
        str | list[str], Spec("trainer.logger", step="deployment", row=39, choices=Logger, title="Loggers")
    ] = [
        "console",
        "wandb",
    ]
    """Tracking backends; wandb needs WANDB_API_KEY in the environment."""
    val_before_train: Annotated[
        bool, Spec("trainer.val_before_train", step="deployment", row=40, title="Validate before training")
    ] = True
    """Run validation once before the first step."""
    critic_warmup: Annotated[int, Spec("trainer.critic_warmup", unit="steps")] = Field(0, ge=0)
    """Steps that update only the critic at the start."""


ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
# NCCL_SOCKET_IFNAME syntax: an optional ^ (exclude) or = (exact), then interface names or prefixes.
IFNAME = r"^[\^=]?[A-Za-z0-9_.:@-]+(,[A-Za-z0-9_.:@-]+)*$"
SLURM_WORD = r"^[A-Za-z0-9_.,:+-]+$"
# A PersistentVolumeClaim's name (a DNS subdomain) or an absolute host folder.
DATA_VOLUME = r"^(/[^\x00\n]*|[a-z0-9]([-a-z0-9.]*[a-z0-9])?)$"


def _as_list(value: Any) -> Any:
    """A single string where a list is expected (the TUI's one-item list, --set A=1) becomes a list."""
    return [value] if isinstance(value, str) else value


class Deploy(Section):
    target: Annotated[str, Spec(step="deployment", row=1, choices=Target, title="Run on")] = Field("local")
    """Where the run starts: local, ray-job, kuberay-job, kuberay-cluster, slurm or k8s-job."""
    name: Annotated[str | None, Spec(step="deployment", row=2, when=KUBE, title="Job name")] = Field(
        None, max_length=253
    )
    """Name of the Kubernetes objects and the Slurm job; unset: made from trainer.experiment_name as a DNS label."""
    namespace: Annotated[str | None, Spec(step="deployment", row=3, when=KUBE, title="Namespace")] = Field(
        None, max_length=253
    )
    """Kubernetes namespace of the objects; unset: the namespace of your kubectl context."""
    image: Annotated[str, Spec(step="deployment", row=4, when=KUBE, title="Container image")] = Field(
        "verlai/verl:vllm024.dev2", min_length=1, max_length=512
    )
    """Container image of every Ray pod (KubeRay) or of the Job. It must hold verl 0.9.1, its engine (vLLM or
    SGLang) and the Ray version below; the verlai/verl images hold the dependencies, add verl itself."""
    ray_version: Annotated[str, Spec(step="deployment", row=5, when=KUBERAY, title="Ray version")] = Field(
        "2.60.0", pattern=r"^\d+\.\d+(\.\d+)?$"
    )
    """Ray version inside the image (KubeRay's rayVersion); token authentication needs 2.52 or newer."""
    gpu_head: Annotated[bool, Spec(step="deployment", row=6, when=KUBERAY, title="GPUs on the head pod")] = True
    """The Ray head is a GPU node and counts as one of trainer.nnodes; false adds a CPU-only head."""
    cpus_per_gpu: Annotated[int, Spec(step="deployment", row=7, unit="CPUs", when=KUBE, title="CPUs per GPU")] = Field(
        4, ge=1, le=1024
    )
    """CPUs per GPU on every GPU node. verl reserves 3 CPUs per GPU and its driver task one more."""
    memory_per_gpu_gib: Annotated[
        int, Spec(step="deployment", row=8, unit="GiB", when=KUBE, title="Memory per GPU (GiB)")
    ] = Field(64, ge=1, le=1 << 16)
    """Memory (GiB) per GPU on every GPU node: model loading, offloading and data loaders live here."""
    head_cpus: Annotated[int, Spec(step="deployment", row=9, unit="CPUs", when=KUBERAY, title="Head CPUs")] = Field(
        8, ge=1, le=1 << 16
    )
    """CPUs of a CPU-only head (gpu_head false)."""
    head_memory_gib: Annotated[
        int, Spec(step="deployment", row=10, unit="GiB", when=KUBERAY, title="Head memory (GiB)")
    ] = Field(32, ge=1, le=1 << 16)
    """Memory (GiB) of a CPU-only head (gpu_head false)."""
    # KubeRay gives its Ray pods a /dev/shm volume itself: only a plain Job needs the answer.
    shm_gib: Annotated[int, Spec(step="deployment", row=11, unit="GiB", when=K8S_JOB, title="Shared memory (GiB)")] = (
        Field(64, ge=0, le=1 << 16)
    )
    """Size (GiB) of the /dev/shm memory volume of a plain Kubernetes Job; 0 leaves the 64 MiB default."""
    gpu_toleration: Annotated[bool, Spec(step="deployment", row=12, when=KUBE, title="GPU toleration")] = False
    """Add the toleration nvidia.com/gpu:NoSchedule that tainted GPU nodes need."""
    node_selector: Annotated[list[str], Spec(step="deployment", row=13, when=KUBE, title="Node selector")] = Field(
        default_factory=list, max_length=64
    )
    """Node labels a GPU pod must match, as key=value (nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3)."""
    ray_address: Annotated[str | None, Spec(step="deployment", row=14, when=RAYJOB, title="Ray address")] = Field(
        None, max_length=512
    )
    """ray-job: the cluster's Jobs API, http://HEAD:8265 (unset: http://127.0.0.1:8265)."""
    nccl_socket_ifname: Annotated[
        str | None, Spec(step="deployment", row=15, when=REMOTE, title="NCCL network interface")
    ] = Field(None, max_length=256, pattern=IFNAME)
    """NCCL_SOCKET_IFNAME on every node (eth0, =bond0, ^lo,docker): the interface between nodes."""
    gloo_socket_ifname: Annotated[
        str | None, Spec(step="deployment", row=16, when=REMOTE, title="Gloo network interface")
    ] = Field(None, max_length=256, pattern=IFNAME)
    """GLOO_SOCKET_IFNAME on every node: the interface torch's CPU collectives use between nodes."""
    env: Annotated[list[str], Spec(step="deployment", row=17, when=REMOTE, title="Environment variables")] = Field(
        default_factory=list, max_length=256
    )
    """Other environment variables for every node, as NAME=value (no secrets: see secret_env)."""
    secret_env: Annotated[list[str], Spec(step="deployment", row=18, when=REMOTE, title="Secret variables")] = Field(
        default_factory=list, max_length=64
    )
    """Names of secret environment variables (HF_TOKEN, ...); WANDB_API_KEY is added when logging to wandb.
    Kubernetes reads them from the Secret k8s_secret; the scripts take them from your environment."""
    k8s_secret: Annotated[str, Spec(step="deployment", row=19, when=KUBE, title="Kubernetes secret")] = Field(
        "verl-secrets", min_length=1, max_length=253
    )
    """The Kubernetes Secret that holds secret_env, one key per variable name."""
    auth_mode: Annotated[str, Spec(step="deployment", row=20, choices=AuthMode, when=REMOTE, title="Ray auth mode")] = (
        Field("token")
    )
    """Ray token authentication: token (one shared token for head, workers and driver) or disabled."""
    auth_secret: Annotated[str | None, Spec(step="deployment", row=21, when=KUBERAY, title="Ray auth secret")] = Field(
        None, max_length=253
    )
    """KubeRay: a Secret of yours with the Ray token (key auth_token); unset: KubeRay makes one."""
    ttl_seconds: Annotated[
        int, Spec(step="deployment", row=22, unit="s", when=KUBERAY, title="Keep finished job (s)")
    ] = Field(3600, ge=0, le=1 << 30)
    """Seconds a finished RayJob's cluster or Job is kept for its logs before it is deleted."""
    excludes: Annotated[list[str], Spec(step="deployment", row=23, when=RAYJOB, title="Upload excludes")] = Field(
        default_factory=lambda: [".git", "__pycache__"], max_length=256
    )
    """ray-job: files of the working folder that are not uploaded to the cluster."""
    slurm_partition: Annotated[str | None, Spec(step="deployment", row=24, when=SLURM, title="Slurm partition")] = (
        Field(None, max_length=128, pattern=SLURM_WORD)
    )
    """Slurm partition (sbatch --partition); unset: the cluster's default."""
    slurm_account: Annotated[str | None, Spec(step="deployment", row=25, when=SLURM, title="Slurm account")] = Field(
        None, max_length=128, pattern=SLURM_WORD
    )
    """Slurm account (sbatch --account); unset: your default account."""
    slurm_time: Annotated[str, Spec(step="deployment", row=26, when=SLURM, title="Slurm time limit")] = Field(
        "24:00:00", pattern=r"^[0-9]+(-[0-9]+)?(:[0-9]+){0,2}$"
    )
    """Slurm time limit (sbatch --time), as D-HH:MM:SS or HH:MM:SS."""
    join_timeout_s: Annotated[
        int, Spec(step="deployment", row=27, unit="s", when=SLURM, title="Node join timeout (s)")
    ] = Field(600, ge=10, le=86400)
    """Slurm: seconds to wait for every node to join the Ray cluster before the job fails."""
    ray_port: Annotated[int, Spec(step="deployment", row=28, when=SLURM, title="Ray port")] = Field(
        6379, ge=1024, le=65535
    )
    """Port of the Ray head's GCS (ray start --port)."""
    ray_init_num_cpus: Annotated[
        int | None,
        Spec(
            "ray_kwargs.ray_init.num_cpus", step="deployment", row=29, unit="CPUs", when=LOCAL_SLURM, title="Ray CPUs"
        ),
    ] = Field(None, ge=1, le=1 << 20)
    """CPUs of the Ray instance verl starts itself (local runs, k8s-job). Must stay unset when joining a cluster."""
    # issue 19: where the pods find the data and the model cache
    data_volume: Annotated[str | None, Spec(step="deployment", row=30, when=KUBE, title="Data volume")] = Field(
        None, max_length=4096, pattern=DATA_VOLUME
    )
    """Kubernetes: the volume that holds your data and model files, mounted in every pod at data_mount: a
    PersistentVolumeClaim's name (verl-data), or an absolute folder on every GPU node (/mnt/verl, a hostPath).
    Unset: nothing is mounted and the pods see only the image."""
    data_mount: Annotated[str, Spec(step="deployment", row=31, when=KUBE, title="Data mount path")] = Field(
        "/data", max_length=4096, pattern=r"^/[^\x00\n]+$"
    )
    """Where the data volume is mounted in the pods. data.train_files, data.val_files and local model paths
    must lie under it."""
    hf_home: Annotated[str | None, Spec(step="deployment", row=32, title="Hugging Face cache")] = Field(
        None, max_length=4096, pattern=r"^/[^\x00\n]*$"
    )
    """HF_HOME on every node: where Hugging Face models and datasets (ids such as Qwen/Qwen3-8B) are downloaded
    and cached. Unset: <data_mount>/huggingface when a data volume is mounted (downloaded once, kept across
    pods), else each machine's own default (~/.cache/huggingface)."""

    _lists = field_validator("node_selector", "env", "secret_env", "excludes", mode="before")(_as_list)

    @field_validator("env", "node_selector")
    @classmethod
    def _pairs(cls, values: list[str]) -> list[str]:
        for item in values:
            key, sep, _ = item.partition("=")
            if not sep or not key:
                raise ValueError(f"{item!r} is not NAME=value")
        return values

    @field_validator("env")
    @classmethod
    def _env_names(cls, values: list[str]) -> list[str]:
        for item in values:
            if not re.match(ENV_NAME, item.partition("=")[0]):
                raise ValueError(f"{item.partition('=')[0]!r} is not an environment variable name")
        return values

    @field_validator("secret_env")
    @classmethod
    def _secret_names(cls, values: list[str]) -> list[str]:
        for item in values:
            if not re.match(ENV_NAME, item):
                raise ValueError(f"{item!r} is not an environment variable name")
        return values


SECTIONS: dict[str, type[Section]] = {
    "algorithm": Algorithm,
    "models": Models,
    "data": Data,
    "batch": Batch,
    "engine": Engine,
    "rollout": Rollout,
    "cluster": Cluster,
    "trainer": Trainer,
    "deploy": Deploy,
}


class Answers(BaseModel):
    """Every answer of one wizard session. `extra` holds any other verl key (dotted) and its value."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    algorithm: Algorithm = Field(default_factory=Algorithm)
    models: Models = Field(default_factory=Models)
    data: Data = Field(default_factory=Data)
    batch: Batch = Field(default_factory=Batch)
    engine: Engine = Field(default_factory=Engine)
    rollout: Rollout = Field(default_factory=Rollout)
    cluster: Cluster = Field(default_factory=Cluster)
    trainer: Trainer = Field(default_factory=Trainer)
    deploy: Deploy = Field(default_factory=Deploy)
    extra: dict[str, Any] = Field(default_factory=dict)
    """Other verl keys, dotted, passed through to config.yaml unchanged (checked against verl's tree)."""
