"""Everything `new` writes, rendered in one place: preview is this with the write switched off."""

from __future__ import annotations

import yaml

from wizard import __version__
from wizard.core.findings import Finding
from wizard.core.layers import LayeredAnswers, to_answers_doc
from wizard.core.plan import Plan
from wizard.emit.manifests import render_manifests
from wizard.emit.run_md import render_run_md
from wizard.emit.run_script import render_run_script
from wizard.emit.verl_config import render_config


def render_answers_file(layered: LayeredAnswers) -> str:
    header = f"# verl-wizard {__version__} answers; replay with: verl-wizard new --answers answers.yaml --out DIR\n"
    body = yaml.safe_dump(to_answers_doc(layered.answers), sort_keys=False, allow_unicode=True)
    return header + body


def render_artifacts(layered: LayeredAnswers, plan: Plan, findings: list[Finding]) -> dict[str, str]:
    """File name -> text for every artefact of the chosen target."""
    files = {
        "config.yaml": render_config(layered, plan),
        "run.sh": render_run_script(layered.answers, plan),
        "answers.yaml": render_answers_file(layered),
    }
    files.update(render_manifests(layered.answers, plan, files["config.yaml"]))
    files["RUN.md"] = render_run_md(layered.answers, plan, findings, [*files, "RUN.md"])
    return files
