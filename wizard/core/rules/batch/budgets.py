"""Token budgets under dynamic batch sizes (BATCH-007): every pass that packs micro-batches by tokens must
fit the longest prompt and response, and so must verl 0.9.1's V1 critic, which packs by a fixed budget.
"""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.batch.chains import critic_sp_in_verl, verl_value
from wizard.core.rules.declare import make_finding, rule
from wizard.core.rules.fixes import divisors
from wizard.core.verl_schema import key_tree
from wizard.i18n.text import msg

BUDGET_KEY = "actor_rollout_ref.actor.ppo_max_token_len_per_gpu"


def engine_sp(ctx, role: str) -> int:
    """The Ulysses size the FSDP engine of `role` (actor_rollout_ref.actor or .ref) packs micro-batches with in
    verl 0.9.1: FSDPActorConfig.__post_init__ copies the role's deprecated ulysses_sequence_parallel_size
    into its fsdp_config when it is above 1; else the engine keeps fsdp_config.ulysses_sequence_parallel_size,
    where 0.9 scripts set it. The ref's own deprecated key follows the actor's by interpolation. The VeOmni
    engine (`model_engine=veomni`) packs with its own veomni.ulysses_parallel_size instead (VeOmniEngine hands
    its parallel state's ulysses size to the packing), the ref's following the actor's unless set."""
    a, engine = ctx.answers, ctx.plan.engine
    if key_tree(ctx) == "veomni":
        for key in (f"{role}.veomni.ulysses_parallel_size", "actor_rollout_ref.actor.veomni.ulysses_parallel_size"):
            sp = verl_value(a, key, engine)
            if _is_size(sp):
                return sp
        return 1
    old = a.engine.ulysses_sp
    if role.endswith(".ref"):
        own = verl_value(a, f"{role}.ulysses_sequence_parallel_size", engine)
        old = own if _is_size(own) else old  # the default is an interpolation of the actor's
    if old > 1:
        return old
    sp = verl_value(a, f"{role}.fsdp_config.ulysses_sequence_parallel_size", engine)
    return sp if _is_size(sp) else 1


def _is_size(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


@rule(
    "BATCH-007",
    Severity.ERROR,
    title="Token budget smaller than one sequence",
    why="With dynamic batching a micro-batch must hold the longest sequence: budget × sp must be at least max_prompt_length + max_response_length.",
)
def check_token_budgets(ctx: RuleContext) -> Iterator[Finding]:
    p, b = ctx.plan, ctx.answers.batch
    L = p.seq_len
    fsdp = p.engine == "dp"
    actor_sp = engine_sp(ctx, "actor_rollout_ref.actor") if fsdp and p.actor.dynamic else p.actor.sp
    budgets = []
    if p.actor.dynamic:
        budgets.append((BUDGET_KEY, b.ppo_max_token_len_per_gpu, actor_sp))
    if p.actor.dynamic:  # the old-log-prob pass runs on the actor's engine, packed as the actor packs
        budgets.append(
            (
                "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
                b.log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu,
                actor_sp,
            )
        )
    if p.need_ref and p.ref_dynamic and not p.ref_in_actor:  # with LoRA the actor computes the reference
        budgets.append(
            (
                "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
                b.ref_log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu,
                engine_sp(ctx, "actor_rollout_ref.ref") if fsdp else p.actor.sp,
            )
        )
    if p.critic is not None and p.critic.dynamic:
        critic_sp = critic_sp_in_verl(ctx) if fsdp else p.critic.sp
        budgets.append(("critic.ppo_max_token_len_per_gpu", b.critic_ppo_max_token_len_per_gpu, critic_sp))
        budgets.append(
            (
                "critic.forward_max_token_len_per_gpu",
                b.critic_forward_max_token_len_per_gpu or b.critic_ppo_max_token_len_per_gpu,
                critic_sp,
            )
        )
    for key, budget, sp in budgets:
        if budget * sp >= L:
            continue
        need = -(-L // sp)
        rounded = -(-need // 1024) * 1024
        yield make_finding(
            "BATCH-007",
            [key, "data.max_prompt_length", "data.max_response_length"],
            msg("batch.budget_short", name=key.rpartition(".")[2], budget=budget, sp=sp, total=budget * sp, length=L),
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
    yield make_finding(
        "BATCH-007",
        [key, "data.max_prompt_length", "data.max_response_length"],
        msg("batch.critic_v1_budget", budget=CRITIC_V1_BUDGET, sp=sp, total=CRITIC_V1_BUDGET * sp, length=L),
        fixes,
    )
