"""DEPLOY-017: a plan of more nodes than run.sh alone starts.

With target local, run.sh starts verl on this machine and verl's ray.init starts a Ray instance of this one node
(RAY_ADDRESS unset): verl then asks it for trainer.nnodes x n_gpus_per_node GPUs and stops. A warning, not an
error: RUN.md's steps for such a run (wizard.emit.runbook) start a Ray cluster of the nodes by hand and launch
run.sh on its head with RAY_ADDRESS set, which works; the finding says so, and offers the targets that start or
join the nodes themselves. k8s-job's one Pod is DEPLOY-004's. Part of the deployment family
(wizard.core.rules.deploy.checks runs it with the others, over the same facts).
"""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.choices import Target
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import emits, make_finding
from wizard.core.rules.deploy.facts import DeployFacts, gpu_nodes_needed
from wizard.core.targets import fill, spec
from wizard.i18n.text import msg

# The targets that start or join a cluster of several nodes, in the order the fixes are offered.
MULTI_NODE_TARGETS = (Target.RAY_JOB, Target.SLURM, Target.KUBERAY_JOB)  # each spec's multi_node_fix labels it


@emits(
    "DEPLOY-017",
    Severity.WARNING,
    title="More nodes than run.sh alone starts",
    why="With target local, run.sh starts verl on this machine; without RAY_ADDRESS verl starts its own Ray there, of one node, asks it for trainer.nnodes x n_gpus_per_node GPUs and stops at start-up with 'Total available GPUs X is less than total desired GPUs Y'. The nodes must first form a Ray cluster (ray start on each, as RUN.md says) with run.sh started on its head, or a target must start them: Slurm and KubeRay start a cluster of that many nodes; ray-job submits to one that is running.",
)
def check_nodes_started(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    """Target local with a plan of several nodes and no RAY_ADDRESS in deploy.env: run.sh alone gives verl a Ray
    of one node (RUN.md starts a cluster first)."""
    if facts.origin != "answers" or spec(facts.target).by_hand is None or not ctx.target_known:
        return
    if "RAY_ADDRESS" in facts.driver_env:
        return  # deploy.env joins a running cluster: run.sh exports it and verl's ray.init connects there
    p = ctx.plan
    need = gpu_nodes_needed(p)
    if need <= 1:
        return
    yield make_finding(
        "DEPLOY-017",
        ["deploy.target", "trainer.nnodes", "trainer.n_gpus_per_node"],
        msg("deploy.local_nodes", nnodes=p.nnodes, nodes=need, gpus=p.gpus_per_node, total=p.total_gpus),
        [
            Fix({"deploy.target": t.value}, fill(label, nodes=need))
            for t in MULTI_NODE_TARGETS
            if (label := spec(t).multi_node_fix) is not None
        ],
    )
