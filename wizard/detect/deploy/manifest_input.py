"""What a deployment manifest read for `check` gives: the config it carries and what it provides (for ctx.deploy).

Below the readers of Kubernetes YAML (manifests.py) and of job.sbatch / ray-job.sh scripts (scripts.py), which both
return one.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.rules.deploy.facts import DeployFacts
from wizard.detect.config.basics import CheckInput


@dataclass
class ManifestInput(CheckInput):
    """A CheckInput that also carries what the manifest provides (for ctx.deploy)."""

    deploy: DeployFacts | None = None
