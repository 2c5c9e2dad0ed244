"""The commands that start a run and follow it, per deployment target, from the folder `new` wrote.

One place for them: `new` prints the launch, the TUI's Review and its exit report show it, RUN.md lists the
launch and watch commands, and the manifests' headers repeat them, so none of these can disagree.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from wizard.core.answers.model import Answers
from wizard.core.rules.deploy.facts import CONFIG_DIR, ENTRYPOINT, dns_label, jobs_address, k8s_name
from wizard.core.targets import spec
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


def _names(answers: Answers, out_dir: str = "") -> dict[str, str]:
    """The values a target's command templates (wizard.core.targets.LaunchTexts) name."""
    name = k8s_name(answers)
    return {
        "ns": _ns(answers),
        "name": name,
        "address": shlex.quote(jobs_address(answers)),
        "head_pod": head_pod(answers),
        "entrypoint": ENTRYPOINT,
        "job": dns_label(name),
        "config": shlex.quote(f"{out_dir.rstrip('/')}/config.yaml"),
        "config_dir": CONFIG_DIR,
        "gpus": str(answers.cluster.n_gpus_per_node),
    }


def launch_for(answers: Answers) -> Launch:
    """The launch and watch commands of answers.deploy.target."""
    texts = spec(answers.deploy.target).launch
    names = _names(answers)
    return Launch(
        answers.deploy.target,
        texts.where,
        tuple(line.format(**names) for line in texts.start),
        texts.follow.format(**names),
        tuple((command.format(**names), what) for command, what in texts.watch),
        texts.stop.format(**names) if texts.stop else None,
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
    return spec(answers.deploy.target).launch.doctor.format(**_names(answers, out_dir))
