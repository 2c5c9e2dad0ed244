"""Estimated peak GPU memory per role and phase of one verl step, shown as parts.

Pure arithmetic over Answers, the Plan and each role's ModelFacts (no I/O). It follows what verl 0.9.1's
engine workers keep on a GPU in each phase of a colocated step:

- actor update: fp32 master weights, fp32 gradients and AdamW's two fp32 moments, sharded over the FSDP
  group (16 bytes per parameter / shards); the bf16 copies FSDP gathers (the root unit with the
  embeddings for the whole step, two decoder layers at a time); the activations of one micro-batch (layer
  inputs only with gradient checkpointing, plus one layer recomputed); the bf16 logits; AdamW's foreach
  scratch at the step. param/optimizer offload do not lower this phase: verl loads both back to update.
- log-prob (actor) and ref: a forward pass without gradients; verl keeps the reference's weights in CPU memory.
- generate: the inference engine takes gpu_memory_utilization × the GPU (weights / TP, its activations,
  the KV cache in the rest); the actor's optimizer stays unless offloaded (verl offloads the actor's weights
  before waking the engine).
- weight sync: actor weights back on the GPU, the engine's weights, the largest tensor gathered whole.
- critic update and a colocated reward model's scoring, likewise.

The per-model formulas are in wizard.core.memory.formulas (which of them are measured is said there), the
tokens per micro-batch in wizard.core.memory.tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.memory.formulas import (
    BF16,
    FP32,
    Part,
    engine_parts,
    forward_parts,
    lora_params,
    megatron_train_parts,
    resident_parts,
    runtime_part,
    train_parts,
)
from wizard.core.memory.tokens import token_budgets
from wizard.core.model_facts import ModelFacts, facts_for
from wizard.core.plan import extra_or_default
from wizard.i18n.text import Msg, msg


@dataclass(frozen=True)
class Phase:
    """What one GPU holds at the peak of one role's phase. `knobs` are the verl keys that change it."""

    role: str
    phase: str
    pool: str
    parts: tuple[Part, ...]
    knobs: tuple[str, ...] = ()
    kv_cache: float | None = None  # bytes the engine has left for its KV cache (generate phases)
    kv_needed: float | None = None  # bytes one longest sequence needs in that cache

    @property
    def total(self) -> float:
        return sum(p.bytes for p in self.parts)

    @property
    def name(self) -> Msg:
        return msg(PHASE_NAMES[self.role, self.phase])


PHASE_NAMES = {  # (role, phase) -> how a message names it (a new phase needs its name here)
    ("actor", "update"): "memory.phase.actor_update",
    ("actor", "log-prob"): "memory.phase.actor_log_prob",
    ("ref", "log-prob"): "memory.phase.ref_log_prob",
    ("rollout", "generate"): "memory.phase.rollout_generate",
    ("rollout", "weight sync"): "memory.phase.rollout_weight_sync",
    ("critic", "update"): "memory.phase.critic_update",
    ("reward model", "score"): "memory.phase.reward_model_score",
}


@dataclass(frozen=True)
class Estimate:
    """Every phase of one plan, and the GPU memory it was compared with (bytes; None when unknown)."""

    phases: tuple[Phase, ...]
    gpu_bytes: float | None

    def peak(self, pool: str = "trainer") -> Phase | None:
        candidates = [p for p in self.phases if p.pool == pool]
        return max(candidates, key=lambda p: p.total) if candidates else None


# ---------------------------------------------------------------- the phases of one plan

OFFLOAD = {
    "param": "actor_rollout_ref.actor.fsdp_config.param_offload",
    "optimizer": "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
    "critic_param": "critic.fsdp.param_offload",
    "critic_optimizer": "critic.fsdp.optimizer_offload",
}
UTIL = "actor_rollout_ref.rollout.gpu_memory_utilization"
TP = "actor_rollout_ref.rollout.tensor_model_parallel_size"
RM_UTIL = "reward.reward_model.rollout.gpu_memory_utilization"


def estimate_memory(answers, plan, models: dict, gpu_memory_mib: int | None = None) -> Estimate:
    """Every phase's peak per GPU, as parts. `models` maps roles to ModelFacts (wizard.detect.models);
    phases whose model numbers are unknown are left out, and so are the inference engine's phases when the
    GPU's memory is not known (its share is a fraction of it)."""
    a, p = answers, plan
    gpu = gpu_memory_mib * float(1 << 20) if gpu_memory_mib else None
    actor = facts_for(models, a.models.actor_path)
    if actor is None or not actor.complete:
        return Estimate((), gpu)
    opt = lambda key: bool(extra_or_default(a, key, p.engine))  # noqa: E731
    trainer = p.pools[0]
    runtime = runtime_part(trainer.gpus)
    if p.engine == "megatron":
        return Estimate(_megatron_phases(a, p, actor, gpu, runtime, opt), gpu)
    fsdp = extra_or_default(a, "actor_rollout_ref.actor.fsdp_config.fsdp_size", p.engine)
    shards = fsdp if isinstance(fsdp, int) and fsdp > 0 else trainer.gpus
    tokens = token_budgets(a, p)
    lora = a.models.lora_rank
    trainable = lora_params(actor, lora) if lora else actor.param_count()
    e = a.engine

    def actor_resident(weights: bool) -> list[Part]:
        parts = (
            [Part(msg("memory.part.resident_weights", role="actor"), FP32 * actor.param_count() / shards)]
            if weights and not e.param_offload
            else []
        )
        if not e.optimizer_offload:
            parts.append(Part(msg("memory.part.resident_optimizer", role="actor"), 2 * FP32 * trainable / shards))
        return parts

    critic = facts_for(models, a.models.critic_path) if p.critic is not None else None
    critic_resident: list[Part] = []
    if critic is not None and critic.complete:
        critic_resident = resident_parts(
            critic, trainer.gpus, not e.critic_param_offload, not e.critic_optimizer_offload, "critic", "value"
        )
    split = a.cluster.trainer_mode == "separate_async"
    eager = bool(extra_or_default(a, "actor_rollout_ref.rollout.enforce_eager", p.engine))
    asleep = bool(extra_or_default(a, "actor_rollout_ref.rollout.free_cache_engine", p.engine))
    engine_awake: list[Part] = []
    if not split and not asleep and gpu:
        engine_awake = engine_parts(actor, p.rollout_tp, a.rollout.gpu_memory_utilization, gpu, p.seq_len, eager)[0]
    ckpt_key = "actor_rollout_ref.model.enable_gradient_checkpointing"
    phases = [
        Phase(
            "actor",
            "update",
            "trainer",
            (
                *train_parts(
                    actor, tokens["update"].tokens, shards, a.models.enable_gradient_checkpointing, "lm", lora
                ),
                *critic_resident,
                *engine_awake,
                runtime,
            ),
            (tokens["update"].key, ckpt_key),
        )
    ]
    fwd = forward_parts(actor, tokens["log-prob"].tokens)
    phases.append(
        Phase(
            "actor",
            "log-prob",
            "trainer",
            (*fwd, *actor_resident(True), *critic_resident, *engine_awake, runtime),
            (tokens["log-prob"].key, OFFLOAD["optimizer"]),
        )
    )
    if p.need_ref and not p.ref_in_actor:
        phases.append(
            Phase(
                "ref",
                "log-prob",
                "trainer",
                (
                    *forward_parts(actor, tokens["ref"].tokens),
                    *actor_resident(True),
                    *critic_resident,
                    *engine_awake,
                    runtime,
                ),
                (tokens["ref"].key, OFFLOAD["param"]),
            )
        )
    if gpu:
        parts, kv, need = engine_parts(actor, p.rollout_tp, a.rollout.gpu_memory_utilization, gpu, p.seq_len, eager)
        if split:
            phases.append(
                Phase("rollout", "generate", "rollout", (*parts, runtime_part(p.rollout_tp)), (UTIL, TP), kv, need)
            )
        else:
            phases.append(
                Phase(
                    "rollout",
                    "generate",
                    "trainer",
                    (*parts, *actor_resident(False), *critic_resident, runtime),
                    (UTIL, OFFLOAD["optimizer"]),
                    kv,
                    need,
                )
            )
    if not split:
        largest = Part(
            msg("memory.part.largest_tensor"), FP32 * (actor.vocab_size or 0) * (actor.hidden_size or 0), False
        )
        sync = [
            Part(msg("memory.part.actor_weights_sharded"), FP32 * actor.param_count() / shards),
            *actor_resident(False),
            Part(msg("memory.part.engine_weights"), BF16 * actor.param_count() / p.rollout_tp, False),
            largest,
        ]
        phases.append(
            Phase("rollout", "weight sync", "trainer", (*sync, *critic_resident, runtime), (TP, OFFLOAD["optimizer"]))
        )
    if critic is not None and critic.complete:
        cckpt = bool(extra_or_default(a, "critic.model.enable_gradient_checkpointing", p.engine))
        phases.append(
            Phase(
                "critic",
                "update",
                "trainer",
                (
                    *train_parts(critic, tokens["critic"].tokens, trainer.gpus, cckpt, "value"),
                    *actor_resident(True),
                    *engine_awake,
                    runtime,
                ),
                (tokens["critic"].key, OFFLOAD["param"]),
            )
        )
    rm = facts_for(models, a.models.reward_model_path) if a.models.reward_model_enable else None
    if rm is not None and rm.complete and gpu:
        rm_util = float(extra_or_default(a, RM_UTIL, p.engine) or 0.5)
        rm_tp = int(extra_or_default(a, "reward.reward_model.rollout.tensor_model_parallel_size", p.engine) or 1)
        parts, kv, need = engine_parts(rm, rm_tp, rm_util, gpu, p.seq_len, True)
        if a.cluster.reward_pool_enable:
            phases.append(
                Phase("reward model", "score", "reward model", (*parts, runtime_part(rm_tp)), (RM_UTIL,), kv, need)
            )
        else:
            phases.append(
                Phase(
                    "reward model",
                    "score",
                    "trainer",
                    (*parts, *actor_resident(True), *critic_resident, runtime),
                    (RM_UTIL, OFFLOAD["optimizer"]),
                    kv,
                    need,
                )
            )
    return Estimate(tuple(phases), gpu)


def _megatron_phases(a, p, actor: ModelFacts, gpu, runtime: Part, opt) -> tuple[Phase, ...]:
    """Megatron: the update and, colocated, generation beside the resident distributed optimizer (formula only)."""
    e = a.engine
    budget = token_budgets(a, p)["update"]
    dp = max(1, p.n_gpus // max(1, e.megatron_tp * e.megatron_pp * e.megatron_cp))
    tokens = max(1, budget.tokens // max(1, e.megatron_cp))
    update = megatron_train_parts(
        actor, tokens, e.megatron_tp, e.megatron_pp, dp, a.models.enable_gradient_checkpointing
    )
    phases = [Phase("actor", "update", "trainer", (*update, runtime), (budget.key,))]
    if gpu and a.cluster.trainer_mode != "separate_async":
        parts, kv, need = engine_parts(actor, p.rollout_tp, a.rollout.gpu_memory_utilization, gpu, p.seq_len)
        resident = [] if opt("actor_rollout_ref.actor.megatron.optimizer_offload") else [update[2]]
        phases.append(Phase("rollout", "generate", "trainer", (*parts, *resident, runtime), (UTIL,), kv, need))
    return tuple(phases)


def memory_parts(estimate: Estimate) -> dict[str, dict[str, list[tuple[Msg, float, bool]]]]:
    """For the TUI's memory bars: role -> phase -> [(part label, GiB, measured)], plus the GPU size under "gpu"."""
    table: dict[str, dict[str, list[tuple[Msg, float, bool]]]] = {}
    for phase in estimate.phases:
        table.setdefault(phase.role, {})[phase.phase] = [
            (part.label, round(part.gib, 2), part.measured) for part in phase.parts
        ]
    return table
