"""Batch arithmetic (BATCH-*): prompts × responses must be consumed exactly by mini- and micro-batches.

Symbols as in DESIGN.md: B train batch (prompts), n responses per prompt, N GPUs, m mini-batch (prompts),
mu micro-batch per GPU (responses), dp data-parallel size, sp sequence-parallel size, L prompt+response.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from wizard.core.findings import Fix, error, warning
from wizard.core.keymap import verl_to_field
from wizard.core.plan import extra_or_default
from wizard.core.rules.catalogue import why
from wizard.core.rules.fixes import both_ways, closest_of, divisors
from wizard.core.verl_schema import GROUP_ESTIMATORS
from wizard.i18n.text import msg

B_KEY = "data.train_batch_size"
N_KEY = "actor_rollout_ref.rollout.n"
M_KEY = "actor_rollout_ref.actor.ppo_mini_batch_size"
MU_KEY = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"
MU_GLOBAL_KEY = "actor_rollout_ref.actor.ppo_micro_batch_size"
DYN_KEY = "actor_rollout_ref.actor.use_dynamic_bsz"
BUDGET_KEY = "actor_rollout_ref.actor.ppo_max_token_len_per_gpu"
EPOCHS_KEY = "actor_rollout_ref.actor.ppo_epochs"


def _int(x: Fraction) -> int | None:
    return int(x) if x.denominator == 1 else None


def check_batch_divisible(ctx):
    a, p = ctx.answers, ctx.plan
    if p.actor.dynamic:
        return
    B, n, N = a.batch.train_batch_size, a.batch.rollout_n, p.n_gpus
    if p.engine == "megatron":
        mu = a.batch.ppo_micro_batch_size_per_gpu
        dp = _int(p.actor.dp)
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
    yield error(
        "BATCH-001",
        [B_KEY, N_KEY],
        msg("batch.not_divisible", B=B, n=n, responses=B * n, by=label),
        why("BATCH-001"),
        fixes,
    )


def check_mini_le_train(ctx):
    a = ctx.answers
    B, m = a.batch.train_batch_size, a.batch.ppo_mini_batch_size
    if m > B:
        yield error(
            "BATCH-002",
            [M_KEY, B_KEY],
            msg("batch.mini_over_train", m=m, B=B),
            why("BATCH-002"),
            [
                Fix({M_KEY: B}, msg("fix.set", key="ppo_mini_batch_size", value=B)),
                Fix({B_KEY: m}, msg("fix.set", key="train_batch_size", value=m)),
            ],
        )


def hint_train_multiple_of_mini(ctx):
    a = ctx.answers
    B, m = a.batch.train_batch_size, a.batch.ppo_mini_batch_size
    if m <= B and B % m:
        n, dp, mu = a.batch.rollout_n, _int(ctx.plan.actor.dp) or 1, ctx.plan.actor.micro_batch_per_gpu

        def splits(v: int) -> bool:
            share = v * n / dp
            return B % v == 0 and share == int(share) and (not mu or ctx.plan.actor.dynamic or int(share) % mu == 0)

        fixes = [
            Fix({M_KEY: v}, msg("fix.set", key="ppo_mini_batch_size", value=v))
            for v in closest_of(m, divisors(B), splits)
        ]
        yield warning(
            "BATCH-003",
            [B_KEY, M_KEY],
            msg("batch.train_not_multiple", B=B, m=m, pad=(-B) % m),
            why("BATCH-003"),
            fixes,
        )


def _chain_findings(ctx, chain, rule_id, keys):
    """BATCH-004/005 for the actor, BATCH-010 for the critic: mini-batch over dp, then over micro."""
    a = ctx.answers
    n, B = a.batch.rollout_n, a.batch.train_batch_size
    dp = _int(chain.dp)
    if dp is None or dp < 1:
        return
    m, mu = chain.mini_batch_prompts, chain.micro_batch_per_gpu
    m_key, mu_key = keys
    if (m * n) % dp:
        fixes = [
            Fix({m_key: v}, msg("fix.set", key=m_key.rpartition(".")[2], value=v))
            for v in both_ways(m, lambda v: (v * n) % dp == 0, hi=B)
        ]
        yield error(
            rule_id,
            [m_key, N_KEY],
            msg("batch.mini_not_split", role=chain.role, m=m, n=n, responses=m * n, dp=dp),
            why(rule_id),
            fixes,
        )
        return
    if chain.dynamic or not mu:
        return
    share = (m * n) // dp
    if share % mu:
        fixes = [Fix({mu_key: v}, msg("fix.micro_per_gpu", value=v)) for v in _nearest_divisors(share, mu)]
        rid = "BATCH-005" if rule_id == "BATCH-004" else rule_id
        yield error(
            rid,
            [mu_key, m_key],
            msg("batch.micro_not_tiling", role=chain.role, m=m, n=n, dp=dp, share=share, mu=mu),
            why(rid),
            fixes,
        )


def _nearest_divisors(share: int, mu: int) -> list[int]:
    ds = divisors(share)
    below = [d for d in ds if d < mu]
    above = [d for d in ds if d > mu]
    return [v for v in (below[-1] if below else None, above[0] if above else None) if v is not None]


def check_actor_chain(ctx):
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


def check_critic_chain(ctx):
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
        yield error(
            "BATCH-010",
            ["critic.ppo_mini_batch_size"],
            msg("batch.critic_mini_over_train", m=p.critic.mini_batch_prompts, B=a.batch.train_batch_size),
            why("BATCH-010"),
            [Fix({"critic.ppo_mini_batch_size": a.batch.train_batch_size}, msg("batch.fix.critic_mini_is_train"))],
        )


def _padded_responses(ctx) -> int:
    """Responses per step after verl pads the batch to a multiple of lcm(dp, m·n, critic m·n)."""
    p, _n = ctx.plan, ctx.answers.batch.rollout_n
    parts = [int(p.actor.dp), p.actor.mini_batch_responses]
    if p.critic is not None:
        parts.append(p.critic.mini_batch_responses)
    unit = math.lcm(*parts)
    total = p.actor.responses_per_step
    return -(-total // unit) * unit


def check_log_prob_micro(ctx):
    """BATCH-005 for the rollout's and reference's log-prob passes over the (padded) batch."""
    p, b = ctx.plan, ctx.answers.batch
    dp = _int(p.actor.dp)
    if dp is None or _int(Fraction(p.actor.mini_batch_responses, dp)) is None:
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
        fixes = [Fix({key: v}, msg("batch.fix.per_gpu", value=v)) for v in _nearest_divisors(share, mu)]
        yield error(
            "BATCH-005",
            [key],
            msg("batch.log_prob_micro", share=share, name=key.rpartition(".")[2], mu=mu),
            why("BATCH-005"),
            fixes,
        )


def _micro_pair(ctx, role, per_gpu_key, global_key, per_gpu, global_, dynamic, share):
    if dynamic:
        return
    if per_gpu is not None and global_ is not None:
        yield error(
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
            why("BATCH-006"),
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
        yield error("BATCH-006", [per_gpu_key], message, why("BATCH-006"), fixes)


def check_micro_sizes_set(ctx):
    p, b = ctx.plan, ctx.answers.batch
    dp = _int(p.actor.dp) or 1
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
        cshare = p.critic.mini_batch_responses // (_int(p.critic.dp) or 1)
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


def check_token_budgets(ctx):
    p, b = ctx.plan, ctx.answers.batch
    L = p.seq_len
    budgets = []
    if p.actor.dynamic:
        budgets.append((BUDGET_KEY, b.ppo_max_token_len_per_gpu, p.actor.sp))
    if p.actor.dynamic:  # the old-log-prob pass runs on the actor's engine, packed as the actor packs
        budgets.append(
            (
                "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
                b.log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu,
                p.actor.sp,
            )
        )
    if p.need_ref and p.ref_dynamic and not p.ref_in_actor:  # with LoRA the actor computes the reference
        budgets.append(
            (
                "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
                b.ref_log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu,
                p.actor.sp,
            )
        )
    if p.critic is not None and p.critic.dynamic:
        budgets.append(("critic.ppo_max_token_len_per_gpu", b.critic_ppo_max_token_len_per_gpu, p.critic.sp))
        budgets.append(
            (
                "critic.forward_max_token_len_per_gpu",
                b.critic_forward_max_token_len_per_gpu or b.critic_ppo_max_token_len_per_gpu,
                p.critic.sp,
            )
        )
    for key, budget, sp in budgets:
        if budget * sp >= L:
            continue
        need = -(-L // sp)
        rounded = -(-need // 1024) * 1024
        yield error(
            "BATCH-007",
            [key, "data.max_prompt_length", "data.max_response_length"],
            msg("batch.budget_short", name=key.rpartition(".")[2], budget=budget, sp=sp, total=budget * sp, length=L),
            why("BATCH-007"),
            [
                Fix({key: rounded}, msg("batch.fix.tokens_per_gpu", value=rounded)),
                Fix({key: 2 * rounded}, msg("batch.fix.tokens_per_gpu_room", value=2 * rounded)),
            ],
        )
    yield from _critic_budget_in_v1(ctx)


CRITIC_V1_BUDGET = 32768  # verl 0.9.1 CriticConfig.ppo_infer_max_token_len_per_gpu; not a key of its yaml


def _critic_budget_in_v1(ctx):
    """verl 0.9.1's V1 trainer packs the critic's micro-batches by a fixed 32768 tokens per GPU × sp.

    Whatever critic.use_dynamic_bsz and critic.ppo_max_token_len_per_gpu say, the V1 critic's engine
    packs dynamically with CriticConfig.ppo_infer_max_token_len_per_gpu, so a sequence longer than
    32768 × sp fails the critic update on the GPUs.
    """
    p, a = ctx.plan, ctx.answers
    if p.critic is None or verl_value(a, "trainer.use_v1", p.engine) is False:
        return
    sp = critic_sp_in_verl(ctx) if p.engine == "dp" else p.critic.sp
    L = p.seq_len
    if CRITIC_V1_BUDGET * sp >= L:
        return
    fixes = []
    if p.engine == "dp":
        key = "critic.fsdp.ulysses_sequence_parallel_size"
        fits = [d for d in divisors(p.n_gpus) if d * CRITIC_V1_BUDGET >= L and d <= p.gpus_per_node]
        fixes += [Fix({key: fits[0]}, msg("batch.fix.critic_sp", sp=fits[0]))] if fits else []
    else:
        key = "critic.megatron.context_parallel_size"
    room = CRITIC_V1_BUDGET * sp - a.data.max_prompt_length
    if room > 0:
        fixes.append(Fix({"data.max_response_length": room}, msg("fix.set", key="max_response_length", value=room)))
    yield error(
        "BATCH-007",
        [key, "data.max_prompt_length", "data.max_response_length"],
        msg("batch.critic_v1_budget", budget=CRITIC_V1_BUDGET, sp=sp, total=CRITIC_V1_BUDGET * sp, length=L),
        why("BATCH-007"),
        fixes,
    )


def check_group_needs_n(ctx):
    a = ctx.answers
    if a.algorithm.adv_estimator in GROUP_ESTIMATORS and a.batch.rollout_n == 1:
        fixes = [Fix({N_KEY: v}, msg("batch.fix.responses_per_prompt", value=v)) for v in (4, 5, 8, 16)]
        yield error(
            "BATCH-008",
            [N_KEY, "algorithm.adv_estimator"],
            msg("batch.group_needs_n", estimator=a.algorithm.adv_estimator),
            why("BATCH-008"),
            fixes,
        )


def hint_gae_with_n(ctx):
    a = ctx.answers
    if a.algorithm.adv_estimator == "gae" and a.batch.rollout_n > 1:
        yield warning(
            "BATCH-009",
            [N_KEY, "algorithm.adv_estimator"],
            msg("batch.gae_with_n", n=a.batch.rollout_n),
            why("BATCH-009"),
            [
                Fix({N_KEY: 1}, msg("batch.fix.one_response")),
                Fix({"algorithm.adv_estimator": "grpo"}, msg("fix.use", value="grpo")),
            ],
        )


def hint_optimizer_steps(ctx):
    a, chain = ctx.answers, ctx.plan.actor
    steps = chain.optimizer_steps_per_step
    if chain.mini_batch_prompts > a.batch.train_batch_size or 1 <= steps <= 16:
        return
    B, E = a.batch.train_batch_size, a.batch.ppo_epochs
    target = next((m for m in sorted(divisors(B)) if Fraction(B, m) * E <= 16), B)
    yield warning(
        "BATCH-011",
        [M_KEY, EPOCHS_KEY],
        msg("batch.optimizer_steps", steps=float(steps), B=B, m=chain.mini_batch_prompts, epochs=E),
        why("BATCH-011"),
        [Fix({M_KEY: target}, msg("fix.set", key="ppo_mini_batch_size", value=target))],
    )


def check_separate_async_sync(ctx):
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
    yield error(
        "BATCH-012",
        [B_KEY, M_KEY, "trainer.v1.separate_async.parameter_sync_step"],
        msg("batch.separate_async_sync", B=B, s=s, m=m),
        why("BATCH-012"),
        fixes,
    )


def check_log_prob_dynamic_matches(ctx):
    b = ctx.answers.batch
    if b.log_prob_use_dynamic_bsz is not None and b.log_prob_use_dynamic_bsz != b.use_dynamic_bsz:
        key = "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz"
        yield error(
            "BATCH-014",
            [key, DYN_KEY],
            msg("batch.log_prob_dynamic", rollout=b.log_prob_use_dynamic_bsz, actor=b.use_dynamic_bsz),
            why("BATCH-014"),
            [Fix({key: None}, msg("batch.fix.follow_actor"))],
        )


FAMILIES = ("BATCH",)  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [
    check_batch_divisible,
    check_mini_le_train,
    hint_train_multiple_of_mini,
    check_actor_chain,
    check_critic_chain,
    check_log_prob_micro,
    check_micro_sizes_set,
    check_token_budgets,
    check_group_needs_n,
    hint_gae_with_n,
    hint_optimizer_steps,
    check_separate_async_sync,
    check_log_prob_dynamic_matches,
]
