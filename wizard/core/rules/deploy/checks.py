"""Environment and deployment rules (DEPLOY-001 .. DEPLOY-017), over what a deployment provides.

This module runs every DEPLOY check over one set of facts; the CPUs per node (deploy_cpus), Ray's token
authentication (deploy_auth), secrets (deploy_secrets) and what one machine or pod offers (deploy_node) are
checked in modules of their own.

The facts come from the answers (what the wizard would render; wizard.core.rules.deploy.facts), from a
manifest read back from disk (`check job.sbatch`, `check rayjob.yaml`: ctx.deploy) or from a live Ray
cluster (`preflight`: ctx.deploy), so a hand-edited manifest is judged by the same code as a fresh one.
Fixes set answers; for a manifest they can only change the config it carries (its nodes stay as written).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wizard.core.answers.model import Deploy
from wizard.core.choices import Target
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import declare, emits, make_finding, rule_for
from wizard.core.rules.deploy.addresses import address_problem, host_of
from wizard.core.rules.deploy.auth import check_auth
from wizard.core.rules.deploy.common import env_fix, finding_paths, multi_node, places
from wizard.core.rules.deploy.cpus import check_cpus
from wizard.core.rules.deploy.facts import (
    DNS_1035,
    DNS_LABEL,
    DNS_SUBDOMAIN,
    NAME_LIMITS,
    DeployFacts,
    dns_label,
    facts_from_answers,
    gpu_nodes_needed,
)
from wizard.core.rules.deploy.node import NUM_CPUS_KEY, check_pod_paths, visible_count
from wizard.core.rules.deploy.secrets import check_inline_secrets
from wizard.core.rules.deploy.start import check_nodes_started
from wizard.core.secrets import credential_in
from wizard.core.targets import spec
from wizard.i18n.text import Msg, msg

declare(
    "DEPLOY-013",
    Severity.ERROR,
    title="The Ray cluster does not answer at the address",
    why="Nothing listens there, or it is not a Ray GCS: ray.init on such an address blocks for a long time and then fails.",
)

BAD_VISIBILITY = ("CUDA_VISIBLE_DEVICES", "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES")
IFACE_VARS = ("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME")
DEFAULT_IMAGE = Deploy.model_fields["image"].default
IMAGE_REF = re.compile(
    r"^(?:[A-Za-z0-9.-]+(?::[0-9]+)?/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$"
)


def facts_of(ctx) -> DeployFacts:
    """The facts of ctx.deploy when a manifest or cluster was read, else what the answers render."""
    if isinstance(ctx.deploy, DeployFacts):
        return ctx.deploy
    return facts_from_answers(ctx.answers, ctx.plan)


@emits(
    "DEPLOY-001",
    Severity.ERROR,
    title="CUDA_VISIBLE_DEVICES (or RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES) set by hand",
    why="Ray fixes a node's GPUs at ray start and sets CUDA_VISIBLE_DEVICES per worker itself; a hand-set mask in a runtime env, a manifest or on a cluster's nodes changes nothing Ray schedules (verl then stops with 'Total available GPUs X is less than total desired GPUs Y'), and NOSET puts every worker on the same devices. Where verl starts its own Ray on one machine, that Ray takes its GPUs from the mask: there only its count has to be trainer.n_gpus_per_node.",
)
def check_visible_devices(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    seen: dict[str, list] = {}
    for where, name, value in facts.all_env():
        if name in BAD_VISIBILITY:
            seen.setdefault(f"{name}={value}", []).append(where)
    for setting, wheres in seen.items():
        name, _, value = setting.partition("=")
        if name == "CUDA_VISIBLE_DEVICES" and spec(facts.target).runs_here and not facts.joins_cluster:
            # verl's own Ray instance takes its GPUs from the mask (a shared machine's way to give each user some):
            # only its count can be wrong.
            count, need = visible_count(value), ctx.plan.gpus_per_node
            if count == need:
                continue
            fixes = [Fix({"trainer.n_gpus_per_node": count}, msg("deploy.visible_fix", count=count))] if count else []
            yield make_finding(
                "DEPLOY-001",
                ["trainer.n_gpus_per_node", *finding_paths(facts, "deploy.env")],
                msg("deploy.visible_count", setting=setting, count=count, need=need),
                fixes + env_fix(ctx, facts, (name,), msg("fix.remove", key=name)),
            )
            continue
        yield make_finding(
            "DEPLOY-001",
            finding_paths(facts, "deploy.env"),
            msg("deploy.visible_devices", setting=setting, places=places(wheres)),
            env_fix(ctx, facts, (name,), msg("fix.remove", key=name)),
        )


@emits(
    "DEPLOY-002",
    Severity.ERROR,
    title="A Ray address of the wrong form for its use",
    why="http://HEAD:8265 is the Jobs API (ray job submit only); ray.init and ray start need the GCS address HEAD:6379 (or auto), and ray.init fails on an http:// RAY_ADDRESS; ray:// is Ray Client, not a driver on the cluster.",
)
def check_addresses(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    for use, value, where in facts.addresses:
        problem = address_problem(use, value)
        if problem is None:
            continue
        fixes = []
        host = host_of(value)
        if facts.origin == "answers" and where == "deploy.ray_address" and host is not None:
            fixes = [Fix({"deploy.ray_address": f"http://{host or '127.0.0.1'}:8265"}, msg("deploy.fix.jobs_api_port"))]
        elif facts.origin == "answers" and where == "deploy.env":
            fixes = env_fix(ctx, facts, ("RAY_ADDRESS",), msg("deploy.fix.remove_ray_address"))
        yield make_finding(
            "DEPLOY-002", [where] if facts.origin == "answers" else [f"{facts.source}: {where}"], problem, fixes
        )


@emits(
    "DEPLOY-003",
    Severity.WARNING,
    title="RAY_DEDUP_LOGS=0 on a multi-node target",
    why="With deduplication off every rank's identical lines reach the driver: a log storm that hides the one line that matters.",
)
def check_dedup_logs(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    if not multi_node(ctx, facts):
        return
    wheres = [w for w, name, value in facts.all_env() if name == "RAY_DEDUP_LOGS" and value.strip() == "0"]
    if wheres:
        yield make_finding(
            "DEPLOY-003",
            finding_paths(facts, "deploy.env"),
            msg("deploy.dedup_logs", nodes=facts.nodes or ctx.plan.nnodes, places=places(wheres)),
            env_fix(ctx, facts, ("RAY_DEDUP_LOGS",), msg("deploy.fix.keep_dedup")),
        )


@emits(
    "DEPLOY-004",
    Severity.ERROR,
    title="Manifest GPUs or nodes differ from the config",
    why="verl asks Ray for trainer.nnodes placement groups of trainer.n_gpus_per_node GPUs, each on one node; a manifest with other counts leaves GPUs idle or waits forever for GPUs that never come.",
)
def check_node_shape(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    p = ctx.plan
    need = gpu_nodes_needed(p)
    paths = ["trainer.nnodes", "trainer.n_gpus_per_node"]
    for problem in facts.problems:
        yield make_finding("DEPLOY-004", [facts.source], msg("deploy.reader_problem", problem=problem))
    if spec(facts.target).single_node and need > 1:
        yield make_finding(
            "DEPLOY-004",
            paths + ["deploy.target"],
            msg("deploy.k8s_job_nodes", nodes=need, gpus=p.gpus_per_node),
            [Fix({"deploy.target": Target.KUBERAY_JOB.value}, msg("deploy.fix.kuberay_job"))],
        )
        return
    if not facts.groups:
        return
    if facts.origin == "cluster":
        big = sum(g.replicas for g in facts.groups if g.gpus >= p.gpus_per_node)
        if big < need:
            shape = ", ".join(f"{g.gpus:g}" for g in facts.groups)
            yield make_finding(
                "DEPLOY-004",
                paths,
                msg("deploy.cluster_nodes_short", groups=need, gpus=p.gpus_per_node, big=big, shape=shape),
            )
        return
    gpu_groups = [g for g in facts.groups if g.gpus > 0]
    wrong = [g for g in gpu_groups if g.gpus != p.gpus_per_node]
    shapes = {g.gpus for g in gpu_groups}
    fixes = []
    if len(shapes) == 1 and facts.origin == "manifest":
        fixes = [
            Fix(
                {"trainer.n_gpus_per_node": shapes.pop(), "trainer.nnodes": facts.gpu_nodes},
                msg("deploy.fix.match_manifest"),
            )
        ]
    for g in wrong:
        yield make_finding(
            "DEPLOY-004",
            paths,
            msg(
                "deploy.gpus_per_node_differ", source=facts.source, where=g.where, gpus=g.gpus, per_node=p.gpus_per_node
            ),
            fixes,
        )
    if facts.gpu_nodes != need:
        yield make_finding(
            "DEPLOY-004",
            paths,
            msg(
                "deploy.gpu_nodes_differ",
                source=facts.source,
                have=facts.gpu_nodes,
                need=need,
                nnodes=p.nnodes,
                gpus=p.gpus_per_node,
                split=msg("deploy.split_pools", total=p.total_gpus) if len(p.pools) > 1 else "",
            ),
            fixes,
        )


def _name_problem(kind: str, name: str) -> Msg | None:
    if kind in NAME_LIMITS:
        if not DNS_1035.match(name) or len(name) > NAME_LIMITS[kind]:
            return msg("deploy.name.dns_1035", kind=kind, limit=NAME_LIMITS[kind])
    elif kind in ("ConfigMap", "Secret"):
        if not DNS_SUBDOMAIN.match(name) or len(name) > 253:
            return msg("deploy.name.subdomain", kind=kind)
    elif not DNS_LABEL.match(name) or len(name) > 63:
        return msg("deploy.name.label", kind=kind)
    return None


@emits(
    "DEPLOY-007",
    Severity.ERROR,
    title="An invalid Kubernetes name",
    why="The API server refuses names that are not DNS labels; KubeRay also refuses RayJob names over 47 characters and RayCluster names over 53 (it derives pod and service names from them).",
)
def check_names(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    d = ctx.answers.deploy
    field = {"Namespace": "deploy.namespace", "Secret": "deploy.k8s_secret"}
    for kind, name in facts.names:
        problem = _name_problem(kind, name)
        if problem is None:
            continue
        fixes = []
        if facts.origin == "answers":
            if kind in ("RayJob", "RayCluster", "Job") and d.name:
                fixes = [Fix({"deploy.name": dns_label(name, NAME_LIMITS.get(kind, 63))}, msg("deploy.fix.dns_label"))]
            elif kind == "Namespace":
                fixes = [Fix({"deploy.namespace": dns_label(name)}, msg("deploy.fix.dns_label"))]
            elif kind == "Secret" and name == d.k8s_secret:
                fixes = [Fix({"deploy.k8s_secret": dns_label(name)}, msg("deploy.fix.dns_label"))]
        path = field.get(kind, "deploy.name") if facts.origin == "answers" else f"{facts.source}: {kind}"
        message = msg("deploy.bad_name", kind=kind, name=name, problem=problem)
        yield make_finding("DEPLOY-007", [path], message, fixes)


@emits(
    "DEPLOY-008",
    Severity.ERROR,
    title="ray_kwargs.ray_init.num_cpus set while joining a cluster",
    why="ray.init raises 'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'; the setting only applies when verl starts its own Ray instance.",
)
def check_num_cpus(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    value = ctx.answers.deploy.ray_init_num_cpus
    if value is not None and facts.joins_cluster:
        yield make_finding(
            "DEPLOY-008",
            [NUM_CPUS_KEY],
            msg("deploy.num_cpus_joining", key=NUM_CPUS_KEY, value=value, target=facts.target),
            [Fix({NUM_CPUS_KEY: None}, msg("deploy.fix.num_cpus"))],
        )


@emits(
    "DEPLOY-009",
    Severity.WARNING,
    title="Multi-node without NCCL/GLOO interface settings",
    why="On hosts with several network interfaces NCCL and Gloo may bind one the other nodes cannot reach: the first collective hangs until the watchdog timeout (30 minutes).",
)
def check_interfaces(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    if facts.origin == "cluster" or not spec(facts.target).joins_cluster or not multi_node(ctx, facts):
        return
    if any(name in IFACE_VARS for _, name, _ in facts.all_env()):
        return
    fixes = []
    if facts.origin == "answers":
        fixes = [
            Fix(
                {"deploy.nccl_socket_ifname": "eth0", "deploy.gloo_socket_ifname": "eth0"},
                msg("deploy.fix.eth0"),
            )
        ]
    yield make_finding(
        "DEPLOY-009",
        ["deploy.nccl_socket_ifname", "deploy.gloo_socket_ifname"] if facts.origin == "answers" else [facts.source],
        msg("deploy.no_interfaces", nodes=facts.gpu_nodes or ctx.plan.nnodes),
        fixes,
    )


@emits(
    "DEPLOY-010",
    Severity.ERROR,
    title="A RayJob entrypoint that chains commands",
    why="KubeRay splices the entrypoint unquoted into `ray job submit ... -- <entrypoint>` in the submitter pod, so the part after ;, && or | runs there, not on the cluster.",
)
def check_entrypoint(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    if facts.entrypoint and re.search(r"(;|&&|\|)", facts.entrypoint):
        yield make_finding(
            "DEPLOY-010",
            [f"{facts.source}: spec.entrypoint"],
            msg("deploy.entrypoint_chains", entrypoint=facts.entrypoint),
        )


@emits(
    "DEPLOY-011",
    Severity.WARNING,
    title="No shared memory volume (/dev/shm)",
    why="A plain Pod or Job gets 64 MiB of /dev/shm; NCCL and data loaders need more and fail with 'No space left on device' (KubeRay adds the volume itself).",
)
def check_shm(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    for where in facts.shm_missing:
        fixes = [Fix({"deploy.shm_gib": 64}, msg("deploy.fix.shm"))] if facts.origin == "answers" else []
        yield make_finding(
            "DEPLOY-011",
            ["deploy.shm_gib"] if facts.origin == "answers" else [facts.source],
            msg("deploy.no_shm", where=where),
            fixes,
        )


@emits(
    "DEPLOY-014",
    Severity.WARNING,
    title="An image reference Kubernetes cannot pull",
    why="An image name with spaces, quotes or upper-case repository letters is refused by the kubelet (InvalidImageName) and the pods never start.",
)
def check_images(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    for image in facts.images:
        # An image with user:password@ is DEPLOY-006's error, not a malformed reference to warn about.
        if not IMAGE_REF.match(image) and credential_in(image) is None:
            fixes = (
                [Fix({"deploy.image": DEFAULT_IMAGE}, msg("deploy.fix.default_image", image=DEFAULT_IMAGE))]
                if facts.origin == "answers"
                else []
            )
            shown = image if len(image) < 80 else image[:77] + "..."
            yield make_finding(
                "DEPLOY-014",
                ["deploy.image"] if facts.origin == "answers" else [facts.source],
                msg("deploy.bad_image", image=shown),
                fixes,
            )


CHECKS = (
    check_visible_devices,
    check_addresses,
    check_dedup_logs,
    check_node_shape,
    check_nodes_started,
    check_cpus,
    check_inline_secrets,
    check_names,
    check_num_cpus,
    check_interfaces,
    check_entrypoint,
    check_shm,
    check_pod_paths,
    check_auth,
    check_images,
)


# The ids CHECKS make (declared beside each check), which this rule emits.
CHECKED_IDS = (
    "DEPLOY-001",
    "DEPLOY-002",
    "DEPLOY-003",
    "DEPLOY-004",
    "DEPLOY-005",
    "DEPLOY-006",
    "DEPLOY-007",
    "DEPLOY-008",
    "DEPLOY-009",
    "DEPLOY-010",
    "DEPLOY-011",
    "DEPLOY-012",
    "DEPLOY-014",
    "DEPLOY-015",
    "DEPLOY-017",
)


@rule_for(*CHECKED_IDS)
def check_deployment(ctx: RuleContext) -> Iterator[Finding]:
    """Every DEPLOY check over one set of facts (computed once per evaluation)."""
    facts = facts_of(ctx)
    for check in CHECKS:
        yield from check(ctx, facts)
