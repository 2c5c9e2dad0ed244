"""The commands that start a run and follow it, per deployment target, from the folder `new` wrote.

One place for them: `new` prints the launch, the TUI's Review and its exit report show it, RUN.md lists the
launch and watch commands, and the manifests' headers repeat them, so none of these can disagree.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from wizard.core.answers.model import Answers
from wizard.core.rules.deploy.facts import CONFIG_DIR, ENTRYPOINT, dns_label, jobs_address, k8s_name
from wizard.emit.bundle import folder_name


@dataclass(frozen=True)
class Launch:
    """How a target's run is started and watched; every command runs in the folder that holds config.yaml."""

    target: str
    where: str  # where the commands run (this machine, a Slurm login node, ...)
    start: tuple[str, ...]  # the launch, in order
    follow: str  # where the run's output shows by itself
    watch: tuple[tuple[str, str], ...]  # (command, what it shows)
    stop: str | None = None  # how to end the run early


def _ns(answers: Answers) -> str:
    ns = answers.deploy.namespace
    return f" -n {shlex.quote(ns)}" if ns else ""


def head_pod(answers: Answers) -> str:
    """A shell expression naming the RayCluster's head pod (KubeRay labels it)."""
    name = k8s_name(answers)
    return f"$(kubectl get pod{_ns(answers)} -l ray.io/cluster={name},ray.io/node-type=head -o name)"


def launch_for(answers: Answers) -> Launch:
    """The launch and watch commands of answers.deploy.target."""
    target, ns, name = answers.deploy.target, _ns(answers), k8s_name(answers)
    if target == "ray-job":
        address = shlex.quote(jobs_address(answers))
        return Launch(
            target,
            "any machine that reaches the cluster's Jobs API, with Ray installed",
            ("./ray-job.sh",),
            "./ray-job.sh prints the job's log until the job ends, and exits 1 when it failed",
            (
                (f"ray job list --address {address}", "the submission id and state of every job"),
                (f"ray job logs --follow --address {address} SUBMISSION_ID", "the job's log again, from the start"),
            ),
            f"ray job stop --address {address} SUBMISSION_ID",
        )
    if target == "kuberay-job":
        return Launch(
            target,
            "a machine with kubectl for the cluster (KubeRay 1.5 or newer installed)",
            (f"kubectl apply{ns} -f rayjob.yaml",),
            "the driver runs in the submitter Job that KubeRay creates once the cluster is up",
            (
                (f"kubectl get rayjob{ns} {name} --watch", "job and cluster state (Initializing, Running, Complete)"),
                (f"kubectl logs{ns} --follow job/{name}", "the driver's log (the submitter Job KubeRay creates)"),
            ),
            f"kubectl delete{ns} rayjob {name}",
        )
    if target == "kuberay-cluster":
        return Launch(
            target,
            "a machine with kubectl for the cluster (KubeRay 1.5 or newer installed)",
            (
                f"kubectl apply{ns} -f raycluster.yaml",
                f"kubectl exec{ns} -it {head_pod(answers)} -- {ENTRYPOINT}",
            ),
            "the kubectl exec session prints the driver's log",
            ((f"kubectl get raycluster{ns} {name} --watch", "the cluster's state: exec the driver once it is ready"),),
            f"kubectl delete{ns} raycluster {name}",
        )
    if target == "slurm":
        job = dns_label(name)
        return Launch(
            target,
            "a Slurm login node, in this folder on a filesystem every node shares",
            ("sbatch job.sbatch",),
            f"the head, the workers and the driver write to {job}-JOBID.out (JOBID: the number sbatch prints)",
            (
                (f"squeue --me --name={job}", "the job's state and its nodes"),
                (f"tail -f {job}-JOBID.out", "the job's output as it is written"),
            ),
            "scancel JOBID",
        )
    if target == "k8s-job":
        return Launch(
            target,
            "a machine with kubectl for the cluster",
            (f"kubectl apply{ns} -f k8s-job.yaml",),
            "verl runs in the Job's pod, with its own Ray instance",
            (
                (f"kubectl get job{ns} {name} --watch", "the Job's state"),
                (f"kubectl logs{ns} --follow job/{name}", "verl's log"),
            ),
            f"kubectl delete{ns} job {name}",
        )
    return Launch(
        "local",
        "this machine (verl starts its own Ray)",
        ("./run.sh",),
        "./run.sh prints verl's log in this terminal (Ctrl-C stops the run); the Ray instance verl starts has its "
        "dashboard at http://127.0.0.1:8265",
        (("ray status", "that Ray instance's CPUs and GPUs, and what waits for them"),),
    )


def launch_line(answers: Answers, out_dir: str) -> str:
    """`cd OUT && <the first launch command>`: what `new` and the TUI's exit report print."""
    return f"cd {shlex.quote(out_dir)} && {launch_for(answers).start[0]}"


def unzip_launch_line(answers: Answers, out_dir: str) -> str:
    """`unzip FOLDER.zip && cd FOLDER && <the launch>`: the launch of a served wizard's download, with the zip's
    and its folder's names (wizard.emit.bundle)."""
    folder = folder_name(out_dir)
    return f"unzip {shlex.quote(folder + '.zip')} && {launch_line(answers, folder)}"


def doctor_line(answers: Answers, out_dir: str) -> str:
    """The `verl-wizard doctor` to run where the run's workers start (Review shows it beside the launch)."""
    config = shlex.quote(f"{out_dir.rstrip('/')}/config.yaml")
    target = answers.deploy.target
    if target == "slurm":
        gpus = answers.cluster.n_gpus_per_node
        return f"srun --nodes=1 --gres=gpu:{gpus} verl-wizard doctor {config}"
    if target == "ray-job":
        return f"verl-wizard preflight --address HEAD:6379 --config {config}"
    if target in ("kuberay-job", "kuberay-cluster"):
        # the head mounts config.yaml from the manifest's ConfigMap at CONFIG_DIR
        return f"kubectl exec{_ns(answers)} -it {head_pod(answers)} -- verl-wizard doctor {CONFIG_DIR}/config.yaml"
    return f"verl-wizard doctor {config}"
