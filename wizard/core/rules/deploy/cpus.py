"""DEPLOY-005 over the node groups: each GPU's bundle of logical CPUs, and the CPUs verl 0.9.1 holds besides
(its TransferQueue storage units and controller, the TaskRunner). The CPUs of the Ray instance verl starts
itself are judged in deploy_node (check_own_ray_cpus, with its own fix)."""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core import verl_schema
from wizard.core.findings import Finding, Fix
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding
from wizard.core.rules.deploy.facts import (
    CPUS_PER_GPU_BUNDLE,
    TASK_RUNNER_CPUS,
    TQ_CONTROLLER_CPUS,
    DeployFacts,
    tq_share,
    tq_storage_units,
)
from wizard.core.rules.deploy.node import check_own_ray_cpus
from wizard.core.targets import spec
from wizard.i18n.text import msg


def check_cpus(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    yield from check_own_ray_cpus(ctx, facts)
    own_num_cpus = (
        facts.origin == "answers" and spec(facts.target).starts_ray and ctx.answers.deploy.ray_init_num_cpus is not None
    )
    if not facts.groups or own_num_cpus:
        return  # the answers' own num_cpus is judged by check_own_ray_cpus (with its fix)
    per_node = ctx.plan.gpus_per_node
    fixes = (
        [
            Fix(
                {"deploy.cpus_per_gpu": CPUS_PER_GPU_BUNDLE + 1},
                msg("deploy.fix.cpus_per_gpu", cpus=CPUS_PER_GPU_BUNDLE + 1),
            )
        ]
        if facts.origin == "answers"
        else []
    )
    paths = ["deploy.cpus_per_gpu"] if facts.origin == "answers" else [facts.source]
    units = tq_storage_units(ctx.answers)
    share = tq_share(ctx.answers, facts.nodes)
    spare, known = 0.0, True
    for g in facts.groups:
        used = min(g.gpus, per_node) if facts.origin == "cluster" else g.gpus
        if g.cpus is None:
            known = False
            continue
        need = CPUS_PER_GPU_BUNDLE * used
        if used and g.cpus < need:
            yield make_finding(
                "DEPLOY-005",
                paths,
                msg(
                    "deploy.cpus_short",
                    where=g.where or g.role,
                    cpus=g.cpus,
                    gpus=used,
                    per_gpu=CPUS_PER_GPU_BUNDLE,
                    need=need,
                ),
                fixes,
            )
            return
        if units and g.cpus - need < share:
            yield make_finding(
                "DEPLOY-005",
                paths,
                msg(
                    "deploy.cpus_tq_node",
                    where=g.where or g.role,
                    cpus=f"{g.cpus:g}",
                    bundles=need,
                    share=share,
                    units=units,
                    nodes=facts.nodes,
                    version=verl_schema.TARGET_VERSION,
                ),
                fixes,
            )
            return
        spare += g.replicas * (g.cpus - need)
    held = units + TQ_CONTROLLER_CPUS if units else 0
    if known and spare < held + TASK_RUNNER_CPUS:
        message = (
            msg(
                "deploy.cpus_tq_total",
                spare=f"{spare:g}",
                per=CPUS_PER_GPU_BUNDLE,
                held=held,
                units=units,
                free=TASK_RUNNER_CPUS,
                version=verl_schema.TARGET_VERSION,
            )
            if units
            else msg("deploy.no_cpu_for_task_runner", per_gpu=CPUS_PER_GPU_BUNDLE, n=TASK_RUNNER_CPUS)
        )
        yield make_finding("DEPLOY-005", paths, message, fixes)
