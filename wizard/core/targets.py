"""One TargetSpec per deployment target: everything the code asks of a target, declared once, as data.

The rules, the emitters, RUN.md, the runbook, the manifest readers and the answers' field conditions ask the spec
(`spec(target).starts_ray`, `spec(target).manifest`, ...) instead of comparing a target's name. A target is a
`Target` member (wizard.core.choices), one spec here and one renderer in wizard.emit.manifests (registered beside
its code with `@renders`, its module imported by that package); nothing else names it. Answers keep the plain
string value (`"ray-job"`; a plain Enum, so yaml.safe_dump never meets a str subclass): `spec` takes that or a
`Target` member.

Pure data: the launch commands are English `str.format` templates (the emitters fill in the names), the texts
are catalogue messages whose parameters the caller fills in with `fill`. No I/O, nothing from emit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from wizard.core.choices import Target
from wizard.i18n.text import Msg, msg


@dataclass(frozen=True)
class LaunchTexts:
    """How a target's run is started and watched, as templates over {ns} {name} {address} {head_pod} {entrypoint}
    {job} {config} {config_dir} {gpus} (wizard.emit.launch fills them in)."""

    where: str  # where the commands run
    start: tuple[str, ...]  # the launch, in order
    follow: str  # where the run's output shows by itself
    watch: tuple[tuple[str, str], ...]  # (command, what it shows)
    stop: str | None  # how to end the run early
    doctor: str  # the `verl-wizard doctor` (or preflight) to run where the workers start
    run_id: str | None = None  # the placeholder in watch/stop for the id the launch prints


@dataclass(frozen=True)
class RunbookTexts:
    """RUN.md's per-target prose; parameters (image, mount, file) are filled in by the caller."""

    install_where: Msg  # where verl is installed (runbook.where.*)
    relative_base: Msg  # what a relative path is relative to (runbook.base.*)
    staging: Msg | None  # how the data reaches the run; None: a Kubernetes data volume (said from the answers)
    launch_from: Msg  # where the launch is typed (runbook.on.*)
    follow: Msg  # where the run's output shows (runbook.follow.*)
    shows: tuple[Msg, ...]  # what each watch command shows, in the launch's watch order
    start: tuple[str, ...] | None = (
        None  # RUN.md's launch lines (templates over {ns} {name} {start[i]}); None: the launch's
    )
    launch_note: Msg | None = None  # a line after the launch block
    token_note: Msg | None = None  # the Secrets section with token authentication on
    open_note: Msg | None = None  # the Secrets section with it off
    watch_elsewhere: bool = False  # the launch holds its terminal: the watch block first exports the mode and the id


@dataclass(frozen=True)
class TargetSpec:
    """What one deployment target is and does."""

    value: str  # the target's name, as answers hold it (a Target member's value)
    manifest: str | None  # the file its renderer writes; None: run.sh is the launch
    launch: LaunchTexts
    runbook: RunbookTexts
    data_relative: Msg  # DATA-012's base of a relative data path (data.relative.*; parameter mount)
    token_source: Msg | None  # where the Ray token comes from in what the wizard renders; None: a Kubernetes Secret
    doctor_where: Msg | None  # ENV-004: where doctor must run to judge the workers; None: they start on this machine
    kubernetes: bool = False  # its manifest is Kubernetes objects (a ConfigMap, an image, pods)
    kuberay: bool = False  # ... KubeRay's (ray.io/v1)
    kinds: tuple[str, ...] = ()  # the Kubernetes kinds that are this target, the one the wizard writes first
    name_limit: int | None = None  # the length limit of its main object's name (DEPLOY-007)
    starts_ray: bool = False  # verl's ray.init starts Ray itself (ray_kwargs.ray_init.num_cpus applies)
    starts_cluster: bool = False  # the manifest starts a Ray cluster of the nodes (a head and worker groups)
    joins_cluster: bool = False  # the driver joins a Ray cluster started elsewhere (not by verl itself)
    runs_here: bool = False  # the run starts on the machine the wizard runs on
    submits_job: bool = False  # the driver is submitted through a Ray cluster's Jobs API
    manifest_entrypoint: bool = False  # the manifest holds the driver's command (DEPLOY-010 reads it)
    head_has_gpus: bool = False  # the head is always one of the GPU nodes
    single_node: bool = False  # one Pod: a plan of more nodes cannot run (DEPLOY-004 offers kuberay-job)
    multi_node_fix: Msg | None = (
        None  # DEPLOY-017's fix label for moving a plan of several nodes here (parameter nodes)
    )
    by_hand: RunbookTexts | None = None  # RUN.md's texts when the plan needs a Ray cluster the user starts by hand

    @property
    def script_cluster(self) -> bool:
        """The Ray nodes are started by the manifest's shell (`srun ray start`), not by an operator."""
        return self.starts_cluster and not self.kuberay

    @property
    def plain_pod(self) -> bool:
        """A plain Kubernetes Pod or Job: verl starts Ray inside its one container."""
        return self.kubernetes and not self.kuberay


_SPECS: dict[str, TargetSpec] = {}


def register(target_spec: TargetSpec) -> TargetSpec:
    """Add a target's spec (a test may add a throw-away one); a target has one spec."""
    if target_spec.value in _SPECS:
        raise ValueError(f"deployment target {target_spec.value!r} has a spec already")
    _SPECS[target_spec.value] = target_spec
    return target_spec


def spec(target: str | Target) -> TargetSpec:
    """The spec of a target, by its value ("ray-job") or member (Target.RAY_JOB)."""
    return _SPECS[target.value if isinstance(target, Target) else target]


def specs() -> Iterator[TargetSpec]:
    """Every target's spec, in declaration order."""
    return iter(tuple(_SPECS.values()))


def names_where(test: Callable[[TargetSpec], bool]) -> tuple[str, ...]:
    """The values of the targets whose spec passes `test`, in declaration order."""
    return tuple(s.value for s in specs() if test(s))


def fill(text: Msg, **params: object) -> Msg:
    """A spec's message with the parameters it declares given their values (the others are ignored)."""
    return replace(text, params=tuple((name, params.get(name, value)) for name, value in text.params))


def name_limits() -> dict[str, int]:
    """Kubernetes kind -> the length limit of its name, for the kinds whose target has one (DEPLOY-007)."""
    return {s.kinds[0]: s.name_limit for s in specs() if s.kinds and s.name_limit}


def target_of_kind() -> dict[str, str]:
    """Kubernetes kind -> the target a manifest of that kind is read as."""
    return {kind: s.value for s in specs() for kind in s.kinds}


# -- the targets ----------------------------------------------------------------------------------------
_KUBECTL_WHERE = "a machine with kubectl for the cluster"
_KUBERAY_WHERE = f"{_KUBECTL_WHERE} (KubeRay 1.5 or newer installed)"
# the head mounts config.yaml from the manifest's ConfigMap at CONFIG_DIR
_KUBERAY_DOCTOR = "kubectl exec{ns} -it {head_pod} -- verl-wizard doctor {config_dir}/config.yaml"
_DOCTOR = "verl-wizard doctor {config}"

_LOCAL_TEXTS = RunbookTexts(
    install_where=msg("runbook.where.local"),
    relative_base=msg("runbook.base.local"),
    staging=msg("runbook.data.local"),
    launch_from=msg("runbook.on.local"),
    follow=msg("runbook.follow.local"),
    shows=(msg("runbook.shows.ray_status"),),
)

register(
    TargetSpec(
        Target.LOCAL.value,
        manifest=None,
        launch=LaunchTexts(
            "this machine (verl starts its own Ray)",
            ("./run.sh",),
            "./run.sh prints verl's log in this terminal (Ctrl-C stops the run); the Ray instance verl starts has "
            "its dashboard at http://127.0.0.1:8265",
            (("ray status", "that Ray instance's CPUs and GPUs, and what waits for them"),),
            None,
            _DOCTOR,
        ),
        runbook=_LOCAL_TEXTS,
        by_hand=replace(
            _LOCAL_TEXTS,
            install_where=msg("runbook.where.local_nodes"),
            staging=msg("runbook.data.local_nodes"),
            launch_from=msg("runbook.on.local_head"),
            follow=msg("runbook.follow.local_head"),
            shows=(msg("runbook.shows.cluster_status"),),
        ),
        data_relative=msg("data.relative.local"),
        token_source=msg("deploy.token.local"),
        doctor_where=None,
        starts_ray=True,
        runs_here=True,
    )
)

register(
    TargetSpec(
        Target.RAY_JOB.value,
        manifest="ray-job.sh",
        launch=LaunchTexts(
            "any machine that reaches the cluster's Jobs API, with Ray installed",
            ("./ray-job.sh",),
            "./ray-job.sh prints the job's log until the job ends, and exits 1 when it failed",
            (
                ("ray job list --address {address}", "the submission id and state of every job"),
                ("ray job logs --follow --address {address} SUBMISSION_ID", "the job's log again, from the start"),
            ),
            "ray job stop --address {address} SUBMISSION_ID",
            "verl-wizard preflight --address HEAD:6379 --config {config}",
            run_id="SUBMISSION_ID",
        ),
        runbook=RunbookTexts(
            install_where=msg("runbook.where.ray_job"),
            relative_base=msg("runbook.base.ray_job"),
            staging=msg("runbook.data.ray_job"),
            launch_from=msg("runbook.on.ray_job"),
            follow=msg("runbook.follow.ray_job"),
            shows=(msg("runbook.shows.job_list"), msg("runbook.shows.job_logs")),
            launch_note=msg("runbook.launch.ray_job_id"),
            # the ray CLI of the watch and stop commands reads the mode from the shell too (ray-job.sh sets its own)
            token_note=msg("runbook.secrets.ray_job_token"),
            open_note=msg("runbook.secrets.ray_job_open"),
            watch_elsewhere=True,
        ),
        data_relative=msg("data.relative.ray_job"),
        token_source=msg("deploy.token.submitter"),
        doctor_where=msg("env.where.ray_job"),
        joins_cluster=True,
        submits_job=True,
        multi_node_fix=msg("deploy.fix.target_ray_job"),
    )
)

_KUBERAY_TEXTS = RunbookTexts(
    install_where=msg("runbook.where.pods", image=""),
    relative_base=msg("runbook.base.pods", mount=""),
    staging=None,
    launch_from=msg("runbook.on.kuberay"),
    follow=msg("runbook.follow.kuberay_job"),
    shows=(msg("runbook.shows.rayjob"), msg("runbook.shows.driver_log")),
)

register(
    TargetSpec(
        Target.KUBERAY_JOB.value,
        manifest="rayjob.yaml",
        launch=LaunchTexts(
            _KUBERAY_WHERE,
            ("kubectl apply{ns} -f rayjob.yaml",),
            "the driver runs in the submitter Job that KubeRay creates once the cluster is up",
            (
                ("kubectl get rayjob{ns} {name} --watch", "job and cluster state (Initializing, Running, Complete)"),
                ("kubectl logs{ns} --follow job/{name}", "the driver's log (the submitter Job KubeRay creates)"),
            ),
            "kubectl delete{ns} rayjob {name}",
            _KUBERAY_DOCTOR,
        ),
        runbook=_KUBERAY_TEXTS,
        data_relative=msg("data.relative.pod", mount=""),
        token_source=None,
        doctor_where=msg("env.where.kuberay"),
        kubernetes=True,
        kuberay=True,
        kinds=("RayJob",),
        name_limit=47,
        starts_cluster=True,
        joins_cluster=True,
        manifest_entrypoint=True,
        multi_node_fix=msg("deploy.fix.kuberay_job"),
    )
)

register(
    TargetSpec(
        Target.KUBERAY_CLUSTER.value,
        manifest="raycluster.yaml",
        launch=LaunchTexts(
            _KUBERAY_WHERE,
            ("kubectl apply{ns} -f raycluster.yaml", "kubectl exec{ns} -it {head_pod} -- {entrypoint}"),
            "the kubectl exec session prints the driver's log",
            (("kubectl get raycluster{ns} {name} --watch", "the cluster's state: exec the driver once it is ready"),),
            "kubectl delete{ns} raycluster {name}",
            _KUBERAY_DOCTOR,
        ),
        runbook=replace(
            _KUBERAY_TEXTS,
            follow=msg("runbook.follow.kuberay_cluster"),
            shows=(msg("runbook.shows.raycluster"),),
            start=(
                "{start[0]}",
                "kubectl wait{ns} raycluster/{name} --for=jsonpath='{{.status.state}}'=ready --timeout=30m",
                "{start[1]}",
            ),
            launch_note=msg("runbook.launch.kuberay_cluster"),
        ),
        data_relative=msg("data.relative.pod", mount=""),
        token_source=None,
        doctor_where=msg("env.where.kuberay"),
        kubernetes=True,
        kuberay=True,
        kinds=("RayCluster",),
        name_limit=53,
        starts_cluster=True,
        joins_cluster=True,
    )
)

register(
    TargetSpec(
        Target.SLURM.value,
        manifest="job.sbatch",
        launch=LaunchTexts(
            "a Slurm login node, in this folder on a filesystem every node shares",
            ("sbatch job.sbatch",),
            "the head, the workers and the driver write to {job}-JOBID.out (JOBID: the number sbatch prints)",
            (
                ("squeue --me --name={job}", "the job's state and its nodes"),
                ("tail -f {job}-JOBID.out", "the job's output as it is written"),
            ),
            "scancel JOBID",
            "srun --nodes=1 --gres=gpu:{gpus} verl-wizard doctor {config}",
            run_id="JOBID",
        ),
        runbook=RunbookTexts(
            install_where=msg("runbook.where.slurm"),
            relative_base=msg("runbook.base.slurm"),
            staging=msg("runbook.data.slurm"),
            launch_from=msg("runbook.on.slurm"),
            follow=msg("runbook.follow.slurm", file=""),
            shows=(msg("runbook.shows.squeue"), msg("runbook.shows.tail")),
            start=('JOBID="$(sbatch --parsable job.sbatch)"', 'JOBID="${{JOBID%%;*}}"', 'echo "JOBID=$JOBID"'),
            launch_note=msg("runbook.launch.slurm_id"),
            token_note=msg("runbook.secrets.slurm_token"),
        ),
        data_relative=msg("data.relative.slurm"),
        token_source=msg("deploy.token.job_env"),
        doctor_where=msg("env.where.slurm"),
        starts_cluster=True,
        joins_cluster=True,
        head_has_gpus=True,
        multi_node_fix=msg("deploy.fix.target_slurm", nodes=0),
    )
)

register(
    TargetSpec(
        Target.K8S_JOB.value,
        manifest="k8s-job.yaml",
        launch=LaunchTexts(
            _KUBECTL_WHERE,
            ("kubectl apply{ns} -f k8s-job.yaml",),
            "verl runs in the Job's pod, with its own Ray instance",
            (
                ("kubectl get job{ns} {name} --watch", "the Job's state"),
                ("kubectl logs{ns} --follow job/{name}", "verl's log"),
            ),
            "kubectl delete{ns} job {name}",
            _DOCTOR,
        ),
        runbook=RunbookTexts(
            install_where=msg("runbook.where.job", image=""),
            relative_base=msg("runbook.base.pods", mount=""),
            staging=None,
            launch_from=msg("runbook.on.k8s"),
            follow=msg("runbook.follow.k8s"),
            shows=(msg("runbook.shows.job"), msg("runbook.shows.verl_log")),
        ),
        data_relative=msg("data.relative.pod", mount=""),
        token_source=msg("deploy.token.local"),
        doctor_where=msg("env.where.k8s_job"),
        kubernetes=True,
        kinds=("Job", "Pod"),
        starts_ray=True,
        single_node=True,
    )
)
