"""What a deployment provides, as plain data: the facts the DEPLOY-* rules judge.

One shape serves three origins: the wizard's own answers (`facts_from_answers`: what the emitters in
wizard.emit.manifests render, computed by the same functions they call), a manifest read back from disk
(wizard.detect.deploy.manifests: a RayJob, RayCluster, Job, job.sbatch or ray-job.sh that a user may have edited),
and a live Ray cluster (wizard.detect.deploy.ray, for `preflight`). Pure: no I/O, no ray.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from wizard.core.answers.model import Answers
from wizard.core.plan import Plan
from wizard.core.targets import name_limits, spec
from wizard.i18n.text import Msg, msg

CPUS_PER_GPU_BUNDLE = 3  # verl's placement bundles are {CPU: 3, GPU: 1} (ResourcePoolManager.max_colocate_count)
TASK_RUNNER_CPUS = 1  # a free CPU: Ray places an actor without num_cpus (TaskRunner, rollout servers) only where one is
# verl 0.9.1's V1 trainer starts TransferQueue before anything else: a controller and storage units that hold one CPU
# each for the whole run, the units pinned round-robin to every Ray node (hard node affinity).
TQ_CONTROLLER_CPUS = 1
TQ_UNITS_KEY = "transfer_queue.backend.SimpleStorage.num_data_storage_units"
TQ_BACKEND_KEY = "transfer_queue.backend.storage_backend"
NAME_LIMITS = name_limits()  # Kubernetes kind -> its name's length limit (each target's spec says its own)
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
DNS_1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
CONFIG_DIR = "/verl-wizard/config"
ENTRYPOINT = f"python3 -m verl.trainer.main_ppo --config-path={CONFIG_DIR} --config-name=config"


DRIVER = msg("deploy.place.driver")  # how a message names verl's driver where the facts say no more
# The variables of Ray's token authentication: set by deploy.auth_mode (and its secret), never through deploy.env.
AUTH_VARS = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH")


@dataclass(frozen=True)
class NodeGroup:
    """Ray nodes started alike (the head, or a worker group): count, resources and what their processes see."""

    role: str  # "head" | "worker"
    replicas: int
    gpus: int  # per node
    cpus: float | None  # per node; None when the manifest does not say
    env: dict[str, str] = field(default_factory=dict)  # literal values
    secret_env: dict[str, str] = field(default_factory=dict)  # name -> "secret/key" it is read from
    auth_mode: str | None = None  # RAY_AUTH_MODE the nodes start with; None: unset (Ray then decides)
    token_source: str | Msg | None = None  # where their token comes from; None: nowhere
    where: str | Msg = ""  # how a message names the group (headGroupSpec, workerGroupSpecs[0], srun ray start ...)


@dataclass(frozen=True)
class DeployFacts:
    """A deployment as the rules see it. `groups` is empty where the nodes are not described (an existing cluster)."""

    target: str
    origin: str  # "answers" | "manifest" | "cluster"
    source: str = "answers"  # the file or address read
    groups: tuple[NodeGroup, ...] = ()
    driver_env: dict[str, str] = field(default_factory=dict)
    driver_auth_mode: str | None = None
    driver_token_source: str | Msg | None = None
    driver_where: str | Msg = DRIVER
    names: tuple[tuple[str, str], ...] = ()  # (kind, name): Kubernetes names to check
    entrypoint: str | None = None
    addresses: tuple[tuple[str, str, str], ...] = ()  # (use, value, where); use: jobs-api | ray-init | ray-start
    joins_cluster: bool = False
    shm_missing: tuple[str | Msg, ...] = ()  # plain Pod/Job containers without a memory /dev/shm
    images: tuple[str, ...] = ()
    mounts: tuple[str, ...] | None = None  # Kubernetes: folders mounted in the pods (None: not described)
    problems: tuple[str | Msg, ...] = ()  # structural defects the reader saw (e.g. a node list that is one element)
    inline_secrets: tuple[
        str | Msg, ...
    ] = ()  # places that hold a secret's value (a Secret with data, a literal token)

    @property
    def gpu_nodes(self) -> int:
        return sum(g.replicas for g in self.groups if g.gpus > 0)

    @property
    def nodes(self) -> int:
        return sum(g.replicas for g in self.groups)

    def all_env(self) -> list[tuple[str | Msg, str, str]]:
        """(where, name, value) for every literal variable any Ray process or the driver sees."""
        out = [(g.where or g.role, k, v) for g in self.groups for k, v in g.env.items()]
        return out + [(self.driver_where, k, v) for k, v in self.driver_env.items()]


def pairs(items: list[str]) -> dict[str, str]:
    """["A=1", "B=x=y"] -> {"A": "1", "B": "x=y"} (answers keep NAME=value lists)."""
    return dict(item.split("=", 1) for item in items)


def k8s_name(answers: Answers) -> str:
    """The objects' name: deploy.name as given, else trainer.experiment_name made a DNS-1035 label of <= 47 chars."""
    if answers.deploy.name:
        return answers.deploy.name
    return dns_label(answers.trainer.experiment_name, NAME_LIMITS["RayJob"])


def dns_label(text: str, limit: int = 63) -> str:
    """Any text -> a DNS-1035 label (lowercase letters, digits, '-'; a letter first) of at most `limit` chars."""
    label = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if not label or not label[0].isalpha():
        label = ("verl-" + label).strip("-")
    return label[:limit].rstrip("-") or "verl"


def secret_env_names(answers: Answers) -> list[str]:
    """Secret variables the run needs: deploy.secret_env, plus WANDB_API_KEY when logging to wandb."""
    names = list(answers.deploy.secret_env)
    logger = answers.trainer.logger if isinstance(answers.trainer.logger, list) else [answers.trainer.logger]
    if "wandb" in logger and "WANDB_API_KEY" not in names:
        names.append("WANDB_API_KEY")
    return names


def node_env(answers: Answers) -> dict[str, str]:
    """Variables every Ray node and the driver get: the interface names, HF_HOME, then deploy.env."""
    d = answers.deploy
    env: dict[str, str] = {}
    if d.nccl_socket_ifname:
        env["NCCL_SOCKET_IFNAME"] = d.nccl_socket_ifname
    if d.gloo_socket_ifname:
        env["GLOO_SOCKET_IFNAME"] = d.gloo_socket_ifname
    home = hf_home(answers)
    if home:
        env["HF_HOME"] = home
    env.update(pairs(d.env))
    return env


def hf_home(answers: Answers) -> str | None:
    """HF_HOME on every node: deploy.hf_home, else under the data volume of a Kubernetes target, else unset."""
    d = answers.deploy
    if d.hf_home:
        return d.hf_home
    if spec(d.target).kubernetes and d.data_volume:
        return d.data_mount.rstrip("/") + "/huggingface"
    return None


def pod_mounts(answers: Answers) -> tuple[str, ...]:
    """Kubernetes: every folder mounted in the pods (the config, /dev/shm of a Job, the data volume), sorted."""
    d = answers.deploy
    mounts = {CONFIG_DIR}
    if spec(d.target).plain_pod and d.shm_gib:
        mounts.add("/dev/shm")
    if d.data_volume:
        mounts.add(d.data_mount)
    return tuple(sorted(mounts))


def tq_storage_units(answers: Answers) -> int:
    """TransferQueue storage units verl 0.9.1's V1 trainer starts (1 CPU each); 0 for the legacy trainer."""
    extra = answers.extra
    if extra.get("trainer.use_v1", True) is False or extra.get(TQ_BACKEND_KEY, "SimpleStorage") != "SimpleStorage":
        return 0
    units = extra.get(TQ_UNITS_KEY, 8)
    return units if isinstance(units, int) and units >= 0 else 8


def tq_share(answers: Answers, nodes: int) -> int:
    """Storage units pinned to each of `nodes` Ray nodes (round-robin: at most this many on one node)."""
    return math.ceil(tq_storage_units(answers) / max(nodes, 1))


def verl_cpus_beyond_bundles(answers: Answers, nodes: int) -> int:
    """Logical CPUs each Ray node is offered on top of its own CPUs: its share of the storage units, the
    controller and a free one, so that the units never starve the placement bundles (they mostly wait on sockets)."""
    if not tq_storage_units(answers):
        return 0
    return tq_share(answers, nodes) + TQ_CONTROLLER_CPUS + TASK_RUNNER_CPUS


def local_ray_cpus_needed(answers: Answers, plan: Plan) -> int:
    """CPUs verl's own Ray instance on one machine needs: the bundles of every GPU, TransferQueue, a free one."""
    units = tq_storage_units(answers)
    return CPUS_PER_GPU_BUNDLE * plan.total_gpus + units + (TQ_CONTROLLER_CPUS if units else 0) + TASK_RUNNER_CPUS


def ray_nodes(answers: Answers, plan: Plan) -> int:
    """Ray nodes of a cluster target: the GPU nodes plus a CPU-only KubeRay head."""
    return worker_replicas(answers, plan) + 1


def gpu_nodes_needed(plan: Plan) -> int:
    """Ray nodes with n_gpus_per_node GPUs that verl's pools need (the trainer pool plus any split pool)."""
    return max(1, math.ceil(plan.total_gpus / plan.gpus_per_node))


def head_has_gpus(answers: Answers) -> bool:
    """Whether the head is one of the GPU nodes (always on Slurm, where every node of the job has GPUs)."""
    return answers.deploy.gpu_head or spec(answers.deploy.target).head_has_gpus


def worker_replicas(answers: Answers, plan: Plan) -> int:
    """GPU worker pods/nodes besides the head: all GPU nodes with a CPU head, one fewer with a GPU head."""
    nodes = gpu_nodes_needed(plan)
    return nodes - 1 if head_has_gpus(answers) else nodes


TOKEN_SLURM = msg("deploy.token.job_env")
TOKEN_SUBMITTER = msg("deploy.token.submitter")
TOKEN_LOCAL = msg("deploy.token.local")


def kuberay_token_source(secret_name: str | None) -> Msg:
    return msg("deploy.token.secret", name=secret_name) if secret_name else msg("deploy.token.secret_by_kuberay")


def auth_source(answers: Answers) -> Msg | None:
    """Where the token comes from in what the wizard renders for this target (None when auth is disabled)."""
    d = answers.deploy
    if d.auth_mode != "token":
        return None
    source = spec(d.target).token_source
    return kuberay_token_source(d.auth_secret) if source is None else source


def container_extra_env(answers: Answers, gpus: int) -> dict[str, str]:
    """Variables the KubeRay pods get besides node_env: the auth mode when disabled (said explicitly so that a
    token file baked into the image cannot switch the head to token mode), NVIDIA_VISIBLE_DEVICES=void on a
    CPU pod (it would otherwise see every GPU of its node)."""
    extra = {"RAY_AUTH_MODE": "disabled"} if answers.deploy.auth_mode == "disabled" else {}
    if not gpus:
        extra["NVIDIA_VISIBLE_DEVICES"] = "void"
    return extra


JOB_CONTAINER = msg("deploy.place.container", kind="Job", name="verl")  # the one container k8s-job renders


def ray_cpus(answers: Answers, plan: Plan, own_cpus: int) -> int:
    """Logical CPUs a Ray node of a cluster target (or k8s-job's one Ray instance) is started with: its own
    CPUs plus what verl 0.9.1's TransferQueue holds there (verl_cpus_beyond_bundles)."""
    nodes = 1 if spec(answers.deploy.target).plain_pod else ray_nodes(answers, plan)
    return own_cpus + verl_cpus_beyond_bundles(answers, nodes)


def own_ray_cpus(answers: Answers, plan: Plan) -> int | None:
    """Where verl starts its own Ray (local, k8s-job): the num_cpus it gets; None: the machine decides."""
    d = answers.deploy
    if d.ray_init_num_cpus is not None:
        return d.ray_init_num_cpus
    if spec(d.target).plain_pod:
        return ray_cpus(answers, plan, d.cpus_per_gpu * plan.gpus_per_node)
    return None


def _groups(answers: Answers, plan: Plan, env: dict[str, str], secrets: dict[str, str]) -> tuple[NodeGroup, ...]:
    d, target = answers.deploy, spec(answers.deploy.target)
    mode, token = d.auth_mode, auth_source(answers)
    per_node = plan.gpus_per_node
    own = d.cpus_per_gpu * per_node
    if target.plain_pod:
        cpus = float(own_ray_cpus(answers, plan) or own)
        return (
            NodeGroup("head", 1, per_node, cpus, {**env, "RAY_AUTH_MODE": mode}, secrets, mode, token, JOB_CONTAINER),
        )
    if not target.starts_cluster:
        return ()
    cpus = float(ray_cpus(answers, plan, own))
    kuberay = target.kuberay
    head_where, worker_where = (
        ("headGroupSpec", "workerGroupSpecs[0]")
        if kuberay
        else ("ray start --head", msg("deploy.place.ray_start_workers"))
    )
    head_gpus = per_node if head_has_gpus(answers) else 0
    head_env = {**env, **container_extra_env(answers, head_gpus)} if kuberay else env
    head_cpus = cpus if head_gpus else float(ray_cpus(answers, plan, d.head_cpus))
    head = NodeGroup("head", 1, head_gpus, head_cpus, head_env, secrets, mode, token, head_where)
    workers = worker_replicas(answers, plan)
    groups = [head]
    if workers:
        worker_env = {**env, **container_extra_env(answers, per_node)} if kuberay else env
        groups.append(NodeGroup("worker", workers, per_node, cpus, worker_env, secrets, mode, token, worker_where))
    return tuple(groups)


def facts_from_answers(answers: Answers, plan: Plan) -> DeployFacts:
    """What the wizard renders for answers.deploy.target, described for the rules."""
    d, target = answers.deploy, spec(answers.deploy.target)
    env = node_env(answers)
    secrets = {n: f"{d.k8s_secret}/{n}" for n in secret_env_names(answers)} if target.kubernetes else {}
    names: list[tuple[str, str]] = []
    if target.kubernetes:
        names = [(target.kinds[0], k8s_name(answers)), ("ConfigMap", config_map_name(answers))]
        if d.namespace is not None:
            names.append(("Namespace", d.namespace))
        if secrets:
            names.append(("Secret", d.k8s_secret))
        if target.kuberay and d.auth_mode == "token" and d.auth_secret:
            names.append(("Secret", d.auth_secret))
    addresses: list[tuple[str, str, str]] = []
    if target.submits_job:
        addresses.append(("jobs-api", jobs_address(answers), "deploy.ray_address"))
    if "RAY_ADDRESS" in env:
        addresses.append(("ray-init", env["RAY_ADDRESS"], "deploy.env"))
    return DeployFacts(
        target=target.value,
        origin="answers",
        source="answers",
        groups=_groups(answers, plan, env, secrets),
        driver_env=env,
        driver_auth_mode=d.auth_mode,
        driver_token_source=auth_source(answers),
        names=tuple(sorted(set(names))),
        entrypoint=ENTRYPOINT if target.manifest_entrypoint else None,
        addresses=tuple(addresses),
        joins_cluster=target.joins_cluster,
        shm_missing=(JOB_CONTAINER,) if target.plain_pod and d.shm_gib == 0 else (),
        images=(d.image,) if target.kubernetes else (),
        mounts=pod_mounts(answers) if target.kubernetes else None,
    )


def config_map_name(answers: Answers) -> str:
    return dns_label(k8s_name(answers), 63 - len("-config")) + "-config"


def jobs_address(answers: Answers) -> str:
    return answers.deploy.ray_address or "http://127.0.0.1:8265"
