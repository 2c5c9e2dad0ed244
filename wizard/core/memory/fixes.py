"""The smallest changes that bring one over-full phase of the memory estimate under the GPU's memory.

Each candidate is applied to the answers and the whole estimate is redone, so a fix is offered only when
that phase then fits (under 90% of the GPU where possible, else under 100%) and its own constraints hold:
a token budget still holds one sequence, a micro-batch still tiles the per-GPU mini-batch, a lower
gpu_memory_utilization still leaves the KV cache one longest sequence, a larger TP still divides the GPUs,
fits a node and divides the heads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from wizard.core.field_keys import verl_to_field
from wizard.core.findings import Fix
from wizard.core.memory.estimate import OFFLOAD, RM_UTIL, TP, UTIL, Estimate, Phase, estimate_memory
from wizard.core.memory.formulas import GIB
from wizard.core.plan import engine_of, extra_or_default
from wizard.core.rule_context import apply_fix
from wizard.i18n.text import Msg, msg

COMFORT = 0.9
BUDGET_STEP = 1024
LORA_RANK = 64  # verl's LoRA example (the grpo-lora preset)

Candidate = TypeVar("Candidate")


def _phase(estimate: Estimate, role: str, phase: str) -> Phase | None:
    return next((p for p in estimate.phases if p.role == role and p.phase == phase), None)


class Search:
    """Re-estimates a context with a candidate fix applied; `fits(fix)` says whether the phase then fits."""

    def __init__(self, ctx, phase: Phase, gpu_mib: int, models: dict, limits: tuple[float, ...] = (COMFORT, 1.0)):
        self.ctx, self.phase, self.gpu_mib, self.models, self.apply = ctx, phase, gpu_mib, models, apply_fix
        self.gpu = gpu_mib * float(1 << 20)
        self.limits = limits  # an error's fix may end over 90%; a warning's must not

    def after(self, values: dict) -> Phase | None:
        try:
            ctx = self.apply(self.ctx, values)
        except Exception:  # noqa: BLE001 - a candidate the answers model refuses is no fix
            return None
        return _phase(
            estimate_memory(ctx.answers, ctx.plan, self.models, self.gpu_mib), self.phase.role, self.phase.phase
        )

    def fits(self, values: dict, limit: float) -> Phase | None:
        after = self.after(values)
        if after is None or after.total > limit * self.gpu:
            return None
        if after.kv_cache is not None and after.kv_needed is not None and after.kv_cache < after.kv_needed:
            return None
        return after

    def best(
        self, candidates: Sequence[Candidate], make: Callable[[Candidate], dict[str, Any]]
    ) -> tuple[Candidate, Phase] | None:
        """The first candidate (they come best first) that fits comfortably, else the first that fits at all."""
        for limit in self.limits:
            for value in candidates:
                after = self.fits(make(value), limit)
                if after is not None:
                    return value, after
        return None


def _label(text: Msg, after: Phase, gpu: float) -> Msg:
    return msg("memory.fix.after", fix=text, phase=after.name, total=after.total / GIB, gpu=gpu / GIB)


def budget_fixes(search: Search, key: str, current: int, floor: int) -> list[Fix]:
    """A smaller token budget: the largest multiple of 1024 (at least one sequence) that fits."""
    candidates = list(range((current - 1) // BUDGET_STEP * BUDGET_STEP, floor - 1, -BUDGET_STEP))
    if floor < current and floor not in candidates:
        candidates.append(floor)
    found = search.best([c for c in candidates if c >= floor], lambda v: {key: v})
    if found is None:
        return []
    value, after = found
    return [Fix({key: value}, _label(msg("memory.fix.token_budget", value=value), after, search.gpu))]


def micro_fixes(search: Search, key: str, current: int, per_gpu_batch: int | None) -> list[Fix]:
    """A smaller micro-batch that still tiles the per-GPU mini-batch."""
    candidates = [m for m in range(current - 1, 0, -1) if per_gpu_batch is None or per_gpu_batch % m == 0]
    found = search.best(candidates, lambda v: {key: v})
    if found is None:
        return []
    value, after = found
    return [Fix({key: value}, _label(msg("fix.micro_per_gpu", value=value), after, search.gpu))]


def switch_fix(search: Search, values: dict, text: Msg) -> list[Fix]:
    """A switch (offload, gradient checkpointing) when it alone makes the phase fit."""
    for limit in search.limits:
        after = search.fits(values, limit)
        if after is not None:
            return [Fix(values, _label(text, after, search.gpu))]
    return []


def utilization_fixes(search: Search, key: str, current: float) -> list[Fix]:
    """A lower gpu_memory_utilization that fits and still leaves the KV cache one longest sequence."""
    candidates = [round(current - step / 100, 2) for step in range(5, int(current * 100) - 4, 5)]
    found = search.best(candidates, lambda v: {key: v})
    if found is None:
        return []
    value, after = found
    return [Fix({key: value}, _label(msg("fix.set", key="gpu_memory_utilization", value=value), after, search.gpu))]


def tp_fixes(search: Search, current: int, valid: list[int]) -> list[Fix]:
    """A larger rollout TP (each engine holds less of the weights), among sizes that divide the GPUs and heads."""
    found = search.best([t for t in sorted(valid) if t > current], lambda v: {TP: v})
    if found is None:
        return []
    value, after = found
    return [Fix({TP: value}, _label(msg("fix.set", key="rollout TP", value=value), after, search.gpu))]


def lora_fixes(search: Search, key: str, current: int, floor: int) -> list[Fix]:
    """When the model states themselves do not fit: train LoRA adapters (with a smaller budget if need be)."""
    lora = {"actor_rollout_ref.model.lora_rank": LORA_RANK, "actor_rollout_ref.model.lora_alpha": LORA_RANK // 2}
    candidates = [dict(lora)]
    if key.endswith("max_token_len_per_gpu"):
        candidates += [
            {**lora, key: b} for b in range((current - 1) // BUDGET_STEP * BUDGET_STEP, floor - 1, -BUDGET_STEP)
        ]
    found = search.best(candidates, lambda v: v)
    if found is None:
        return []
    values, after = found
    budget = msg("memory.fix.lora_budget", value=values[key]) if key in values else ""
    return [Fix(values, _label(msg("memory.fix.lora", rank=LORA_RANK, budget=budget), after, search.gpu))]


def fixes_for(ctx, phase: Phase, gpu_mib: int, models: dict, valid_tps: list[int], error: bool = True) -> list[Fix]:
    """Every kind of fix that brings this phase under the limit, each checked by re-estimating."""
    a, p = ctx.answers, ctx.plan
    search = Search(ctx, phase, gpu_mib, models, (COMFORT, 1.0) if error else (COMFORT,))
    fixes: list[Fix] = []
    floor = -(-p.seq_len // max(1, p.actor.sp))
    chain = p.critic if phase.role == "critic" and p.critic is not None else p.actor
    per_gpu = int(chain.mini_batch_per_gpu) if chain.mini_batch_per_gpu.denominator == 1 else None
    offload_actor = {OFFLOAD["param"]: True, OFFLOAD["optimizer"]: True}
    if phase.phase in ("update", "log-prob"):
        key = phase.knobs[0]
        if key.endswith("max_token_len_per_gpu"):
            current = _current(a, key)
            fixes += budget_fixes(
                search, key, current, floor if phase.role != "critic" else -(-p.seq_len // max(1, p.critic.sp))
            )
        else:
            fixes += micro_fixes(search, key, _current(a, key), per_gpu if phase.phase == "update" else None)
        if (
            phase.phase == "update"
            and "actor_rollout_ref.model.enable_gradient_checkpointing" in phase.knobs
            and not a.models.enable_gradient_checkpointing
        ):
            fixes += switch_fix(
                search,
                {"actor_rollout_ref.model.enable_gradient_checkpointing": True},
                msg("memory.fix.gradient_checkpointing"),
            )
        if phase.role == "actor" and phase.phase == "update" and not fixes and not a.models.lora_rank:
            fixes += lora_fixes(search, key, _current(a, key), floor)
        if phase.phase == "log-prob" and not a.engine.optimizer_offload:
            fixes += switch_fix(search, {OFFLOAD["optimizer"]: True}, msg("memory.fix.offload_optimizer"))
        if phase.role in ("critic", "ref") and not (a.engine.param_offload and a.engine.optimizer_offload):
            fixes += switch_fix(search, offload_actor, msg("memory.fix.offload_actor"))
    elif phase.phase in ("generate", "score"):
        key = UTIL if phase.phase == "generate" else RM_UTIL
        fixes += utilization_fixes(search, key, _current(a, key))
        if phase.pool == "trainer" and not a.engine.optimizer_offload:
            fixes += switch_fix(search, {OFFLOAD["optimizer"]: True}, msg("memory.fix.offload_optimizer"))
        if phase.phase == "generate":
            fixes += tp_fixes(search, p.rollout_tp, valid_tps)
        if any(part.resident_of("critic") for part in phase.parts):
            fixes += switch_fix(
                search,
                {OFFLOAD["critic_param"]: True, OFFLOAD["critic_optimizer"]: True},
                msg("memory.fix.offload_critic"),
            )
    elif phase.phase == "weight sync":
        fixes += tp_fixes(search, p.rollout_tp, valid_tps)
        if not a.engine.optimizer_offload:
            fixes += switch_fix(search, {OFFLOAD["optimizer"]: True}, msg("memory.fix.offload_optimizer"))
    return fixes


def _current(answers, key: str):
    """The value of a verl key in the answers (fields first, then extra, then verl's default)."""
    field = verl_to_field().get(key)
    if field:
        section, _, attr = field.partition(".")
        value = getattr(getattr(answers, section), attr)
        if value is not None:
            return value
        if key.endswith("log_prob_max_token_len_per_gpu"):
            return answers.batch.ppo_max_token_len_per_gpu
        if key.endswith("ref.log_prob_micro_batch_size_per_gpu"):
            return answers.batch.log_prob_micro_batch_size_per_gpu or 1
        if key.endswith("micro_batch_size_per_gpu"):
            return 1
    return extra_or_default(answers, key, engine_of(answers))
