"""Placement (PLACE-*): parallel groups fit the GPUs and nodes, pools add up, the target is big enough."""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.model_facts import facts_for
from wizard.core.plan import extra_or_default
from wizard.core.rule_context import RuleContext
from wizard.core.rules.batch.chains import critic_sp_in_verl
from wizard.core.rules.declare import make_finding, rule
from wizard.core.rules.fixes import divisors
from wizard.i18n.text import msg

TP_KEY = "actor_rollout_ref.rollout.tensor_model_parallel_size"
SP_KEY = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
MEG = "actor_rollout_ref.actor.megatron."
CRITIC_ENGINE_SP = "critic.fsdp.ulysses_sequence_parallel_size"


def _fitting_tps(gpus: int, per_node: int, current: int) -> list[int]:
    """TP sizes that divide the GPUs and fit a node, nearest to the current one first."""
    fits = [d for d in divisors(gpus) if d <= per_node and per_node % d == 0]
    return sorted(fits, key=lambda d: (abs(d - current), -d))[:2]


def _rollout_pool(ctx) -> tuple[int, int]:
    p = ctx.plan
    pool = p.pools[-1] if ctx.answers.cluster.trainer_mode == "separate_async" else p.pools[0]
    return pool.gpus, pool.gpus_per_node


@rule(
    "PLACE-001",
    Severity.ERROR,
    title="GPU count not divisible by rollout tensor parallelism",
    why="Each inference replica takes TP GPUs; verl asserts the rollout world size is a multiple of TP.",
)
def check_rollout_tp_divides(ctx: RuleContext) -> Iterator[Finding]:
    gpus, per_node = _rollout_pool(ctx)
    tp = ctx.plan.rollout_tp
    if gpus and gpus % tp:
        fixes = [Fix({TP_KEY: v}, msg("fix.set", key="rollout TP", value=v)) for v in _fitting_tps(gpus, per_node, tp)]
        yield make_finding(
            "PLACE-001",
            [TP_KEY, "trainer.n_gpus_per_node", "trainer.nnodes"],
            msg("place.rollout_tp_indivisible", gpus=gpus, tp=tp),
            fixes,
        )


@rule(
    "PLACE-002",
    Severity.ERROR,
    title="Rollout tensor-parallel group larger than a node, not of whole nodes",
    why="verl's rollout replica asserts at start-up that a replica wider than a node is made of whole nodes (its world size a multiple of n_gpus_per_node).",
)
@rule(
    "PLACE-014",
    Severity.WARNING,
    title="Rollout tensor-parallel group across whole nodes",
    why="verl runs a rollout replica over several whole nodes, but a TP group that spans nodes all-reduces every layer over the network: generation is much slower than with TP inside a node.",
)
def check_rollout_tp_in_node(ctx: RuleContext) -> Iterator[Finding]:
    gpus, per_node = _rollout_pool(ctx)
    tp = ctx.plan.rollout_tp
    if per_node and tp > per_node and gpus % tp == 0:
        fixes = [Fix({TP_KEY: v}, msg("fix.set", key="rollout TP", value=v)) for v in _fitting_tps(gpus, per_node, tp)]
        paths = [TP_KEY, "trainer.n_gpus_per_node"]
        if tp % per_node:
            # verl's RolloutReplica asserts that a replica wider than a node is made of whole nodes.
            yield make_finding("PLACE-002", paths, msg("place.rollout_tp_over_node", tp=tp, per_node=per_node), fixes)
        else:
            # Whole nodes: verl runs the replica across them, its TP all-reduces over the network.
            message = msg("place.rollout_tp_whole_nodes", tp=tp, per_node=per_node, nodes=tp // per_node)
            yield make_finding("PLACE-014", paths, message, fixes)


@rule(
    "PLACE-004",
    Severity.ERROR,
    title="Megatron parallel sizes do not fit the GPUs",
    why="verl asserts that the GPU count is divisible by TP·PP·CP; a Megatron TP group must also stay inside a node.",
)
def check_megatron_fit(ctx: RuleContext) -> Iterator[Finding]:
    p, e = ctx.plan, ctx.answers.engine
    if p.engine != "megatron":
        return
    tp, pp, cp, N = e.megatron_tp, e.megatron_pp, e.megatron_cp, p.n_gpus
    if N % (tp * pp * cp):
        fixes = []
        for new_tp in _fitting_tps(N // (pp * cp) if N % (pp * cp) == 0 else 1, p.gpus_per_node, tp):
            fixes.append(
                Fix({MEG + "tensor_model_parallel_size": new_tp}, msg("fix.set", key="Megatron TP", value=new_tp))
            )
        for new_pp in [d for d in divisors(N // tp) if d != pp][:2] if N % tp == 0 and cp == 1 else []:
            fixes.append(
                Fix({MEG + "pipeline_model_parallel_size": new_pp}, msg("fix.set", key="Megatron PP", value=new_pp))
            )
        yield make_finding(
            "PLACE-004",
            [MEG + "tensor_model_parallel_size", MEG + "pipeline_model_parallel_size", MEG + "context_parallel_size"],
            msg("place.megatron_indivisible", gpus=N, tp=tp, pp=pp, cp=cp, product=tp * pp * cp),
            fixes,
        )
    elif tp > p.gpus_per_node:
        yield make_finding(
            "PLACE-004",
            [MEG + "tensor_model_parallel_size"],
            msg("place.megatron_tp_over_node", tp=tp, per_node=p.gpus_per_node),
            [
                Fix({MEG + "tensor_model_parallel_size": v}, msg("fix.set", key="Megatron TP", value=v))
                for v in _fitting_tps(N, p.gpus_per_node, tp)
            ],
        )


@rule(
    "PLACE-005",
    Severity.ERROR,
    title="Attention heads not divisible by TP or SP",
    why="vLLM/SGLang split the attention heads over rollout TP and refuse an uneven split; KV heads must divide TP or be divisible by it. verl's Ulysses asserts the same for sp (KV heads are repeated when sp is a multiple of them), and Megatron for its TP.",
)
def check_megatron_kv_groups(ctx: RuleContext) -> Iterator[Finding]:
    """PLACE-005 for the one Megatron split vLLM allows and Megatron does not: TP a multiple of the KV heads.

    megatron-core divides the query groups (KV heads) by TP (`divide(num_query_groups, tp)`), where vLLM
    replicates KV heads over a larger TP; the other head splits are checked with the model's facts elsewhere.
    """
    p, e = ctx.plan, ctx.answers.engine
    facts = facts_for(ctx.models, ctx.answers.models.actor_path) if p.engine == "megatron" else None
    if facts is None or not facts.num_heads:
        return
    heads, kv, tp = facts.num_heads, facts.kv_heads, e.megatron_tp
    if tp <= 1 or heads % tp or kv % tp == 0:
        return
    fits = [
        d
        for d in divisors(p.n_gpus)
        if d <= p.gpus_per_node
        and heads % d == 0
        and kv % d == 0
        and p.n_gpus % (d * e.megatron_pp * e.megatron_cp) == 0
        and d != tp
    ]
    fixes = [
        Fix({MEG + "tensor_model_parallel_size": d}, msg("fix.set", key="Megatron TP", value=d))
        for d in sorted(fits, key=lambda d: (abs(d - tp), -d))[:2]
    ]
    yield make_finding(
        "PLACE-005",
        [MEG + "tensor_model_parallel_size"],
        msg("place.megatron_kv_groups", tp=tp, kv=kv, path=facts.path),
        fixes,
    )


@rule(
    "PLACE-006",
    Severity.ERROR,
    title="Sequence parallelism without remove-padding",
    why="verl's Ulysses implementation works on packed sequences and refuses sp > 1 without use_remove_padding.",
)
def check_sp_needs_remove_padding(ctx: RuleContext) -> Iterator[Finding]:
    a, p = ctx.answers, ctx.plan
    if p.engine == "dp" and a.engine.ulysses_sp > 1 and not a.models.use_remove_padding:
        yield make_finding(
            "PLACE-006",
            [SP_KEY, "actor_rollout_ref.model.use_remove_padding"],
            msg(
                "place.sp_needs_remove_padding",
                name="ulysses_sequence_parallel_size",
                sp=a.engine.ulysses_sp,
                key="actor_rollout_ref.model.use_remove_padding",
            ),
            [
                Fix({"actor_rollout_ref.model.use_remove_padding": True}, msg("place.fix.remove_padding")),
                Fix({SP_KEY: 1}, msg("place.fix.no_sp")),
            ],
        )
    critic_rp = extra_or_default(a, "critic.model.use_remove_padding", p.engine)
    if p.critic is not None and p.engine == "dp" and a.engine.critic_ulysses_sp > 1 and critic_rp is False:
        yield make_finding(
            "PLACE-006",
            ["critic.ulysses_sequence_parallel_size", "critic.model.use_remove_padding"],
            msg(
                "place.sp_needs_remove_padding",
                name="critic ulysses_sequence_parallel_size",
                sp=a.engine.critic_ulysses_sp,
                key="critic.model.use_remove_padding",
            ),
            [Fix({"critic.model.use_remove_padding": True}, msg("place.fix.critic_remove_padding"))],
        )
    # verl 0.9.1's V1 critic runs with critic.fsdp's Ulysses size; its engine refuses sp > 1 without remove-padding.
    engine_sp = critic_sp_in_verl(ctx) if p.critic is not None and p.engine == "dp" else 1
    if engine_sp > 1 and engine_sp != a.engine.critic_ulysses_sp and critic_rp is False:
        yield make_finding(
            "PLACE-006",
            [CRITIC_ENGINE_SP, "critic.model.use_remove_padding"],
            msg(
                "place.sp_needs_remove_padding",
                name=CRITIC_ENGINE_SP,
                sp=engine_sp,
                key="critic.model.use_remove_padding",
            ),
            [
                Fix({"critic.model.use_remove_padding": True}, msg("place.fix.critic_remove_padding")),
                Fix({CRITIC_ENGINE_SP: 1}, msg("place.fix.no_critic_sp")),
            ],
        )


@rule(
    "PLACE-012",
    Severity.ERROR,
    title="Ulysses sequence parallelism does not divide the GPU count",
    why="The data-parallel size is GPUs / sp; an uneven split leaves no valid device mesh.",
)
def check_sp_divides(ctx: RuleContext) -> Iterator[Finding]:
    a, p = ctx.answers, ctx.plan
    if p.engine != "dp":
        return
    sizes = [
        (SP_KEY, a.engine.ulysses_sp),
        ("critic.ulysses_sequence_parallel_size", a.engine.critic_ulysses_sp if p.critic else 1),
    ]
    if p.critic is not None and critic_sp_in_verl(ctx) not in (1, a.engine.critic_ulysses_sp):
        sizes.append((CRITIC_ENGINE_SP, critic_sp_in_verl(ctx)))  # what verl's V1 critic engine really uses
    for key, sp in sizes:
        if p.n_gpus % sp:
            fixes = [
                Fix({key: v}, msg("fix.set", key="sp", value=v))
                for v in sorted((d for d in divisors(p.n_gpus) if d <= p.gpus_per_node), key=lambda d: abs(d - sp))[:2]
            ]
            yield make_finding("PLACE-012", [key], msg("place.sp_indivisible", gpus=p.n_gpus, sp=sp), fixes)


@rule(
    "PLACE-007",
    Severity.ERROR,
    title="The plan needs more GPUs than the target has",
    why="verl checks the Ray cluster for the sum of all pools and stops with 'Total available GPUs X is less than total desired GPUs Y'.",
)
def check_capacity(ctx: RuleContext) -> Iterator[Finding]:
    topo = ctx.topology
    if topo is None:
        return
    have = getattr(topo, "nodes", 1) * len(topo.gpus)
    need = ctx.plan.total_gpus
    if need > have:
        parts = [msg("place.pool_gpus", pool=_pool_name(pool.name), gpus=pool.gpus) for pool in ctx.plan.pools]
        yield make_finding(
            "PLACE-007",
            ["trainer.nnodes", "trainer.n_gpus_per_node"],
            msg("place.capacity", need=need, parts=parts, have=have),
        )


POOL_NAMES = {
    "trainer": "place.pool.trainer",
    "rollout": "place.pool.rollout",
    "reward model": "place.pool.reward_model",
}


def _pool_name(name: str):
    return msg(POOL_NAMES[name]) if name in POOL_NAMES else name


@rule(
    "PLACE-009",
    Severity.ERROR,
    title="Split pools that verl refuses",
    why="Standalone rollout and reward pools need positive sizes, separate_async needs a non-naive weight sync, and hybrid_engine=false only works with separate_async.",
)
def check_pools(ctx: RuleContext) -> Iterator[Finding]:
    c, m = ctx.answers.cluster, ctx.answers.models
    if c.trainer_mode == "separate_async":
        per_node = c.rollout_n_gpus_per_node if c.rollout_n_gpus_per_node is not None else c.n_gpus_per_node
        if c.rollout_nnodes < 1 or per_node < 1:
            yield make_finding(
                "PLACE-009",
                ["actor_rollout_ref.rollout.nnodes", "actor_rollout_ref.rollout.n_gpus_per_node"],
                msg("place.separate_async_no_pool", nodes=c.rollout_nnodes, gpus=per_node),
                [Fix({"actor_rollout_ref.rollout.nnodes": 1}, msg("place.fix.one_rollout_node"))],
            )
        if c.checkpoint_backend == "naive":
            yield make_finding(
                "PLACE-009",
                ["actor_rollout_ref.rollout.checkpoint_engine.backend"],
                msg("place.separate_async_naive"),
                [
                    Fix(
                        {"actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl"},
                        msg("place.fix.sync_over_nccl"),
                    )
                ],
            )
        if m.reward_model_enable and not c.reward_pool_enable:
            yield make_finding(
                "PLACE-009",
                ["reward.reward_model.enable_resource_pool"],
                msg("place.separate_async_shared_rm"),
                [
                    Fix(
                        {"reward.reward_model.enable_resource_pool": True, "reward.reward_model.nnodes": 1},
                        msg("place.fix.rm_own_pool"),
                    )
                ],
            )
    elif not c.hybrid_engine:
        yield make_finding(
            "PLACE-009",
            ["actor_rollout_ref.hybrid_engine"],
            msg("place.hybrid_engine_off", mode=c.trainer_mode),
            [Fix({"actor_rollout_ref.hybrid_engine": True}, msg("place.fix.colocate"))],
        )
    if (
        m.reward_model_enable
        and c.reward_pool_enable
        and (c.reward_pool_nnodes < 1 or c.reward_pool_n_gpus_per_node < 1)
    ):
        yield make_finding(
            "PLACE-009",
            ["reward.reward_model.nnodes", "reward.reward_model.n_gpus_per_node"],
            msg("place.rm_pool_empty", nodes=c.reward_pool_nnodes, gpus=c.reward_pool_n_gpus_per_node),
            [
                Fix(
                    {
                        "reward.reward_model.nnodes": 1,
                        "reward.reward_model.n_gpus_per_node": max(1, c.reward_pool_n_gpus_per_node),
                    },
                    msg("place.fix.one_node"),
                )
            ],
        )


@rule(
    "PLACE-013",
    Severity.ERROR,
    title="A rollout parallel layout verl refuses",
    why="verl asserts rollout expert parallelism = TP × DP when EP > 1, and rollout pipeline parallelism is not implemented.",
)
def check_rollout_layout(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    ep = extra_or_default(a, "actor_rollout_ref.rollout.expert_parallel_size", ctx.plan.engine) or 1
    dp = extra_or_default(a, "actor_rollout_ref.rollout.data_parallel_size", ctx.plan.engine) or 1
    pp = extra_or_default(a, "actor_rollout_ref.rollout.pipeline_model_parallel_size", ctx.plan.engine) or 1
    tp = a.rollout.tensor_parallel_size
    if a.rollout.name != "trtllm" and isinstance(ep, int) and ep > 1 and ep != tp * dp:
        yield make_finding(
            "PLACE-013",
            ["actor_rollout_ref.rollout.expert_parallel_size"],
            msg("place.expert_parallel", ep=ep, tp=tp, dp=dp),
            [Fix({"actor_rollout_ref.rollout.expert_parallel_size": tp * dp}, msg("fix.set", key="EP", value=tp * dp))],
        )
    if isinstance(pp, int) and pp > 1:
        yield make_finding(
            "PLACE-013",
            ["actor_rollout_ref.rollout.pipeline_model_parallel_size"],
            msg("place.rollout_pipeline", pp=pp),
            [
                Fix(
                    {"actor_rollout_ref.rollout.pipeline_model_parallel_size": None},
                    msg("place.fix.no_rollout_pipeline"),
                )
            ],
        )
