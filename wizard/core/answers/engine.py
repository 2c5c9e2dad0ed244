"""The answers of the training engine (FSDP or Megatron: parallel sizes, offload, LoRA) and of the rollout
(vLLM or SGLang: tensor parallel, memory share). Each field's docstring is its help."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from wizard.core.answers.section import (
    Section,
)
from wizard.core.choices import (
    LoadFormat,
    RolloutMode,
    RolloutName,
    Strategy,
)
from wizard.core.fields import (
    Spec,
    on_fsdp,
    on_megatron,
)


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
