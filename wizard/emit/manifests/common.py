"""Pieces every manifest shares: the header, Kubernetes YAML with readable blocks, env lists, pod resources.

All values that come from the user reach YAML through PyYAML's dumper (quoted as needed) and scripts
through shlex.quote; nothing is pasted into markup by hand.
"""

from __future__ import annotations

import shlex
from typing import Any

import yaml

from wizard import __version__
from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import CONFIG_DIR, config_map_name, k8s_name, node_env, pairs, secret_env_names
from wizard.emit.launch import launch_for
from wizard.emit.yaml_text import one_line

MANAGED_BY = {"app.kubernetes.io/managed-by": "verl-wizard"}
GPU = "nvidia.com/gpu"
CONFIG_VOLUME = "verl-config"
DATA_VOLUME = "verl-data"


# libyaml when present: much faster (a base chosen at import time, which mypy cannot follow)
class _BlockDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """SafeDumper that writes multi-line strings (config.yaml) as literal blocks."""


def _str(dumper, value: str):
    style = "|" if "\n" in value and not any(line != line.rstrip() for line in value.splitlines()) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str)


def dump_docs(docs: list[dict[str, Any]], header: list[str]) -> str:
    """Header comment lines, then the documents separated by ---."""
    body = "---\n".join(
        yaml.dump(d, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=10**6) for d in docs
    )
    return "".join(f"# {one_line(line)}\n" for line in header) + body


def header_lines(answers: Answers, plan: Plan, what: str) -> list[str]:
    return [
        f"{what} for experiment {answers.trainer.experiment_name} (verl {verl_schema.TARGET_VERSION}), written by verl-wizard {__version__}.",
        f"Ray nodes with GPUs: {plan.nnodes} x {plan.gpus_per_node} = trainer.nnodes x trainer.n_gpus_per_node in config.yaml"
        + (f" ({plan.total_gpus} GPUs with the split pools)" if len(plan.pools) > 1 else "")
        + ".",
        "Regenerate with verl-wizard new --answers answers.yaml rather than editing counts here; `verl-wizard check` reads it back.",
    ]


def metadata(answers: Answers, name: str | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name or k8s_name(answers)}
    if answers.deploy.namespace is not None:
        meta["namespace"] = answers.deploy.namespace
    meta["labels"] = dict(MANAGED_BY)
    return meta


def config_map(answers: Answers, config_text: str) -> dict[str, Any]:
    """The run's config.yaml as a ConfigMap, mounted read-only at CONFIG_DIR where the entrypoint reads it."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": metadata(answers, config_map_name(answers)),
        "data": {"config.yaml": config_text},
    }


def container_env(answers: Answers, extra: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Literal variables for every container, then each secret as a secretKeyRef (never a value)."""
    env = {**node_env(answers), **(extra or {})}
    items: list[dict[str, Any]] = [{"name": k, "value": v} for k, v in env.items()]
    for name in secret_env_names(answers):
        items.append({"name": name, "valueFrom": {"secretKeyRef": {"name": answers.deploy.k8s_secret, "key": name}}})
    return items


def resources(cpus: int, memory_gib: int, gpus: int) -> dict[str, Any]:
    """Requests equal to limits (Kubernetes requires it for GPUs; it also gives the pod guaranteed QoS)."""
    amounts: dict[str, str] = {"cpu": str(cpus), "memory": f"{memory_gib}Gi"}
    if gpus:
        amounts[GPU] = str(gpus)
    return {"limits": dict(amounts), "requests": dict(amounts)}


def config_mount() -> dict[str, Any]:
    return {"name": CONFIG_VOLUME, "mountPath": CONFIG_DIR, "readOnly": True}


def config_volume(answers: Answers) -> dict[str, Any]:
    return {"name": CONFIG_VOLUME, "configMap": {"name": config_map_name(answers)}}


def data_volume_parts(answers: Answers) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(volumeMounts, volumes) of the data volume: a PersistentVolumeClaim by name, or a host folder."""
    d = answers.deploy
    if not d.data_volume:
        return [], []
    if d.data_volume.startswith("/"):
        source: dict[str, Any] = {"hostPath": {"path": d.data_volume, "type": "Directory"}}
    else:
        source = {"persistentVolumeClaim": {"claimName": d.data_volume}}
    return [{"name": DATA_VOLUME, "mountPath": d.data_mount}], [{"name": DATA_VOLUME, **source}]


def launch_header(answers: Answers) -> list[str]:
    """The manifest's header lines that say how to launch, watch and stop it (the commands of RUN.md)."""
    launch = launch_for(answers)
    lines = ["Launch (from this folder): " + "; then ".join(launch.start)]
    if launch.watch:
        lines.append("Watch: " + "; ".join(command for command, _ in launch.watch))
    if launch.stop:
        lines.append(f"Stop: {launch.stop}")
    return lines


def scheduling(answers: Answers, gpu: bool) -> dict[str, Any]:
    """Toleration and nodeSelector for GPU pods, when the answers ask for them."""
    if not gpu:
        return {}
    out: dict[str, Any] = {}
    if answers.deploy.gpu_toleration:
        out["tolerations"] = [{"key": GPU, "operator": "Exists", "effect": "NoSchedule"}]
    if answers.deploy.node_selector:
        out["nodeSelector"] = pairs(answers.deploy.node_selector)
    return out


def shell_comment(text: str) -> str:
    """A comment line that stays one line and shows user text quoted."""
    return "# " + one_line(text)


def q(value: Any) -> str:
    return shlex.quote(str(value))


def secret_hint(answers: Answers) -> list[str]:
    """A header line saying which Secret the pods read and how to make it (no value is ever written)."""
    names = secret_env_names(answers)
    if not names:
        return []
    literals = " ".join(f'--from-literal={n}="${n}"' for n in names)
    return [
        f"Needs the Secret {answers.deploy.k8s_secret} (keys {', '.join(names)}): kubectl create secret generic "
        f"{answers.deploy.k8s_secret} {literals}"
    ]


def ns_flag(answers: Answers) -> str:
    return f" -n {answers.deploy.namespace}" if answers.deploy.namespace else ""
