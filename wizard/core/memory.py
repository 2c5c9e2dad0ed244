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

Which numbers are measured: the training and forward formulas (`train_parts`, `forward_parts`) were
calibrated against peaks measured on an H200 (tests/fixtures/memory_calibration); the sharding arithmetic,
the inference engine's budget and KV cache, Megatron and the runtime's NCCL share are formulas only.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.model_facts import ModelFacts
from wizard.i18n.text import Msg, msg

GIB = float(1 << 30)
BF16, FP32 = 2, 4
# Activation bytes per token and decoder layer without checkpointing, measured per tensor autograd keeps
# (bf16 values, RMSNorm's fp32 copies): 16·hidden + 6·q + 4·kv + 8·intermediate, + 6·(q + kv) with q/k norms.
ACT_HIDDEN, ACT_Q, ACT_KV, ACT_MLP, ACT_QK_NORM = 16, 6, 4, 8, 6
# Backward scratch per token in the layer being differentiated (gradients of its inputs and MLP).
BWD_HIDDEN, BWD_MLP = 8, 4
# Forward-only scratch per token inside one layer (no autograd): the MLP's three intermediates and a few hidden copies.
FWD_HIDDEN, FWD_MLP = 8, 6
# What the caching allocator reserves beyond the live tensors (expandable segments on, as verl sets for
# training): fitted to the calibration cases, reserved ≈ allocated + 0.5 GiB + 1.5 %.
SLACK_FIXED, SLACK_FRACTION = 0.5 * GIB, 0.015
CUDA_CONTEXT = 0.87 * GIB  # measured on the H200 (torch 2.11, CUDA 13): driver memory beyond torch's reserve
NCCL_BUFFERS = 0.5 * GIB  # formula only: communicator buffers of a multi-GPU worker
ENGINE_GRAPHS = 0.5 * GIB  # formula only: the inference engine's CUDA graphs when enforce_eager is off
ENGINE_MAX_SEQS, ENGINE_BATCHED_TOKENS = 256, 8192  # verl 0.9.1's rollout defaults


@dataclass(frozen=True)
class Part:
    """One share of a GPU's memory in a phase."""

    label: Msg  # a key of wizard/i18n/messages/models.py ("memory.part.*")
    bytes: float
    measured: bool = True  # False: a formula the calibration did not cover

    def resident_of(self, role: str) -> bool:
        """Whether this part is what a trained role (actor, critic) leaves on the GPU during another phase."""
        return self.label.key.startswith("memory.part.resident_") and self.label.args.get("role") == role

    @property
    def gib(self) -> float:
        return self.bytes / GIB


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


# ---------------------------------------------------------------- calibrated per-model formulas


def _root_params(f: ModelFacts, head: str) -> int:
    emb = (f.vocab_size or 0) * (f.hidden_size or 0)
    if head == "value":
        return emb + (f.hidden_size or 0)
    return f.embedding_params()


def _lora_params(f: ModelFacts, rank: int) -> int:
    h, q, kv, i = f.hidden_size or 0, f.q_size, f.kv_size, f.intermediate_size or 0
    per_layer = rank * ((h + q) + 2 * (h + kv) + (q + h) + 2 * (h + i) + (i + h))
    return per_layer * (f.num_layers or 0)


def act_per_token_layer(f: ModelFacts) -> float:
    """Activation bytes one token leaves in one decoder layer for the backward pass (no checkpointing)."""
    i = f.moe_intermediate_size * (f.num_experts_per_tok or 1) if f.num_experts else (f.intermediate_size or 0)
    act = ACT_HIDDEN * (f.hidden_size or 0) + ACT_Q * f.q_size + ACT_KV * f.kv_size + ACT_MLP * i
    if f.qk_norm:
        act += ACT_QK_NORM * (f.q_size + f.kv_size)
    return act


def _mlp_width(f: ModelFacts) -> int:
    return (
        (f.moe_intermediate_size or 0) * (f.num_experts_per_tok or 1) if f.num_experts else (f.intermediate_size or 0)
    )


def train_parts(
    f: ModelFacts, tokens: int, shards: int = 1, checkpointing: bool = True, head: str = "lm", lora_rank: int = 0
) -> list[Part]:
    """Peak of one FSDP training step on one GPU, as parts (the largest of its moments; see the module doc).

    `tokens` is the micro-batch's tokens on this GPU; `head` is "lm" (vocab logits) or "value" (a critic).
    """
    P = (
        f.param_count()
        if head == "lm"
        else f.param_count() - (0 if f.tie_word_embeddings else f.vocab_size * f.hidden_size) + f.hidden_size
    )
    trainable = _lora_params(f, lora_rank) if lora_rank else P
    n = max(1, shards)
    weights = Part(msg("memory.part.weights_sharded"), FP32 * P / n)
    grads = Part(msg("memory.part.gradients_sharded"), FP32 * trainable / n)
    optim = Part(msg("memory.part.optimizer_sharded"), 2 * FP32 * trainable / n)
    root = _root_params(f, head)
    layer = f.layer_params()
    gathered = Part(msg("memory.part.gathered"), BF16 * root + 2 * BF16 * layer)
    h, L = f.hidden_size or 0, f.num_layers or 0
    per_layer = act_per_token_layer(f)
    saved = tokens * L * (BF16 * h if checkpointing else per_layer)
    logits = Part(
        msg("memory.part.logits", how="bf16"), BF16 * tokens * (f.vocab_size or 0) if head == "lm" else FP32 * tokens
    )
    bwd = tokens * (BWD_HIDDEN * h + BWD_MLP * _mlp_width(f)) + (tokens * per_layer if checkpointing else 0)
    # a unit's gradient is reduced in fp32: its bf16 gradient and an fp32 copy exist at once (none for frozen weights)
    layer_grads = (BF16 + FP32) * (trainable / max(1, L) if lora_rank else layer)
    end_of_forward = [weights, grads, optim, gathered, Part(msg("memory.part.activations"), saved), logits]
    top_layer = [weights, grads, optim, gathered, Part(msg("memory.part.activations"), saved + bwd + layer_grads)]
    reduce_root = [
        weights,
        grads,
        optim,
        gathered,
        Part(msg("memory.part.gradient_reduction"), 0 if lora_rank else (BF16 + FP32) * root),
    ]
    step = [weights, grads, optim, Part(msg("memory.part.step_scratch"), FP32 * trainable / n)]
    return with_slack(max((end_of_forward, top_layer, reduce_root, step), key=_sum))


def forward_parts(f: ModelFacts, tokens: int, head: str = "lm") -> list[Part]:
    """Peak of one forward pass without gradients (weights kept elsewhere, gathered in bf16 unit by unit).

    The larger of two moments: inside a decoder layer (its scratch), and at the head (the logits).
    """
    root, layer = _root_params(f, head), f.layer_params()
    h = f.hidden_size or 0
    gathered_root = Part(msg("memory.part.gathered"), BF16 * root)
    in_layer = [
        Part(msg("memory.part.gathered"), BF16 * (root + 2 * layer)),
        Part(msg("memory.part.activations"), tokens * (FWD_HIDDEN * h + FWD_MLP * _mlp_width(f))),
    ]
    logits = BF16 * tokens * (f.vocab_size or 0) if head == "lm" else FP32 * tokens
    at_head = [
        gathered_root,
        Part(msg("memory.part.activations"), 2 * BF16 * tokens * h),
        Part(msg("memory.part.logits", how="bf16"), logits),
    ]
    return with_slack(max((in_layer, at_head), key=_sum))


def _sum(parts: list[Part]) -> float:
    return sum(p.bytes for p in parts)


def with_slack(parts: list[Part]) -> list[Part]:
    """The parts plus what the allocator reserves around them (fitted to the measured cases)."""
    return [*parts, Part(msg("memory.part.allocator"), SLACK_FIXED + SLACK_FRACTION * _sum(parts))]


def resident_parts(
    f: ModelFacts, shards: int, weights: bool, optimizer: bool, label: str, head: str = "lm"
) -> list[Part]:
    """What a trained model leaves on the GPU while another phase runs (fp32 weights, AdamW moments)."""
    P = f.param_count()
    parts = []
    if weights:
        parts.append(Part(msg("memory.part.resident_weights", role=label), FP32 * P / max(1, shards)))
    if optimizer:
        parts.append(Part(msg("memory.part.resident_optimizer", role=label), 2 * FP32 * P / max(1, shards)))
    return parts


def engine_parts(
    f: ModelFacts, tp: int, utilization: float, gpu_bytes: float, seq_len: int, eager: bool = False
) -> tuple[list[Part], float, float]:
    """The inference engine's share (formula only): (parts, KV-cache bytes left, KV bytes one sequence needs)."""
    budget = utilization * gpu_bytes
    weights = BF16 * f.param_count() / tp
    h, i = f.hidden_size or 0, _mlp_width(f)
    activations = ENGINE_BATCHED_TOKENS * (12 * h + 6 * i / tp) + ENGINE_MAX_SEQS * (f.vocab_size or 0) * 2 * FP32
    graphs = 0.0 if eager else ENGINE_GRAPHS
    kv = budget - weights - activations - graphs
    parts = [
        Part(msg("memory.part.engine_weights"), weights, False),
        Part(msg("memory.part.engine_activations"), activations + graphs, False),
        Part(msg("memory.part.kv_cache"), max(0.0, kv), False),
    ]
    return parts, kv, seq_len * f.kv_bytes_per_token(tp)


def runtime_part(n_gpus: int) -> Part:
    return Part(msg("memory.part.runtime"), CUDA_CONTEXT + (NCCL_BUFFERS if n_gpus > 1 else 0.0), n_gpus <= 1)


def megatron_train_parts(f: ModelFacts, tokens: int, tp: int, pp: int, dp: int, checkpointing: bool) -> list[Part]:
    """Megatron actor update (formula only): bf16 weights and fp32 gradients over TP·PP, the distributed optimizer over DP."""
    P = f.param_count()
    mp = max(1, tp * pp)
    h, L = f.hidden_size or 0, f.num_layers or 0
    per_layer = (BF16 * h) if checkpointing else act_per_token_layer(f) / tp
    return [
        Part(msg("memory.part.megatron_weights"), BF16 * P / mp, False),
        Part(msg("memory.part.megatron_gradients"), FP32 * P / mp, False),
        Part(msg("memory.part.megatron_optimizer"), 3 * FP32 * P / (mp * max(1, dp)), False),
        Part(msg("memory.part.activations"), tokens * L * per_layer, False),
        Part(msg("memory.part.logits", how="fp32 / TP"), FP32 * tokens * (f.vocab_size or 0) / tp, False),
    ]


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


@dataclass(frozen=True)
class Budget:
    """Tokens one GPU holds in one micro-batch of a phase, and the key that sets them."""

    tokens: int
    key: str


def _micro_tokens(
    dynamic: bool, budget: int | None, budget_key: str, micro: int | None, micro_key: str, seq_len: int, sp: int
) -> Budget:
    if dynamic:
        return Budget(int(budget or 16384), budget_key)
    return Budget(max(1, int(micro or 1) * seq_len // max(1, sp)), micro_key)


def token_budgets(answers, plan) -> dict[str, Budget]:
    """Tokens per GPU per micro-batch of the actor update, the log-prob passes, the reference and the critic."""
    b, L, sp = answers.batch, plan.seq_len, plan.actor.sp
    A = "actor_rollout_ref."
    out = {
        "update": _micro_tokens(
            plan.actor.dynamic,
            b.ppo_max_token_len_per_gpu,
            A + "actor.ppo_max_token_len_per_gpu",
            b.ppo_micro_batch_size_per_gpu,
            A + "actor.ppo_micro_batch_size_per_gpu",
            L,
            sp,
        )
    }
    lp_budget = b.log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu
    out["log-prob"] = _micro_tokens(
        plan.log_prob_dynamic,
        lp_budget,
        A + "rollout.log_prob_max_token_len_per_gpu",
        b.log_prob_micro_batch_size_per_gpu,
        A + "rollout.log_prob_micro_batch_size_per_gpu",
        L,
        sp,
    )
    ref_budget = b.ref_log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu
    out["ref"] = _micro_tokens(
        plan.ref_dynamic,
        ref_budget,
        A + "ref.log_prob_max_token_len_per_gpu",
        b.ref_log_prob_micro_batch_size_per_gpu or b.log_prob_micro_batch_size_per_gpu,
        A + "ref.log_prob_micro_batch_size_per_gpu",
        L,
        sp,
    )
    if plan.critic is not None:
        out["critic"] = _micro_tokens(
            plan.critic.dynamic,
            b.critic_ppo_max_token_len_per_gpu,
            "critic.ppo_max_token_len_per_gpu",
            b.critic_ppo_micro_batch_size_per_gpu,
            "critic.ppo_micro_batch_size_per_gpu",
            L,
            plan.critic.sp,
        )
    return out


def estimate_memory(answers, plan, models: dict, gpu_memory_mib: int | None = None) -> Estimate:
    """Every phase's peak per GPU, as parts. `models` maps roles to ModelFacts (wizard.detect.models);
    phases whose model numbers are unknown are left out, and so are the inference engine's phases when the
    GPU's memory is not known (its share is a fraction of it)."""
    from wizard.core.model_facts import facts_for
    from wizard.core.plan import extra_or_default

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
    trainable = _lora_params(actor, lora) if lora else actor.param_count()
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
