"""Environment and deployment rules (DEPLOY-001 .. DEPLOY-014), over what a deployment provides.

The facts come from the answers (what the wizard would render; wizard.core.rules.deploy_facts), from a
manifest read back from disk (`check job.sbatch`, `check rayjob.yaml`: ctx.deploy) or from a live Ray
cluster (`preflight`: ctx.deploy), so a hand-edited manifest is judged by the same code as a fresh one.
Fixes set answers; for a manifest they can only change the config it carries (its nodes stay as written).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from wizard.core import verl_schema
from wizard.core.answers import Deploy
from wizard.core.findings import Fix, error, warning
from wizard.core.rules.catalogue import why
from wizard.core.rules.deploy_facts import (
    CLUSTER_TARGETS,
    CPUS_PER_GPU_BUNDLE,
    DNS_1035,
    DNS_LABEL,
    DNS_SUBDOMAIN,
    KUBERAY_TARGETS,
    NAME_LIMITS,
    TASK_RUNNER_CPUS,
    TQ_CONTROLLER_CPUS,
    DeployFacts,
    dns_label,
    facts_from_answers,
    gpu_nodes_needed,
    pairs,
    tq_share,
    tq_storage_units,
)
from wizard.core.rules.deploy_node import OWN_RAY_TARGETS, check_own_ray_cpus, check_pod_paths, visible_count
from wizard.core.rules.deploy_secrets import check_inline_secrets
from wizard.i18n.text import Msg, msg

BAD_VISIBILITY = ("CUDA_VISIBLE_DEVICES", "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES")
IFACE_VARS = ("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME")
AUTH_VARS = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")
NUM_CPUS_KEY = "ray_kwargs.ray_init.num_cpus"
DEFAULT_IMAGE = Deploy.model_fields["image"].default
IMAGE_REF = re.compile(
    r"^(?:[A-Za-z0-9.-]+(?::[0-9]+)?/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*"
    r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$"
)
HOST_PORT = re.compile(r"^\[?[A-Za-z0-9_.:-]+\]?:[0-9]{1,5}$")


def facts_of(ctx) -> DeployFacts:
    """The facts of ctx.deploy when a manifest or cluster was read, else what the answers render."""
    if isinstance(ctx.deploy, DeployFacts):
        return ctx.deploy
    return facts_from_answers(ctx.answers, ctx.plan)


def _env_without(ctx, names) -> list[str]:
    return [f"{k}={v}" for k, v in pairs(ctx.answers.deploy.env).items() if k not in names]


def _env_fix(ctx, facts, names, label, extra=None):
    """A fix that drops `names` from deploy.env; only where the answers are what is rendered."""
    if facts.origin != "answers" or not any(k in names for k in pairs(ctx.answers.deploy.env)):
        return []
    return [Fix({"deploy.env": _env_without(ctx, names), **(extra or {})}, label)]


def _where(facts, default: str) -> list[str]:
    return [default] if facts.origin == "answers" else [f"{facts.source}"]


def _places(wheres) -> list:
    """Each place once, in order (a place is a message or a name; equal ones are the same place)."""
    return list(dict.fromkeys(wheres))


def _multi_node(ctx, facts) -> bool:
    return ctx.plan.nnodes > 1 or gpu_nodes_needed(ctx.plan) > 1 or facts.nodes > 1


def check_visible_devices(ctx, facts):
    seen: dict[str, list] = {}
    for where, name, value in facts.all_env():
        if name in BAD_VISIBILITY:
            seen.setdefault(f"{name}={value}", []).append(where)
    for setting, wheres in seen.items():
        name, _, value = setting.partition("=")
        if name == "CUDA_VISIBLE_DEVICES" and facts.target == "local" and not facts.joins_cluster:
            # verl's own Ray instance takes its GPUs from the mask (a shared machine's way to give each user some):
            # only its count can be wrong.
            count, need = visible_count(value), ctx.plan.gpus_per_node
            if count == need:
                continue
            fixes = [Fix({"trainer.n_gpus_per_node": count}, msg("deploy.visible_fix", count=count))] if count else []
            yield error(
                "DEPLOY-001",
                ["trainer.n_gpus_per_node", *_where(facts, "deploy.env")],
                msg("deploy.visible_count", setting=setting, count=count, need=need),
                why("DEPLOY-001"),
                fixes + _env_fix(ctx, facts, (name,), msg("fix.remove", key=name)),
            )
            continue
        yield error(
            "DEPLOY-001",
            _where(facts, "deploy.env"),
            msg("deploy.visible_devices", setting=setting, places=_places(wheres)),
            why("DEPLOY-001"),
            _env_fix(ctx, facts, (name,), msg("fix.remove", key=name)),
        )


def _address_problem(use: str, value: str) -> Msg | None:
    scheme = urlsplit(value).scheme if "://" in value else ""
    if use == "jobs-api":
        if scheme not in ("http", "https"):
            return msg("deploy.address.not_jobs_api", value=value)
        return None
    if scheme in ("http", "https"):
        return msg("deploy.address.jobs_api_for_init", value=value)
    if scheme == "ray":
        return msg("deploy.address.ray_client", value=value)
    if use == "ray-init" and value in ("auto", "local"):
        return None
    if not HOST_PORT.match(value):
        return msg("deploy.address.not_host_port", value=value)
    return None


def check_addresses(ctx, facts):
    for use, value, where in facts.addresses:
        problem = _address_problem(use, value)
        if problem is None:
            continue
        fixes = []
        if facts.origin == "answers" and where == "deploy.ray_address":
            host = urlsplit(value).hostname if "://" in value else value.rsplit(":", 1)[0] or None
            fixes = [Fix({"deploy.ray_address": f"http://{host or '127.0.0.1'}:8265"}, msg("deploy.fix.jobs_api_port"))]
        elif facts.origin == "answers" and where == "deploy.env":
            fixes = _env_fix(ctx, facts, ("RAY_ADDRESS",), msg("deploy.fix.remove_ray_address"))
        yield error(
            "DEPLOY-002",
            [where] if facts.origin == "answers" else [f"{facts.source}: {where}"],
            problem,
            why("DEPLOY-002"),
            fixes,
        )


def check_dedup_logs(ctx, facts):
    if not _multi_node(ctx, facts):
        return
    wheres = [w for w, name, value in facts.all_env() if name == "RAY_DEDUP_LOGS" and value.strip() == "0"]
    if wheres:
        yield warning(
            "DEPLOY-003",
            _where(facts, "deploy.env"),
            msg("deploy.dedup_logs", nodes=facts.nodes or ctx.plan.nnodes, places=_places(wheres)),
            why("DEPLOY-003"),
            _env_fix(ctx, facts, ("RAY_DEDUP_LOGS",), msg("deploy.fix.keep_dedup")),
        )


def check_node_shape(ctx, facts):
    p = ctx.plan
    need = gpu_nodes_needed(p)
    paths = ["trainer.nnodes", "trainer.n_gpus_per_node"]
    for problem in facts.problems:
        yield error("DEPLOY-004", [facts.source], msg("deploy.reader_problem", problem=problem), why("DEPLOY-004"))
    if facts.target == "k8s-job" and need > 1:
        yield error(
            "DEPLOY-004",
            paths + ["deploy.target"],
            msg("deploy.k8s_job_nodes", nodes=need, gpus=p.gpus_per_node),
            why("DEPLOY-004"),
            [Fix({"deploy.target": "kuberay-job"}, msg("deploy.fix.kuberay_job"))],
        )
        return
    if not facts.groups:
        return
    if facts.origin == "cluster":
        big = sum(g.replicas for g in facts.groups if g.gpus >= p.gpus_per_node)
        if big < need:
            shape = ", ".join(f"{g.gpus:g}" for g in facts.groups)
            yield error(
                "DEPLOY-004",
                paths,
                msg("deploy.cluster_nodes_short", groups=need, gpus=p.gpus_per_node, big=big, shape=shape),
                why("DEPLOY-004"),
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
        yield error(
            "DEPLOY-004",
            paths,
            msg(
                "deploy.gpus_per_node_differ", source=facts.source, where=g.where, gpus=g.gpus, per_node=p.gpus_per_node
            ),
            why("DEPLOY-004"),
            fixes,
        )
    if facts.gpu_nodes != need:
        yield error(
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
            why("DEPLOY-004"),
            fixes,
        )


def check_cpus(ctx, facts):
    yield from check_own_ray_cpus(ctx, facts)
    own_num_cpus = (
        facts.origin == "answers"
        and facts.target in OWN_RAY_TARGETS
        and ctx.answers.deploy.ray_init_num_cpus is not None
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
            yield error(
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
                why("DEPLOY-005"),
                fixes,
            )
            return
        if units and g.cpus - need < share:
            yield error(
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
                why("DEPLOY-005"),
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
        yield error("DEPLOY-005", paths, message, why("DEPLOY-005"), fixes)


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


def check_names(ctx, facts):
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
        yield error("DEPLOY-007", [path], message, why("DEPLOY-007"), fixes)


def check_num_cpus(ctx, facts):
    value = ctx.answers.deploy.ray_init_num_cpus
    if value is not None and facts.joins_cluster:
        yield error(
            "DEPLOY-008",
            [NUM_CPUS_KEY],
            msg("deploy.num_cpus_joining", key=NUM_CPUS_KEY, value=value, target=facts.target),
            why("DEPLOY-008"),
            [Fix({NUM_CPUS_KEY: None}, msg("deploy.fix.num_cpus"))],
        )


def check_interfaces(ctx, facts):
    if facts.origin == "cluster" or facts.target not in CLUSTER_TARGETS or not _multi_node(ctx, facts):
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
    yield warning(
        "DEPLOY-009",
        ["deploy.nccl_socket_ifname", "deploy.gloo_socket_ifname"] if facts.origin == "answers" else [facts.source],
        msg("deploy.no_interfaces", nodes=facts.gpu_nodes or ctx.plan.nnodes),
        why("DEPLOY-009"),
        fixes,
    )


def check_entrypoint(ctx, facts):
    if facts.entrypoint and re.search(r"(;|&&|\|)", facts.entrypoint):
        yield error(
            "DEPLOY-010",
            [f"{facts.source}: spec.entrypoint"],
            msg("deploy.entrypoint_chains", entrypoint=facts.entrypoint),
            why("DEPLOY-010"),
        )


def check_shm(ctx, facts):
    for where in facts.shm_missing:
        fixes = [Fix({"deploy.shm_gib": 64}, msg("deploy.fix.shm"))] if facts.origin == "answers" else []
        yield warning(
            "DEPLOY-011",
            ["deploy.shm_gib"] if facts.origin == "answers" else [facts.source],
            msg("deploy.no_shm", where=where),
            why("DEPLOY-011"),
            fixes,
        )


def _auth_parties(facts):
    parties = [(g.where or g.role, g.auth_mode, g.token_source) for g in facts.groups]
    if facts.groups or facts.target == "ray-job":
        parties.append((facts.driver_where, facts.driver_auth_mode, facts.driver_token_source))
    return parties


def check_auth(ctx, facts):
    d = ctx.answers.deploy
    set_in_env = [k for k in pairs(d.env) if k in AUTH_VARS] if facts.origin == "answers" else []
    if set_in_env:
        yield error(
            "DEPLOY-012",
            ["deploy.env", "deploy.auth_mode"],
            msg("deploy.auth_in_env", names=set_in_env, mode=d.auth_mode),
            why("DEPLOY-012"),
            _env_fix(ctx, facts, AUTH_VARS, msg("deploy.fix.auth_mode")),
        )
        return
    if facts.origin == "answers" and facts.target in KUBERAY_TARGETS and d.auth_mode == "token":
        major, minor = (int(x) for x in d.ray_version.split(".")[:2])
        if (major, minor) < (2, 52):
            yield error(
                "DEPLOY-012",
                ["deploy.ray_version", "deploy.auth_mode"],
                msg("deploy.auth_old_ray", version=d.ray_version),
                why("DEPLOY-012"),
                [Fix({"deploy.auth_mode": "disabled"}, msg("deploy.fix.no_auth"))],
            )
    if facts.origin == "cluster" or facts.target in ("local", "k8s-job"):
        return  # a live cluster's auth is tried by connecting; with local/k8s-job verl starts Ray itself: one process tree
    parties = _auth_parties(facts)
    if len(parties) < 2:
        return
    modes = {mode or "unset" for _, mode, _ in parties}
    if modes == {"unset"} and facts.target == "slurm" and _multi_node(ctx, facts):
        yield error(
            "DEPLOY-012",
            _where(facts, "deploy.auth_mode"),
            msg("deploy.auth_nowhere"),
            why("DEPLOY-012"),
        )
        return
    if len(modes) > 1:
        shown = [msg("deploy.party", where=where, value=mode or msg("deploy.mode_unset")) for where, mode, _ in parties]
        yield error(
            "DEPLOY-012",
            _where(facts, "deploy.auth_mode"),
            msg("deploy.auth_modes_differ", modes=shown),
            why("DEPLOY-012"),
        )
        return
    if modes == {"token"}:
        missing = [where for where, _, source in parties if not source]
        sources = {source for _, _, source in parties if source}
        if missing or len(sources) > 1:
            message = (
                msg("deploy.token_missing", places=missing)
                if missing
                else msg(
                    "deploy.token_sources_differ",
                    sources=[msg("deploy.party", where=w, value=s) for w, _, s in parties],
                )
            )
            yield error(
                "DEPLOY-012",
                _where(facts, "deploy.auth_mode"),
                message,
                why("DEPLOY-012"),
            )


def check_images(ctx, facts):
    for image in facts.images:
        if not IMAGE_REF.match(image):
            fixes = (
                [Fix({"deploy.image": DEFAULT_IMAGE}, msg("deploy.fix.default_image", image=DEFAULT_IMAGE))]
                if facts.origin == "answers"
                else []
            )
            shown = image if len(image) < 80 else image[:77] + "..."
            yield warning(
                "DEPLOY-014",
                ["deploy.image"] if facts.origin == "answers" else [facts.source],
                msg("deploy.bad_image", image=shown),
                why("DEPLOY-014"),
                fixes,
            )


CHECKS = (
    check_visible_devices,
    check_addresses,
    check_dedup_logs,
    check_node_shape,
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


def check_deployment(ctx):
    """Every DEPLOY check over one set of facts (computed once per evaluation)."""
    facts = facts_of(ctx)
    for check in CHECKS:
        yield from check(ctx, facts)


FAMILIES = ("DEPLOY",)  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [check_deployment]
