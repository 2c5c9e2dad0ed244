"""The trained roles' chains (BATCH-004, BATCH-005, BATCH-010): each role's mini-batch split over its
data-parallel ranks, then tiled by its micro-batches, for the actor and for the critic.

The critic's chain is checked with the Ulysses size verl 0.9.1's critic really runs with (critic_sp_in_verl),
which the placement rules and the token budgets read too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

from wizard.core.field_keys import verl_to_field
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.plan import extra_or_default
from wizard.core.rule_context import RuleContext
from wizard.core.rules.batch.train_batch import M_KEY, MU_KEY, N_KEY, as_int, nearest_divisors
from wizard.core.rules.declare import make_finding, rule, rule_for
from wizard.core.rules.fixes import both_ways
from wizard.i18n.text import msg


def _chain_findings(ctx, chain, rule_id, keys):
    """BATCH-004/005 for the actor, BATCH-010 for the critic: mini-batch over dp, then over micro."""
    a = ctx.answers
    n, B = a.batch.rollout_n, a.batch.train_batch_size
    dp = as_int(chain.dp)
    if dp is None or dp < 1:
        return
    m, mu = chain.mini_batch_prompts, chain.micro_batch_per_gpu
    m_key, mu_key = keys
    if (m * n) % dp:
        fixes = [
            Fix({m_key: v}, msg("fix.set", key=m_key.rpartition(".")[2], value=v))
            for v in both_ways(m, lambda v: (v * n) % dp == 0, hi=B)
        ]
        yield make_finding(
            rule_id,
            [m_key, N_KEY],
            msg("batch.mini_not_split", role=chain.role, m=m, n=n, responses=m * n, dp=dp),
            fixes,
        )
        return
    if chain.dynamic or not mu:
        return
    share = (m * n) // dp
    if share % mu:
        fixes = [Fix({mu_key: v}, msg("fix.micro_per_gpu", value=v)) for v in nearest_divisors(share, mu)]
        rid = "BATCH-005" if rule_id == "BATCH-004" else rule_id
        yield make_finding(
            rid,
            [mu_key, m_key],
            msg("batch.micro_not_tiling", role=chain.role, m=m, n=n, dp=dp, share=share, mu=mu),
            fixes,
        )


@rule(
    "BATCH-004",
    Severity.ERROR,
    title="Mini-batch responses do not split over data-parallel ranks",
    why="Every update asserts that ppo_mini_batch_size × n is divisible by the data-parallel size; it fails on the first step, after model loading.",
)
@rule_for("BATCH-005")
def check_actor_chain(ctx: RuleContext) -> Iterator[Finding]:
    yield from _chain_findings(ctx, ctx.plan.actor, "BATCH-004", (M_KEY, MU_KEY))


def critic_sp_in_verl(ctx) -> int:
    """The Ulysses size verl 0.9.1's FSDP critic really runs with.

    The V1 trainer (trainer.use_v1, the default) builds the critic's engine from critic.fsdp and never
    copies the deprecated critic.ulysses_sequence_parallel_size into it; the legacy trainer reads that one.
    """
    a = ctx.answers
    if verl_value(a, "trainer.use_v1", ctx.plan.engine) is False:
        return a.engine.critic_ulysses_sp
    sp = verl_value(a, "critic.fsdp.ulysses_sequence_parallel_size", ctx.plan.engine)
    return sp if isinstance(sp, int) and not isinstance(sp, bool) and sp >= 1 else 1


def verl_value(answers, key: str, engine: str):
    """The value of a verl key in these answers, whether an answer field or `extra` holds it, else verl's default."""
    field_name = verl_to_field().get(key)
    if field_name is not None:
        section, _, attr = field_name.partition(".")
        return getattr(getattr(answers, section), attr)
    return extra_or_default(answers, key, engine)


@rule(
    "BATCH-010",
    Severity.ERROR,
    title="The critic's batch chain does not split evenly",
    why="The critic updates on the same responses with its own mini/micro sizes, and the same divisibility applies over its data-parallel ranks.",
)
def check_critic_chain(ctx: RuleContext) -> Iterator[Finding]:
    p, a = ctx.plan, ctx.answers
    if p.critic is None:
        return
    m_key = "critic.ppo_mini_batch_size" if a.batch.critic_ppo_mini_batch_size else M_KEY
    chain = p.critic
    if p.engine == "dp":
        sp = critic_sp_in_verl(ctx)
        chain = replace(
            chain,
            dp=Fraction(p.n_gpus, sp),
            sp=sp,
            mini_batch_per_gpu=Fraction(chain.mini_batch_responses * sp, p.n_gpus),
        )
    for finding in _chain_findings(ctx, chain, "BATCH-010", (m_key, "critic.ppo_micro_batch_size_per_gpu")):
        if m_key == M_KEY and M_KEY in finding.paths and finding.message.key == "batch.mini_not_split":
            # The critic follows the actor's mini-batch; its own size fixes the critic without moving the actor.
            own = [
                Fix(
                    {"critic.ppo_mini_batch_size": fix.set[M_KEY]},
                    msg("fix.set", key="critic.ppo_mini_batch_size", value=fix.set[M_KEY]),
                )
                for fix in finding.fixes
                if M_KEY in fix.set
            ]
            finding = replace(finding, fixes=(*finding.fixes, *own))
        yield finding
    if p.critic.mini_batch_prompts > a.batch.train_batch_size:
        yield make_finding(
            "BATCH-010",
            ["critic.ppo_mini_batch_size"],
            msg("batch.critic_mini_over_train", m=p.critic.mini_batch_prompts, B=a.batch.train_batch_size),
            [Fix({"critic.ppo_mini_batch_size": a.batch.train_batch_size}, msg("batch.fix.critic_mini_is_train"))],
        )
