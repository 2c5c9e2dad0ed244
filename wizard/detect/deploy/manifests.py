"""Read a deployment manifest for `check`: what it provides (DeployFacts) and the config it carries.

Kubernetes YAML (a RayJob or RayCluster of KubeRay, a Job or Pod, with the run's config.yaml as a
ConfigMap) is read here; job.sbatch and ray-job.sh scripts in wizard.detect.deploy.scripts. The config
comes from the ConfigMap's config.yaml, else a config.yaml beside the manifest, else the overrides on the
entrypoint/command line. The facts go to the DEPLOY rules as ctx.deploy, so a hand-edited manifest is
judged by the same code as a fresh one.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from wizard.core.choices import Target
from wizard.core.rules.deploy.facts import TOKEN_LOCAL, DeployFacts, NodeGroup, kuberay_token_source
from wizard.core.targets import target_of_kind
from wizard.detect.config import yaml_input
from wizard.detect.config.basics import CheckInput
from wizard.detect.config.files import read_launch_script, read_text, read_yaml_config
from wizard.detect.deploy.manifest_input import ManifestInput
from wizard.detect.deploy.scripts import read_script_manifest
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg, render

TARGET_OF_KIND = target_of_kind()  # Kubernetes kind -> the target it is read as (each target's spec names its kinds)
GPU_KEYS = ("nvidia.com/gpu", "amd.com/gpu")
_QTY = re.compile(r"^([0-9.]+)(m|k|Ki|M|Mi|G|Gi|T|Ti)?$")


def looks_like_manifest(path: Path, text: str) -> bool:
    """A Kubernetes manifest (apiVersion + kind), a Slurm batch script, or a `ray job submit` script."""
    if path.suffix in (".yaml", ".yml", ".json"):
        try:
            return any(isinstance(d, dict) and "apiVersion" in d and "kind" in d for d in yaml_input.load_all(text))
        except (yaml.YAMLError, yaml_input.YAMLShapeError):
            return False
    return bool(re.search(r"^#SBATCH\s", text, re.M) or re.search(r"^[^#\n]*\bray\s+job\s+submit\b", text, re.M))


def read_if_manifest(path: Path, env: dict | None = None, args: list | None = None) -> ManifestInput | None:
    """The manifest at path read for `check`, or None when the file is not a manifest (or cannot be read here).

    `env` and `args` are a script's environment (--env) and arguments (-- ARG...), for job.sbatch and ray-job.sh.
    """
    try:
        text = read_text(path)
    except UsageError:
        return None  # read_check_input reports it in its own words
    return read_manifest(path, env, args) if looks_like_manifest(path, text) else None


def read_manifest(path: Path, env: dict | None = None, args: list | None = None) -> ManifestInput:
    """Read a manifest file into a ManifestInput; UsageError (one line) when it cannot be used."""
    text = read_text(path)
    if path.suffix in (".yaml", ".yml", ".json"):
        return read_k8s(path, text)

    return read_script_manifest(path, text, env, args)


def quantity(value: Any) -> float | None:
    """A Kubernetes quantity ("32", "500m", 8) as a number of units; None when absent or unreadable."""
    if value is None:
        return None
    m = _QTY.match(str(value).strip())
    if not m:
        return None
    number = float(m.group(1))
    return number / 1000 if m.group(2) == "m" else number


def _container_env(container: dict) -> tuple[dict[str, str], dict[str, str]]:
    literal, secret = {}, {}
    for item in container.get("env") or []:
        if not isinstance(item, dict) or "name" not in item:
            continue
        ref = (item.get("valueFrom") or {}).get("secretKeyRef") or {}
        if ref:
            secret[str(item["name"])] = f"{ref.get('name')}/{ref.get('key')}"
        elif "value" in item:
            literal[str(item["name"])] = str(item["value"])
    return literal, secret


TOKEN_IN_MANIFEST = msg("deploy.token.in_manifest")


def _auth_of(literal: dict, secret: dict, default_mode, default_source):
    """The Ray auth mode and token source a container ends up with (its env wins over authOptions)."""
    mode = literal.get("RAY_AUTH_MODE", default_mode)
    if "RAY_AUTH_TOKEN" in secret:
        source = msg("deploy.token.secret", name=secret["RAY_AUTH_TOKEN"].split("/")[0])
    elif "RAY_AUTH_TOKEN" in literal:
        source = TOKEN_IN_MANIFEST
    elif "RAY_AUTH_TOKEN_PATH" in literal:
        source = msg("deploy.token.file", path=literal["RAY_AUTH_TOKEN_PATH"])
    else:
        source = default_source
    return mode, source


class _K8sReader:
    """Collects facts over the documents of one Kubernetes manifest file."""

    def __init__(self, path: Path, docs: list[dict]):
        self.path, self.docs = path, docs
        self.names: list[tuple[str, str]] = []
        self.addresses: list[tuple[str, str, str]] = []
        self.images: list[str] = []
        self.inline: list[str | Msg] = []

    def group(self, spec: dict, role: str, where, replicas: int, auth: tuple) -> tuple[NodeGroup, dict, dict]:
        pod = (spec.get("template") or {}).get("spec") or {}
        containers = [c for c in pod.get("containers") or [] if isinstance(c, dict)]
        c = containers[0] if containers else {}
        res = c.get("resources") or {}
        limits, requests = res.get("limits") or {}, res.get("requests") or {}
        params = spec.get("rayStartParams") or {}
        gpus = next((quantity(limits.get(k, requests.get(k))) for k in GPU_KEYS if k in limits or k in requests), None)
        gpus = quantity(params["num-gpus"]) if "num-gpus" in params else gpus
        cpus = (
            quantity(params["num-cpus"]) if "num-cpus" in params else quantity(limits.get("cpu", requests.get("cpu")))
        )
        literal, secret = _container_env(c)
        self.names.extend(("Secret", ref.split("/")[0]) for ref in secret.values())
        for other in containers:
            self.images.append(str(other.get("image", "")))
        if "RAY_ADDRESS" in literal:
            # a path, not a message: said the same in every language
            self.addresses.append(("ray-init", literal["RAY_ADDRESS"], f"{render(where, 'en')} env RAY_ADDRESS"))
        mode, source = _auth_of(literal, secret, *auth)
        if source == TOKEN_IN_MANIFEST:
            self.inline.append(msg("deploy.place.env_of", where=where, name="RAY_AUTH_TOKEN"))
        g = NodeGroup(role, replicas, int(gpus or 0), cpus, literal, secret, mode, source, where)
        return g, literal, secret

    def ray(self, doc: dict) -> DeployFacts:
        kind, spec = doc["kind"], doc.get("spec") or {}
        cluster = (spec.get("rayClusterSpec") or {}) if kind == "RayJob" else spec
        auth = cluster.get("authOptions") or {}
        mode = auth.get("mode")
        if mode == "token" and auth.get("secretName"):
            self.names.append(("Secret", str(auth["secretName"])))
        default = (mode, kuberay_token_source(auth.get("secretName")) if mode == "token" else None)
        head, head_env, _ = self.group(cluster.get("headGroupSpec") or {}, "head", "headGroupSpec", 1, default)
        groups = [head]
        for i, w in enumerate(cluster.get("workerGroupSpecs") or []):
            replicas = w.get("replicas", w.get("minReplicas", 0))
            hosts = w.get("numOfHosts", 1)
            count = replicas * hosts if isinstance(replicas, int) and isinstance(hosts, int) else 0
            groups.append(self.group(w, "worker", f"workerGroupSpecs[{i}]", count, default)[0])
        driver_env = dict(head_env)
        if kind == "RayJob":
            try:
                runtime = yaml_input.load_one(spec.get("runtimeEnvYAML") or "") or {}
            except (yaml.YAMLError, yaml_input.YAMLShapeError):
                runtime = {}
            driver_env.update(
                {
                    str(k): str(v)
                    for k, v in ((runtime.get("env_vars") or {}) if isinstance(runtime, dict) else {}).items()
                }
            )
            sub = (((spec.get("submitterPodTemplate") or {}).get("spec") or {}).get("containers") or [{}])[0]
            sub_literal, sub_secret = _container_env(sub if isinstance(sub, dict) else {})
            d_mode, d_source = _auth_of(sub_literal, sub_secret, *default)
            where = msg("deploy.place.submitter")
        else:
            d_mode, d_source, where = head.auth_mode, head.token_source, msg("deploy.place.driver_exec")
        return DeployFacts(
            target=TARGET_OF_KIND[kind],
            origin="manifest",
            source=str(self.path),
            groups=tuple(groups),
            driver_env=driver_env,
            driver_auth_mode=d_mode,
            driver_token_source=d_source,
            driver_where=where,
            entrypoint=spec.get("entrypoint") if kind == "RayJob" else None,
            joins_cluster=True,
        )

    def plain(self, doc: dict) -> DeployFacts:
        kind = doc["kind"]
        pod = ((doc.get("spec") or {}).get("template") or {}).get("spec") if kind == "Job" else doc.get("spec")
        pod = pod or {}
        container = msg("deploy.place.container_unnamed", kind=kind)
        g, literal, _ = self.group({"template": {"spec": pod}}, "head", container, 1, (None, None))
        num_cpus = _ray_init_num_cpus(pod)
        if num_cpus is not None:  # verl's own Ray instance gets these CPUs, whatever the container's limit
            g = replace(g, cpus=num_cpus)
        if g.auth_mode == "token" and g.token_source is None:
            g = replace(g, token_source=TOKEN_LOCAL)  # verl's ray.init starts Ray in this container and makes the token
        shm_volumes = {
            v.get("name")
            for v in pod.get("volumes") or []
            if isinstance(v, dict) and ((v.get("emptyDir") or {}).get("medium") == "Memory")
        }
        missing = []
        for c in pod.get("containers") or []:
            mounts = [m for m in c.get("volumeMounts") or [] if isinstance(m, dict)]
            if not any(m.get("mountPath") == "/dev/shm" and m.get("name") in shm_volumes for m in mounts):
                missing.append(msg("deploy.place.container", kind=kind, name=c.get("name", "?")))
        return DeployFacts(
            target=Target.K8S_JOB.value,
            origin="manifest",
            source=str(self.path),
            groups=(g,),
            driver_env=literal,
            driver_auth_mode=g.auth_mode,
            driver_token_source=g.token_source,
            driver_where=container,
            shm_missing=tuple(missing),
        )

    def read(self) -> tuple[DeployFacts, dict]:
        main = next((d for d in self.docs if d.get("kind") in TARGET_OF_KIND), None)
        if main is None:
            kinds = ", ".join(str(d.get("kind")) for d in self.docs) or "nothing"
            raise UsageError(
                f"{self.path}: holds {kinds}; check reads a RayJob, RayCluster, Job or Pod (with its config)"
            )
        for d in self.docs:
            meta = d.get("metadata") or {}
            if meta.get("name") is not None:
                self.names.append((str(d.get("kind")), str(meta["name"])))
            if meta.get("namespace") is not None:
                self.names.append(("Namespace", str(meta["namespace"])))
            if d.get("kind") == "Secret" and (d.get("data") or d.get("stringData")):
                self.inline.append(f"Secret {meta.get('name', '?')}")
        facts = self.ray(main) if main["kind"] in ("RayJob", "RayCluster") else self.plain(main)
        facts = replace(
            facts,
            mounts=tuple(sorted(set(_mount_paths(main)))),
            names=tuple(sorted(set(self.names))),
            addresses=tuple(self.addresses),
            images=tuple(dict.fromkeys(self.images)),
            inline_secrets=tuple(self.inline),
        )
        return facts, main


def _mount_paths(node: Any) -> list[str]:
    """Every volumeMounts mountPath anywhere in a manifest document (the folders its pods see)."""
    out: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "volumeMounts" and isinstance(value, list):
                out += [str(m["mountPath"]) for m in value if isinstance(m, dict) and m.get("mountPath")]
            else:
                out += _mount_paths(value)
    elif isinstance(node, list):
        for item in node:
            out += _mount_paths(item)
    return out


def _ray_init_num_cpus(pod: dict) -> float | None:
    """ray_kwargs.ray_init.num_cpus=N on a container's verl command line, if any."""
    for c in pod.get("containers") or []:
        if not isinstance(c, dict):
            continue
        for word in [str(w) for w in (c.get("command") or []) + (c.get("args") or [])]:
            key, sep, value = word.lstrip("+").partition("=")
            if sep and key == "ray_kwargs.ray_init.num_cpus":
                return quantity(value)
    return None


def _command_text(main: dict) -> str | None:
    if main["kind"] == "RayJob":
        return (main.get("spec") or {}).get("entrypoint")
    pod = ((main.get("spec") or {}).get("template") or {}).get("spec") if main["kind"] == "Job" else main.get("spec")
    for c in (pod or {}).get("containers") or []:
        words = [str(w) for w in (c.get("command") or []) + (c.get("args") or [])]
        if any("verl.trainer.main_ppo" in w for w in words):
            return shlex.join(words)
    return None


def config_for(path: Path, docs: list[dict], main: dict) -> CheckInput:
    """The config the manifest runs: its ConfigMap's config.yaml, a config.yaml beside it, or its command's overrides."""
    for d in docs:
        text = (d.get("data") or {}).get("config.yaml") if d.get("kind") == "ConfigMap" else None
        if isinstance(text, str):
            found = read_yaml_config(path, text)
            found.notes.insert(0, f"config from the ConfigMap {(d.get('metadata') or {}).get('name')}")
            return found
    beside = path.parent / "config.yaml"
    if beside.is_file() and beside != path:
        found = read_yaml_config(beside, read_text(beside))
        found.notes.insert(0, f"config from {beside}")
        return found
    command = _command_text(main)
    if command and "verl.trainer.main_ppo" in command:
        return read_launch_script(path, command)
    return CheckInput(
        "manifest", {}, [f"{path} carries no config.yaml and no verl overrides; compared with verl's defaults"]
    )


def read_k8s(path: Path, text: str) -> ManifestInput:
    try:
        docs = [d for d in yaml_input.load_all(text) if isinstance(d, dict)]
    except yaml_input.YAMLShapeError as exc:
        raise UsageError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise UsageError(f"{path}: YAML syntax error{f' at line {mark.line + 1}' if mark else ''}") from None
    facts, main = _K8sReader(path, docs).read()
    config = config_for(path, docs, main)
    flat = dict(config.flat)
    flat["deploy.target"] = facts.target
    return ManifestInput(f"{main['kind']} manifest", flat, config.notes, config.script, deploy=facts)
