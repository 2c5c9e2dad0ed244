"""Rules that need the machine (PLACE-003, PLACE-010, PLACE-011): they run only when a topology is known.

The topology is detected (NVML), pasted (`nvidia-smi topo -m`) or named (`2x8xH100`); see wizard.detect.
"""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule
from wizard.core.topology import WEAK_SYMBOLS, group_quality, has_rdma_nic, naive_tp_groups, nearest_nic
from wizard.core.tp_planner import better_groups_exist
from wizard.i18n.text import msg

TP_KEY = "actor_rollout_ref.rollout.tensor_model_parallel_size"
MEG_TP_KEY = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size"


def _groups_text(groups: list[list[int]], limit: int = 4) -> str:
    shown = " ".join("[" + ",".join(map(str, g)) + "]" for g in groups[:limit])
    return shown + (" ..." if len(groups) > limit else "")


def _clean_sizes(topo, per_node: int, current: int) -> list[int]:
    """TP sizes whose consecutive groups cross no weak link, nearest to the current size first."""
    sizes = [t for t in range(1, per_node + 1) if per_node % t == 0 and t != current]
    clean = []
    for t in sizes:
        try:
            qualities = [group_quality(topo, g) for g in naive_tp_groups(topo, t)[: max(1, per_node // t)]]
        except ValueError:
            continue
        if not any(q in WEAK_SYMBOLS for q in qualities):
            clean.append(t)
    return sorted(clean, key=lambda t: (abs(t - current), -t))[:2]


@rule(
    "PLACE-003",
    Severity.WARNING,
    title="A tensor-parallel group crosses a weak link",
    why="TP traffic over NODE/SYS paths is several times slower than over NVLink or one PCIe switch.",
)
def hint_weak_tp_links(ctx: RuleContext) -> Iterator[Finding]:
    topo, p, a = ctx.topology, ctx.plan, ctx.answers
    if topo is None:
        return
    per_node = len(topo.gpus)
    checks = [(TP_KEY, "rollout", p.rollout_tp)]
    if p.engine == "megatron":
        checks.append((MEG_TP_KEY, "Megatron", a.engine.megatron_tp))
    for key, role, tp in checks:
        if tp < 2 or tp > per_node or per_node % tp:
            continue
        better = better_groups_exist(topo, tp)
        if not better:
            continue
        naive = naive_tp_groups(topo, tp)[: per_node // tp]
        weak = [g for g in naive if group_quality(topo, g) in WEAK_SYMBOLS]
        fixes = [Fix({key: t}, msg("place.fix.clean_tp", role=role, tp=t)) for t in _clean_sizes(topo, per_node, tp)]
        yield make_finding(
            "PLACE-003",
            [key],
            msg(
                "place.weak_tp_links",
                role=role,
                tp=tp,
                weak=_groups_text(weak),
                link=group_quality(topo, weak[0]),
                better=_groups_text(better[: per_node // tp]),
            ),
            fixes,
        )


def _topology_name(topo):
    """How a message names where the topology came from."""
    if topo.source == "nvml":
        return msg("place.where.this_machine")
    if topo.source == "file":
        return msg("place.where.pasted")
    if topo.source == "fake":
        return msg("place.where.named", label=topo.label) if topo.label else msg("place.where.named_unlabelled")
    return msg("place.where.topology")


@rule(
    "PLACE-010",
    Severity.WARNING,
    title="n_gpus_per_node differs from the detected GPUs",
    why="Planning for another GPU count than the machine has leaves GPUs idle or asks for GPUs that are not there.",
)
def hint_gpu_count_differs(ctx: RuleContext) -> Iterator[Finding]:
    topo, c = ctx.topology, ctx.answers.cluster
    if topo is None:
        return
    have = len(topo.gpus)
    if c.n_gpus_per_node != have:
        yield make_finding(
            "PLACE-010",
            ["trainer.n_gpus_per_node"],
            msg("place.gpu_count_differs", configured=c.n_gpus_per_node, where=_topology_name(topo), have=have),
            [Fix({"trainer.n_gpus_per_node": have}, msg("place.fix.all_gpus", gpus=have))],
        )


@rule(
    "PLACE-011",
    Severity.WARNING,
    title="Multi-node plan without an RDMA NIC near the GPUs",
    why="Data-parallel gradients between nodes then travel over plain TCP and the step time is dominated by communication.",
)
def hint_no_rdma(ctx: RuleContext) -> Iterator[Finding]:
    topo, p = ctx.topology, ctx.plan
    if topo is None or p.nnodes < 2:
        return
    rdma = has_rdma_nic(topo)
    if rdma is None:
        return
    if not rdma:
        yield make_finding("PLACE-011", ["trainer.nnodes"], msg("place.no_rdma", nodes=p.nnodes))
        return
    near = [nearest_nic(topo, g) for g in range(len(topo.gpus))]
    if all(n is not None and n[1] in WEAK_SYMBOLS for n in near):
        names = sorted({n.name for n in topo.nics})
        yield make_finding("PLACE-011", ["trainer.nnodes"], msg("place.far_nics", nodes=p.nnodes, names=names))
