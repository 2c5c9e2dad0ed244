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
    SECRET_NAME,
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
from wizard.i18n.text import msg

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


def _multi_node(ctx, facts) -> bool:
    return ctx.plan.nnodes > 1 or gpu_nodes_needed(ctx.plan) > 1 or facts.nodes > 1


def check_visible_devices(ctx, facts):
    seen: dict[str, list[str]] = {}
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
                fixes + _env_fix(ctx, facts, (name,), f"remove {name}"),
            )
            continue
        yield error(
            "DEPLOY-001",
            _where(facts, "deploy.env"),
            f"{setting} is set for {', '.join(dict.fromkeys(wheres))}; size the run with trainer.n_gpus_per_node and the "
            f"GPU request, and let Ray assign devices",
            why("DEPLOY-001"),
            _env_fix(ctx, facts, (name,), f"remove {name}"),
        )


def _address_problem(use: str, value: str) -> str | None:
    scheme = urlsplit(value).scheme if "://" in value else ""
    if use == "jobs-api":
        if scheme not in ("http", "https"):
            return f"{value} is not a Jobs API address; ray job submit needs http://HEAD:8265 (the dashboard port)"
        return None
    if scheme in ("http", "https"):
        return f"{value} is the Jobs API (dashboard) address; ray.init and ray start need the GCS address HEAD:6379 (ray.init fails on http://)"
    if scheme == "ray":
        return f"{value} is a Ray Client address; verl's driver must run on a cluster node and use the GCS address HEAD:6379"
    if use == "ray-init" and value in ("auto", "local"):
        return None
    if not HOST_PORT.match(value):
        return f"{value} is not HOST:PORT (the GCS address, e.g. 10.0.0.1:6379)"
    return None


def check_addresses(ctx, facts):
    for use, value, where in facts.addresses:
        problem = _address_problem(use, value)
        if problem is None:
            continue
        fixes = []
        if facts.origin == "answers" and where == "deploy.ray_address":
            host = urlsplit(value).hostname if "://" in value else value.rsplit(":", 1)[0] or None
            fixes = [
                Fix(
                    {"deploy.ray_address": f"http://{host or '127.0.0.1'}:8265"}, "the Jobs API on the head's port 8265"
                )
            ]
        elif facts.origin == "answers" and where == "deploy.env":
            fixes = _env_fix(ctx, facts, ("RAY_ADDRESS",), "remove RAY_ADDRESS (each target sets the address itself)")
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
            f"RAY_DEDUP_LOGS=0 on {facts.nodes or ctx.plan.nnodes} nodes ({', '.join(dict.fromkeys(wheres))}): every rank's "
            f"log lines reach the driver",
            why("DEPLOY-003"),
            _env_fix(ctx, facts, ("RAY_DEDUP_LOGS",), "keep Ray's log deduplication"),
        )


def check_node_shape(ctx, facts):
    p = ctx.plan
    need = gpu_nodes_needed(p)
    paths = ["trainer.nnodes", "trainer.n_gpus_per_node"]
    for problem in facts.problems:
        yield error("DEPLOY-004", [facts.source], problem, why("DEPLOY-004"))
    if facts.target == "k8s-job" and need > 1:
        yield error(
            "DEPLOY-004",
            paths + ["deploy.target"],
            f"k8s-job runs one Pod on one node but the plan needs {need} nodes x {p.gpus_per_node} GPUs; use a "
            f"KubeRay target for several nodes",
            why("DEPLOY-004"),
            [Fix({"deploy.target": "kuberay-job"}, "a KubeRay RayJob with one pod per node")],
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
                f"verl places {need} group(s) of {p.gpus_per_node} GPUs, each on one node, and {big} of the cluster's "
                f"nodes have that many (GPUs per node: {shape})",
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
                "make the config match the manifest",
            )
        ]
    for g in wrong:
        yield error(
            "DEPLOY-004",
            paths,
            f"{facts.source}: {g.where} gives {g.gpus} GPU(s) per node but trainer.n_gpus_per_node is "
            f"{p.gpus_per_node}",
            why("DEPLOY-004"),
            fixes,
        )
    if facts.gpu_nodes != need:
        yield error(
            "DEPLOY-004",
            paths,
            f"{facts.source}: {facts.gpu_nodes} GPU node(s) but the config needs {need} "
            f"(trainer.nnodes {p.nnodes} x {p.gpus_per_node} GPUs"
            + (f", {p.total_gpus} GPUs with split pools)" if len(p.pools) > 1 else ")"),
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
        [Fix({"deploy.cpus_per_gpu": CPUS_PER_GPU_BUNDLE + 1}, f"{CPUS_PER_GPU_BUNDLE + 1} CPUs per GPU")]
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
                f"{g.where or g.role} has {g.cpus:g} CPUs for {used} GPU(s); verl reserves {CPUS_PER_GPU_BUNDLE} per GPU "
                f"({need}) and its placement groups never become ready",
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
            else f"every CPU is taken by verl's {CPUS_PER_GPU_BUNDLE}-CPU-per-GPU bundles; its TaskRunner needs "
            f"{TASK_RUNNER_CPUS} more somewhere and the run waits forever"
        )
        yield error("DEPLOY-005", paths, message, why("DEPLOY-005"), fixes)


def check_inline_secrets(ctx, facts):
    names = sorted(
        {name for _, name, value in facts.all_env() if SECRET_NAME.search(name) and value and not value.startswith("$")}
    )
    for name in names:
        extra = {"deploy.secret_env": [*ctx.answers.deploy.secret_env, name]} if name not in AUTH_VARS else {}
        yield error(
            "DEPLOY-006",
            _where(facts, "deploy.env"),
            f"{name} is written out in {'deploy.env' if facts.origin == 'answers' else facts.source} (value not shown); "
            f"read it from a Secret or the environment",
            why("DEPLOY-006"),
            _env_fix(ctx, facts, (name,), f"take {name} from the Secret/environment instead", extra),
        )
    for where in facts.inline_secrets:
        yield error(
            "DEPLOY-006",
            [facts.source],
            f"{where} holds a secret value in {facts.source} (value not shown); create the "
            f"Secret with kubectl from your environment and keep only its name here",
            why("DEPLOY-006"),
        )


def _name_problem(kind: str, name: str) -> str | None:
    if kind in NAME_LIMITS:
        if not DNS_1035.match(name) or len(name) > NAME_LIMITS[kind]:
            return f"a {kind} name must be lowercase letters, digits and '-', start with a letter, at most {NAME_LIMITS[kind]} characters"
    elif kind in ("ConfigMap", "Secret"):
        if not DNS_SUBDOMAIN.match(name) or len(name) > 253:
            return f"a {kind} name must be a DNS subdomain (lowercase letters, digits, '-' and '.')"
    elif not DNS_LABEL.match(name) or len(name) > 63:
        return f"a {kind} name must be a DNS label: lowercase letters, digits and '-', at most 63 characters"
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
                fixes = [Fix({"deploy.name": dns_label(name, NAME_LIMITS.get(kind, 63))}, "a DNS label made from it")]
            elif kind == "Namespace":
                fixes = [Fix({"deploy.namespace": dns_label(name)}, "a DNS label made from it")]
            elif kind == "Secret" and name == d.k8s_secret:
                fixes = [Fix({"deploy.k8s_secret": dns_label(name)}, "a DNS label made from it")]
        path = field.get(kind, "deploy.name") if facts.origin == "answers" else f"{facts.source}: {kind}"
        yield error("DEPLOY-007", [path], f"{kind} name {name!r}: {problem}", why("DEPLOY-007"), fixes)


def check_num_cpus(ctx, facts):
    value = ctx.answers.deploy.ray_init_num_cpus
    if value is not None and facts.joins_cluster:
        yield error(
            "DEPLOY-008",
            [NUM_CPUS_KEY],
            f"{NUM_CPUS_KEY}={value} while the driver joins the {facts.target} cluster: ray.init raises 'When connecting "
            f"to an existing cluster, num_cpus and num_gpus must not be provided'",
            why("DEPLOY-008"),
            [Fix({NUM_CPUS_KEY: None}, "leave num_cpus to the cluster")],
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
                "use eth0 between nodes (check the name with `ip -br addr` on a node)",
            )
        ]
    yield warning(
        "DEPLOY-009",
        ["deploy.nccl_socket_ifname", "deploy.gloo_socket_ifname"] if facts.origin == "answers" else [facts.source],
        f"{facts.gpu_nodes or ctx.plan.nnodes} nodes and no NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME: on hosts with "
        f"several interfaces NCCL and Gloo may pick one the other nodes cannot reach",
        why("DEPLOY-009"),
        fixes,
    )


def check_entrypoint(ctx, facts):
    if facts.entrypoint and re.search(r"(;|&&|\|)", facts.entrypoint):
        yield error(
            "DEPLOY-010",
            [f"{facts.source}: spec.entrypoint"],
            f"the entrypoint {facts.entrypoint!r} chains commands; KubeRay splices it unquoted after `ray job submit --`, "
            f"so what follows ;, && or | runs in the submitter pod, not on the cluster",
            why("DEPLOY-010"),
        )


def check_shm(ctx, facts):
    for where in facts.shm_missing:
        fixes = [Fix({"deploy.shm_gib": 64}, "a 64 GiB memory volume at /dev/shm")] if facts.origin == "answers" else []
        yield warning(
            "DEPLOY-011",
            ["deploy.shm_gib"] if facts.origin == "answers" else [facts.source],
            f"{where} has no memory volume at /dev/shm (a container gets 64 MiB): NCCL fails with 'No space left on device'",
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
            f"{', '.join(set_in_env)} set in deploy.env: it reaches what that env reaches, not the way each target starts "
            f"its head, workers and driver; use deploy.auth_mode ({d.auth_mode})",
            why("DEPLOY-012"),
            _env_fix(ctx, facts, AUTH_VARS, "remove it; deploy.auth_mode sets it on every node"),
        )
        return
    if facts.origin == "answers" and facts.target in KUBERAY_TARGETS and d.auth_mode == "token":
        major, minor = (int(x) for x in d.ray_version.split(".")[:2])
        if (major, minor) < (2, 52):
            yield error(
                "DEPLOY-012",
                ["deploy.ray_version", "deploy.auth_mode"],
                f"KubeRay configures token authentication for Ray 2.52 and newer; Ray {d.ray_version} ignores it",
                why("DEPLOY-012"),
                [Fix({"deploy.auth_mode": "disabled"}, "no token authentication")],
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
            "RAY_AUTH_MODE is set nowhere: ray start --head turns token authentication on when a token file exists on the "
            "head (~/.ray/auth_token, left by any earlier local ray.init), while workers joining by address never do, and "
            "then cannot join; export RAY_AUTH_MODE (and one RAY_AUTH_TOKEN) before the first srun",
            why("DEPLOY-012"),
        )
        return
    if len(modes) > 1:
        shown = "; ".join(f"{where}: {mode or 'unset'}" for where, mode, _ in parties)
        yield error(
            "DEPLOY-012",
            _where(facts, "deploy.auth_mode"),
            f"RAY_AUTH_MODE differs ({shown}); a process whose mode or token differs from the head's cannot join and "
            f"fails after a long wait with only 'Failed to connect'",
            why("DEPLOY-012"),
        )
        return
    if modes == {"token"}:
        missing = [where for where, _, source in parties if not source]
        sources = {source for _, _, source in parties if source}
        if missing or len(sources) > 1:
            detail = (
                f"no token reaches {', '.join(missing)}"
                if missing
                else "the token comes from different places: " + "; ".join(f"{w}: {s}" for w, _, s in parties)
            )
            yield error(
                "DEPLOY-012",
                _where(facts, "deploy.auth_mode"),
                f"token authentication is on and {detail}",
                why("DEPLOY-012"),
            )


def check_images(ctx, facts):
    for image in facts.images:
        if not IMAGE_REF.match(image):
            fixes = (
                [Fix({"deploy.image": DEFAULT_IMAGE}, f"the default image {DEFAULT_IMAGE}")]
                if facts.origin == "answers"
                else []
            )
            shown = image if len(image) < 80 else image[:77] + "..."
            yield warning(
                "DEPLOY-014",
                ["deploy.image"] if facts.origin == "answers" else [facts.source],
                f"image {shown!r} is not a valid image reference (registry/name:tag, no spaces or quotes)",
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
