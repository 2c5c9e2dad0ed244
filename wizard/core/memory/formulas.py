"""The calibrated per-model formulas of the memory estimate: what one GPU holds, as Parts, in one FSDP training
step, one forward pass without gradients, the inference engine's share, a trained model's resident state,
the runtime and a Megatron update (wizard.core.memory.estimate puts them together into the phases of a step).

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


def _root_params(f: ModelFacts, head: str) -> int:
    emb = (f.vocab_size or 0) * (f.hidden_size or 0)
    if head == "value":
        return emb + (f.hidden_size or 0)
    return f.embedding_params()


def lora_params(f: ModelFacts, rank: int) -> int:
    """The trainable parameters of rank-`rank` LoRA adapters on every attention and MLP projection of every layer."""
    h, q, kv, i = f.hidden_size or 0, f.q_size, f.kv_size, f.intermediate_size or 0
    per_layer = rank * ((h + q) + 2 * (h + kv) + (q + h) + 2 * (h + i) + (i + h))
    return per_layer * (f.num_layers or 0)


def act_per_token_layer(f: ModelFacts) -> float:
    """Activation bytes one token leaves in one decoder layer for the backward pass (no checkpointing)."""
    act = ACT_HIDDEN * (f.hidden_size or 0) + ACT_Q * f.q_size + ACT_KV * f.kv_size + ACT_MLP * _mlp_width(f)
    if f.qk_norm:
        act += ACT_QK_NORM * (f.q_size + f.kv_size)
    return act


def _mlp_width(f: ModelFacts) -> int:
    """The MLP width one token passes through: its routed experts' together in a MoE model."""
    if not f.num_experts:
        return f.intermediate_size or 0
    # Mixtral's config.json names no moe_intermediate_size: its experts are intermediate_size wide
    # (as ModelFacts.mlp_params_per_layer counts them)
    return (f.moe_intermediate_size or f.intermediate_size or 0) * (f.num_experts_per_tok or 1)


def train_parts(
    f: ModelFacts, tokens: int, shards: int = 1, checkpointing: bool = True, head: str = "lm", lora_rank: int = 0
) -> list[Part]:
    """Peak of one FSDP training step on one GPU, as parts (the largest of its moments; see wizard.core.memory.estimate).

    `tokens` is the micro-batch's tokens on this GPU; `head` is "lm" (vocab logits) or "value" (a critic).
    """
    P = (
        f.param_count()
        if head == "lm"
        else f.param_count()
        - (0 if f.tie_word_embeddings else (f.vocab_size or 0) * (f.hidden_size or 0))
        + (f.hidden_size or 0)
    )
    trainable = lora_params(f, lora_rank) if lora_rank else P
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
