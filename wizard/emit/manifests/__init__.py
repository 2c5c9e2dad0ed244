"""Deployment manifests for the chosen target, rendered from the same answers and plan as config.yaml.

`render_manifests` returns file name -> text: nothing for a target without a manifest (local: run.sh is the
launch), else the one file its spec names (wizard.core.targets: `ray-job.sh`, `rayjob.yaml`, `raycluster.yaml`,
`job.sbatch`, `k8s-job.yaml`), written by the renderer registered for it (wizard.emit.manifests.registry). What
each provides is described for the rules by wizard.core.rules.deploy.facts.facts_from_answers, from the same
helper functions.
"""

from __future__ import annotations

from wizard.core.answers.model import Answers
from wizard.core.plan import Plan
from wizard.core.targets import spec, specs
from wizard.emit.manifests import k8s_job, kuberay, ray_job, slurm  # noqa: F401  (each registers its renderer)
from wizard.emit.manifests.registry import RENDERERS

# target -> the manifest file it writes
FILES = {s.value: s.manifest for s in specs() if s.manifest}


def render_manifests(answers: Answers, plan: Plan, config_text: str) -> dict[str, str]:
    """The target's manifest files; `config_text` is the config.yaml that KubeRay and the Job carry as a ConfigMap."""
    target = spec(answers.deploy.target)
    if target.manifest is None:
        return {}
    return {target.manifest: RENDERERS[target.value](answers, plan, config_text)}
