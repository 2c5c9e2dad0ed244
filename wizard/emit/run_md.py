"""RUN.md: what was written, how to install verl, stage the data and launch on the target, what to watch,
and the warnings left open."""

from __future__ import annotations

from wizard.core import verl_schema
from wizard.core.answers import Answers
from wizard.core.findings import Finding, Severity
from wizard.core.plan import Plan
from wizard.core.rules.deploy_facts import KUBE_TARGETS, hf_home
from wizard.core.rules.deploy_node import run_paths
from wizard.emit.install import install_for
from wizard.emit.launch import launch_for
from wizard.emit.run_script import uses_wandb
from wizard.emit.verl_config import chain_summary
from wizard.emit.yaml_text import one_line
from wizard.i18n.text import render

INSTALL_WHERE = {
    "local": "on this machine",
    "ray-job": "on every node of the cluster (the machine that submits needs only `ray`)",
    "kuberay-job": "in the image every pod runs (deploy.image: {image})",
    "kuberay-cluster": "in the image every pod runs (deploy.image: {image})",
    "k8s-job": "in the image of the Job (deploy.image: {image})",
    "slurm": "in the environment the job's steps run in on every node",
}


def render_run_md(
    answers: Answers, plan: Plan, findings: list[Finding], files: list[str], migrated: dict | None = None
) -> str:
    """RUN.md; `migrated` ({source, changed, dropped, notes}) adds the "Migrated from" section of an import."""
    v = verl_schema.TARGET_VERSION
    target = answers.deploy.target
    out = [
        f"# {one_line(answers.trainer.experiment_name)}: a verl {v} run ({target})",
        "",
        "## Files",
        *[f"- `{name}`" for name in files],
        "",
        *_install_section(answers, v),
        "",
        *_staging_section(answers),
        "",
        *_launch_section(answers),
    ]
    out += ["", "## What to expect", *[f"- {line}" for line in chain_summary(answers, plan)]]
    if migrated:
        out += ["", *_migrated_section(migrated, v)]
    open_items = [f for f in findings if f.severity is not Severity.ERROR]
    if open_items:
        out += ["", "## Open warnings and notes"]
        # In English whatever the interface's language: every door writes the same RUN.md for the same answers.
        out += [f"- **{f.id}** ({f.severity.value}): {one_line(render(f.message, 'en'))}" for f in open_items]
    return "\n".join(out) + "\n"


def _install_section(answers: Answers, version: str) -> list[str]:
    install = install_for(answers, version)
    where = INSTALL_WHERE[answers.deploy.target].format(image=one_line(answers.deploy.image))
    out = ["## Install", f"Where: {where}.", "```bash", install.line, "```"]
    if install.extras:
        named = " and ".join(f"`{name}`" for name in install.extras)
        out.append(
            f"{named}: the extras verl {version} declares for this run's rollout and training engine; they pull in "
            f"`verl-core`, which verl's default (V1) trainer needs (a bare `pip install verl` fails at run time with "
            f"`No module named 'transfer_queue'`)."
        )
    if install.pins:
        out.append(f"They pin {', '.join(f'`{pin}`' for pin in install.pins)}.")
    for name in install.undeclared:
        out.append(f"verl {version} declares no extra for `{name}`: install it yourself, at a version verl supports.")
    return out


def _path_line(key: str, value: str) -> str:
    if "://" in value:
        return f"- `{key}`: `{one_line(value)}` (remote: read by every process that needs it)"
    if value.startswith("/"):
        return f"- `{key}`: `{one_line(value)}`"
    return f"- `{key}`: `{one_line(value)}` (a Hugging Face id: downloaded into HF_HOME on first use)"


def _staging_section(answers: Answers) -> list[str]:
    d, target = answers.deploy, answers.deploy.target
    home = hf_home(answers)
    out = ["## Data and models"]
    if target in KUBE_TARGETS:
        if d.data_volume:
            source = (
                f"the folder `{one_line(d.data_volume)}` of every GPU node (hostPath)"
                if d.data_volume.startswith("/")
                else f"the PersistentVolumeClaim `{one_line(d.data_volume)}`"
            )
            out.append(
                f"Every pod mounts {source} at `{one_line(d.data_mount)}`: put the data files and local models there "
                "before the launch (for a PVC: `kubectl cp` into any pod that mounts it)."
            )
        else:
            out.append(
                "Nothing is mounted in the pods (deploy.data_volume is unset): they see only the image. Set "
                "deploy.data_volume to a PersistentVolumeClaim or a host folder that holds these paths."
            )
    elif target == "ray-job":
        out.append(
            "The job runs on the cluster's nodes, not where you submit: these paths must exist on every node (a "
            "shared filesystem). This folder is uploaded as the job's working_dir: keep data out of it."
        )
    elif target == "slurm":
        out.append("Every node reads these paths: keep them, and this folder, on a filesystem all nodes share.")
    else:
        out.append("verl reads these on this machine:")
    out += [_path_line(key, value) for key, value in run_paths(answers)]
    if home:
        out.append(f"HF_HOME is `{one_line(home)}` on every node: Hugging Face downloads are cached there.")
    else:
        out.append("HF_HOME is each machine's own (default `~/.cache/huggingface`); deploy.hf_home sets one.")
    return out


def _launch_section(answers: Answers) -> list[str]:
    launch = launch_for(answers)
    out = ["## Launch", f"From this folder, on {launch.where}:", "```bash", *launch.start, "```"]
    if uses_wandb(answers):
        out.append("`trainer.logger` includes wandb: export `WANDB_API_KEY` first.")
    out += ["", "## Watch", launch.follow + ".", *[f"- `{command}`: {what}" for command, what in launch.watch]]
    if launch.stop:
        out.append(f"- stop early: `{launch.stop}`")
    return out


def _migrated_section(migrated: dict, version: str) -> list[str]:
    """Every change and every dropped key of a launch-script import, so nothing is lost silently."""
    out = [
        f"## Migrated from `{one_line(migrated['source'])}`",
        "",
        f"The run was read from that launch script and carried over to verl {version}.",
    ]
    for title, items, empty in (
        ("Keys changed", migrated.get("changed"), "none"),
        ("Keys dropped (no verl " + version + " equivalent)", migrated.get("dropped"), "none"),
        ("Notes", migrated.get("notes"), None),
    ):
        if items or empty:
            out += ["", f"### {title}", *([f"- {one_line(item)}" for item in items] if items else [f"- {empty}"])]
    return out
