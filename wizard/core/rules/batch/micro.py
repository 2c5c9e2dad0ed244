"""Micro-batch sizes by count (BATCH-005, BATCH-006, BATCH-014): each pass's micro-batch size given once and
in its per-GPU form, the log-prob passes' sizes tiling the padded batch, and the log-prob passes packing
the way the actor packs.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.batch.train_batch import MU_KEY, as_int, nearest_divisors
from wizard.core.rules.declare import emits, make_finding, rule, rule_for
from wizard.core.rules.fixes import divisors
from wizard.i18n.text import msg

MU_GLOBAL_KEY = "actor_rollout_ref.actor.ppo_micro_batch_size"
DYN_KEY = "actor_rollout_ref.actor.use_dynamic_bsz"


def _padded_responses(ctx) -> int:
    """Responses per step after verl pads the batch to a multiple of lcm(dp, m·n, critic m·n)."""
    p, _n = ctx.plan, ctx.answers.batch.rollout_n
    parts = [int(p.actor.dp), p.actor.mini_batch_responses]
    if p.critic is not None:
        parts.append(p.critic.mini_batch_responses)
    unit = math.lcm(*parts)
    total = p.actor.responses_per_step
    return -(-total // unit) * unit


@rule(
    "BATCH-005",
    Severity.ERROR,
    title="Per-GPU mini-batch is not a multiple of the micro-batch",
    why="Micro-batches must tile each GPU's share of a mini-batch (and of the log-prob batch); verl asserts it at the first step.",
)
def check_log_prob_micro(ctx: RuleContext) -> Iterator[Finding]:
    """BATCH-005 for the rollout's and reference's log-prob passes over the (padded) batch."""
    p, b = ctx.plan, ctx.answers.batch
    dp = as_int(p.actor.dp)
    if dp is None or as_int(Fraction(p.actor.mini_batch_responses, dp)) is None:
        return
    share = _padded_responses(ctx) // dp
    # The actor's engine runs the old-log-prob pass, packed the way the actor packs (actor.use_dynamic_bsz).
    passes = [
        (
            "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
            b.log_prob_micro_batch_size_per_gpu,
            p.actor.dynamic,
        )
    ]
    if p.need_ref and not p.ref_in_actor:
        passes.append(
            (
                "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
                b.ref_log_prob_micro_batch_size_per_gpu,
                p.ref_dynamic,
            )
        )
    for key, mu, dynamic in passes:
        if dynamic or not mu or share % mu == 0:
            continue
        fixes = [Fix({key: v}, msg("batch.fix.per_gpu", value=v)) for v in nearest_divisors(share, mu)]
        yield make_finding(
            "BATCH-005", [key], msg("batch.log_prob_micro", share=share, name=key.rpartition(".")[2], mu=mu), fixes
        )


@emits(
    "BATCH-006",
    Severity.ERROR,
    title="Micro-batch size set twice, or not at all",
    why="Without dynamic batching verl needs exactly one micro-batch size per role, and its 0.9 workers need the per-GPU form.",
)
def _micro_pair(ctx, role, per_gpu_key, global_key, per_gpu, global_, dynamic, share):
    if dynamic:
        return
    if per_gpu is not None and global_ is not None:
        yield make_finding(
            "BATCH-006",
            [per_gpu_key, global_key],
            msg(
                "batch.micro_twice",
                role=role,
                global_key=global_key,
                global_value=global_,
                per_gpu_key=per_gpu_key,
                per_gpu_value=per_gpu,
            ),
            [Fix({global_key: None}, msg("batch.fix.keep_per_gpu", value=per_gpu))],
        )
    elif per_gpu is None:
        suggestion = max([d for d in divisors(share) if d <= 8], default=1) if share else 1
        label = msg("fix.set", key=per_gpu_key.rpartition(".")[2], value=suggestion)
        fixes = [Fix({per_gpu_key: suggestion, global_key: None}, label)]
        if global_ is not None:
            message = msg("batch.micro_deprecated", role=role, global_key=global_key, per_gpu_key=per_gpu_key)
        else:
            message = msg("batch.micro_missing", role=role, per_gpu_key=per_gpu_key)
        yield make_finding("BATCH-006", [per_gpu_key], message, fixes)


@rule_for("BATCH-006")
def check_micro_sizes_set(ctx: RuleContext) -> Iterator[Finding]:
    p, b = ctx.plan, ctx.answers.batch
    dp = as_int(p.actor.dp) or 1
    share = p.actor.mini_batch_responses // dp
    yield from _micro_pair(
        ctx,
        msg("batch.role.actor"),
        MU_KEY,
        MU_GLOBAL_KEY,
        b.ppo_micro_batch_size_per_gpu,
        b.ppo_micro_batch_size,
        p.actor.dynamic,
        share,
    )
    # verl asks for the log-prob micro sizes whenever the *actor* packs by count (validate_config and the
    # worker go by actor.use_dynamic_bsz), and the reference's too when the reference itself does.
    yield from _micro_pair(
        ctx,
        msg("batch.role.rollout_log_prob"),
        "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu",
        "actor_rollout_ref.rollout.log_prob_micro_batch_size",
        b.log_prob_micro_batch_size_per_gpu,
        b.log_prob_micro_batch_size,
        p.actor.dynamic,
        share,
    )
    if p.need_ref:
        yield from _micro_pair(
            ctx,
            msg("batch.role.reference"),
            "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu",
            "actor_rollout_ref.ref.log_prob_micro_batch_size",
            b.ref_log_prob_micro_batch_size_per_gpu,
            b.ref_log_prob_micro_batch_size,
            p.actor.dynamic and p.ref_dynamic,
            share,
        )
    if p.critic is not None:
        cshare = p.critic.mini_batch_responses // (as_int(p.critic.dp) or 1)
        yield from _micro_pair(
            ctx,
            msg("batch.role.critic"),
            "critic.ppo_micro_batch_size_per_gpu",
            "critic.ppo_micro_batch_size",
            b.critic_ppo_micro_batch_size_per_gpu,
            b.critic_ppo_micro_batch_size,
            p.critic.dynamic,
            cshare,
        )


@rule(
    "BATCH-014",
    Severity.ERROR,
    title="Rollout log-prob batching differs from the actor's",
    why="verl's workers assert that rollout.log_prob_use_dynamic_bsz equals actor.use_dynamic_bsz.",
)
def check_log_prob_dynamic_matches(ctx: RuleContext) -> Iterator[Finding]:
    b = ctx.answers.batch
    if b.log_prob_use_dynamic_bsz is not None and b.log_prob_use_dynamic_bsz != b.use_dynamic_bsz:
        key = "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz"
        yield make_finding(
            "BATCH-014",
            [key, DYN_KEY],
            msg("batch.log_prob_dynamic", rollout=b.log_prob_use_dynamic_bsz, actor=b.use_dynamic_bsz),
            [Fix({key: None}, msg("batch.fix.follow_actor"))],
        )
