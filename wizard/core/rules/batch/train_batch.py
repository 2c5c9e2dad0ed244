"""Batch arithmetic (BATCH-*) of the train batch as a whole: its responses over the GPUs, the mini-batch
against it, the responses group estimators need, the optimizer steps per step and separate-async's sync.

The family's other rules: each role's mini- and micro-batch chain (batch_chains), the micro-batch sizes
and the log-prob passes (batch_micro), the token budgets of dynamic batch sizes (batch_budgets); BATCH-013,
over the data's rows, is in data.py. This module holds the keys and helpers they share.

Symbols as in DESIGN.md: B train batch (prompts), n responses per prompt, N GPUs, m mini-batch (prompts),
mu micro-batch per GPU (responses), dp data-parallel size, sp sequence-parallel size, L prompt+response.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule
from wizard.core.rules.fixes import both_ways, closest_of, divisors
from wizard.core.verl_schema import GROUP_ESTIMATORS
from wizard.i18n.text import msg

PASSK = "grpo_passk"

B_KEY = "data.train_batch_size"
N_KEY = "actor_rollout_ref.rollout.n"
M_KEY = "actor_rollout_ref.actor.ppo_mini_batch_size"
MU_KEY = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"
EPOCHS_KEY = "actor_rollout_ref.actor.ppo_epochs"


def as_int(x: Fraction) -> int | None:
    """The fraction as an int when it is whole (a size that divides evenly), else None."""
    return int(x) if x.denominator == 1 else None


def nearest_divisors(share: int, mu: int) -> list[int]:
    """The divisors of `share` just below and just above `mu` (those that exist): a micro-batch size's fixes."""
    ds = divisors(share)
    below = [d for d in ds if d < mu]
    above = [d for d in ds if d > mu]
    return [v for v in (below[-1] if below else None, above[0] if above else None) if v is not None]


@rule(
    "BATCH-001",
    Severity.ERROR,
    title="Responses per step do not split evenly over the GPUs",
    why="verl asserts at start-up that train_batch_size × rollout.n is divisible by the minimal batch (the GPU count for FSDP, dp × micro for Megatron).",
)
def check_batch_divisible(ctx: RuleContext) -> Iterator[Finding]:
    a, p = ctx.answers, ctx.plan
    if p.actor.dynamic:
        return
    B, n, N = a.batch.train_batch_size, a.batch.rollout_n, p.n_gpus
    if p.engine == "megatron":
        mu = a.batch.ppo_micro_batch_size_per_gpu
        dp = as_int(p.actor.dp)
        if not mu or dp is None:
            return
        minimal = dp * mu
        label = msg("batch.by_dp_micro", dp=dp, mu=mu, minimal=minimal)
    else:
        minimal, label = N, msg("batch.by_gpus", n=N)
    if (B * n) % minimal == 0:
        return
    fixes = [
        Fix({B_KEY: v}, msg("fix.set", key="train_batch_size", value=v))
        for v in both_ways(B, lambda v: (v * n) % minimal == 0)
    ]
    yield make_finding(
        "BATCH-001", [B_KEY, N_KEY], msg("batch.not_divisible", B=B, n=n, responses=B * n, by=label), fixes
    )


@rule(
    "BATCH-002",
    Severity.ERROR,
    title="Mini-batch larger than the train batch",
    why="An optimizer step cannot take more prompts than a training step produces; verl rejects it without dynamic batching and silently pads with it.",
)
def check_mini_le_train(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    B, m = a.batch.train_batch_size, a.batch.ppo_mini_batch_size
    if m > B:
        yield make_finding(
            "BATCH-002",
            [M_KEY, B_KEY],
            msg("batch.mini_over_train", m=m, B=B),
            [
                Fix({M_KEY: B}, msg("fix.set", key="ppo_mini_batch_size", value=B)),
                Fix({B_KEY: m}, msg("fix.set", key="train_batch_size", value=m)),
            ],
        )


@rule(
    "BATCH-003",
    Severity.WARNING,
    title="Train batch is not a multiple of the mini-batch",
    why="verl pads the batch with dummy rows up to a multiple of the mini-batch: compute is spent on padding and rollout and update fall out of step.",
)
def hint_train_multiple_of_mini(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    B, m = a.batch.train_batch_size, a.batch.ppo_mini_batch_size
    if m <= B and B % m:
        n, dp, mu = a.batch.rollout_n, as_int(ctx.plan.actor.dp) or 1, ctx.plan.actor.micro_batch_per_gpu

        def splits(v: int) -> bool:
            share = v * n / dp
            return B % v == 0 and share == int(share) and (not mu or ctx.plan.actor.dynamic or int(share) % mu == 0)

        fixes = [
            Fix({M_KEY: v}, msg("fix.set", key="ppo_mini_batch_size", value=v))
            for v in closest_of(m, divisors(B), splits)
        ]
        yield make_finding("BATCH-003", [B_KEY, M_KEY], msg("batch.train_not_multiple", B=B, m=m, pad=(-B) % m), fixes)


@rule(
    "BATCH-008",
    Severity.WARNING,
    title="Group estimator with one response per prompt",
    why="GRPO-style estimators compare the responses to one prompt; with n = 1 verl takes each group's mean as 0 (and its std as 1), so the advantage is the raw reward with no baseline: noisier updates than the estimator is meant for (a distillation run that does not use task rewards is not affected).",
)
@rule(
    "BATCH-015",
    Severity.ERROR,
    title="Pass@k estimator with one response per prompt",
    why="grpo_passk gives the best response of each prompt's group the advantage r_max - r_second_max; verl raises ValueError at the first step when a group has fewer than 2 responses.",
)
def check_group_needs_n(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    estimator = a.algorithm.adv_estimator
    if estimator not in GROUP_ESTIMATORS or a.batch.rollout_n != 1:
        return
    fixes = [Fix({N_KEY: v}, msg("batch.fix.responses_per_prompt", value=v)) for v in (4, 5, 8, 16)]
    paths = [N_KEY, "algorithm.adv_estimator"]
    if estimator == PASSK:
        # verl's pass@k estimator raises at the first step on a group of fewer than 2 responses.
        yield make_finding("BATCH-015", paths, msg("batch.passk_needs_two"), fixes)
    else:
        # The other group estimators run: verl takes a group of one's mean as 0, so there is no baseline.
        yield make_finding("BATCH-008", paths, msg("batch.group_needs_n", estimator=estimator), fixes)


@rule(
    "BATCH-009",
    Severity.WARNING,
    title="GAE with several responses per prompt",
    why="PPO with a critic usually samples one response per prompt; n > 1 multiplies rollout cost without the group baseline it pays for.",
)
def hint_gae_with_n(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if a.algorithm.adv_estimator == "gae" and a.batch.rollout_n > 1:
        yield make_finding(
            "BATCH-009",
            [N_KEY, "algorithm.adv_estimator"],
            msg("batch.gae_with_n", n=a.batch.rollout_n),
            [
                Fix({N_KEY: 1}, msg("batch.fix.one_response")),
                Fix({"algorithm.adv_estimator": "grpo"}, msg("fix.use", value="grpo")),
            ],
        )


@rule(
    "BATCH-011",
    Severity.WARNING,
    title="Optimizer steps per rollout outside 1..16",
    why="Many updates on one batch of rollouts make the policy stale (off-policy); very large mini-batches waste the rollout.",
)
def hint_optimizer_steps(ctx: RuleContext) -> Iterator[Finding]:
    a, chain = ctx.answers, ctx.plan.actor
    steps = chain.optimizer_steps_per_step
    if chain.mini_batch_prompts > a.batch.train_batch_size or 1 <= steps <= 16:
        return
    B, E = a.batch.train_batch_size, a.batch.ppo_epochs
    target = next((m for m in sorted(divisors(B)) if Fraction(B, m) * E <= 16), B)
    yield make_finding(
        "BATCH-011",
        [M_KEY, EPOCHS_KEY],
        msg("batch.optimizer_steps", steps=float(steps), B=B, m=chain.mini_batch_prompts, epochs=E),
        [Fix({M_KEY: target}, msg("fix.set", key="ppo_mini_batch_size", value=target))],
    )


@rule(
    "BATCH-012",
    Severity.ERROR,
    title="separate_async: train batch != parameter_sync_step × mini-batch",
    why="The separate-async trainer syncs weights every parameter_sync_step mini-batches and asserts that they add up to one training batch.",
)
def check_separate_async_sync(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if a.cluster.trainer_mode != "separate_async":
        return
    B, m, s = a.batch.train_batch_size, a.batch.ppo_mini_batch_size, a.cluster.parameter_sync_step
    if s * m == B:
        return
    fixes = [Fix({B_KEY: s * m}, msg("fix.set", key="train_batch_size", value=s * m))]
    if B % s == 0:
        fixes.append(Fix({M_KEY: B // s}, msg("fix.set", key="ppo_mini_batch_size", value=B // s)))
    if B % m == 0:
        fixes.append(
            Fix(
                {"trainer.v1.separate_async.parameter_sync_step": B // m},
                msg("fix.set", key="parameter_sync_step", value=B // m),
            )
        )
    yield make_finding(
        "BATCH-012",
        [B_KEY, M_KEY, "trainer.v1.separate_async.parameter_sync_step"],
        msg("batch.separate_async_sync", B=B, s=s, m=m),
        fixes,
    )
