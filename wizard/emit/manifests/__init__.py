"""Deployment manifests for the chosen target, rendered from the same answers and plan as config.yaml.

`render_manifests` returns file name -> text: nothing for `local` (run.sh is the launch), `ray-job.sh`,
`rayjob.yaml` (RayJob + ConfigMap), `raycluster.yaml` (RayCluster + ConfigMap), `job.sbatch` or
`k8s-job.yaml` (Job + ConfigMap). What each provides is described for the rules by
wizard.core.rules.deploy.facts.facts_from_answers, from the same helper functions.
"""

from __future__ import annotations

from wizard.core.answers.model import Answers
from wizard.core.plan import Plan

FILES = {
    "ray-job": "ray-job.sh",
    "kuberay-job": "rayjob.yaml",
    "kuberay-cluster": "raycluster.yaml",
    "slurm": "job.sbatch",
    "k8s-job": "k8s-job.yaml",
}


def render_manifests(answers: Answers, plan: Plan, config_text: str) -> dict[str, str]:
    """The target's manifest files; `config_text` is the config.yaml that KubeRay and the Job carry as a ConfigMap."""
    target = answers.deploy.target
    if target == "ray-job":
        from wizard.emit.manifests.ray_job import render_ray_job

        text = render_ray_job(answers, plan)
    elif target == "kuberay-job":
        from wizard.emit.manifests.kuberay import render_rayjob

        text = render_rayjob(answers, plan, config_text)
    elif target == "kuberay-cluster":
        from wizard.emit.manifests.kuberay import render_raycluster

        text = render_raycluster(answers, plan, config_text)
    elif target == "slurm":
        from wizard.emit.manifests.slurm import render_slurm

        text = render_slurm(answers, plan)
    elif target == "k8s-job":
        from wizard.emit.manifests.k8s_job import render_k8s_job

        text = render_k8s_job(answers, plan, config_text)
    else:
        return {}
    return {FILES[target]: text}
