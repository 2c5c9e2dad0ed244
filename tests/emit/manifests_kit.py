"""Helpers for the manifest tests: render a preset for a target, and check manifests the way the cluster would.

Core kinds (Job, ConfigMap, and every pod template inside a Ray kind, validated as a Pod) go through
kubernetes-validate in strict mode. KubeRay kinds get structural checks written from KubeRay 1.7's CRD and
its operator rules (field names, int replicas with min <= replicas <= max, string rayStartParams, GPU
requests equal to limits, name limits, ttl only with shutdown, a single-command entrypoint). CI also runs
the full CRD schema through ../shared/tools/check-manifests; these tests never read ../shared.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import yaml

from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules import context_for, evaluate
from wizard.core.targets import names_where
from wizard.emit.artifacts import render_artifacts

TARGETS = names_where(lambda s: s.manifest is not None)  # every target with a manifest of its own
K8S_VERSION = "1.33"
RAYJOB_SPEC = {
    "activeDeadlineSeconds",
    "backoffLimit",
    "clusterSelector",
    "deletionStrategy",
    "entrypoint",
    "entrypointNumCpus",
    "entrypointNumGpus",
    "entrypointResources",
    "jobId",
    "managedBy",
    "metadata",
    "preRunningDeadlineSeconds",
    "rayClusterSpec",
    "runtimeEnvYAML",
    "shutdownAfterJobFinishes",
    "submissionMode",
    "submitterConfig",
    "submitterPodTemplate",
    "suspend",
    "ttlSecondsAfterFinished",
}
CLUSTER_SPEC = {
    "authOptions",
    "autoscalerOptions",
    "enableInTreeAutoscaling",
    "gcsFaultToleranceOptions",
    "headGroupSpec",
    "headServiceAnnotations",
    "historyServerOptions",
    "managedBy",
    "networkPolicy",
    "rayVersion",
    "suspend",
    "tlsOptions",
    "upgradeStrategy",
    "workerGroupSpecs",
}
HEAD_KEYS = {
    "enableIngress",
    "headService",
    "ingressOptions",
    "labels",
    "rayStartParams",
    "resources",
    "serviceType",
    "template",
}
WORKER_KEYS = {
    "groupName",
    "idleTimeoutSeconds",
    "labels",
    "maxReplicas",
    "minReplicas",
    "numOfHosts",
    "priority",
    "rayStartParams",
    "replicas",
    "resources",
    "scaleStrategy",
    "suspend",
    "template",
}
SUBMISSION_MODES = {"K8sJobMode", "HTTPMode", "InteractiveMode", "SidecarMode"}
NAME_LIMIT = {"RayJob": 47, "RayCluster": 53}
DNS_1035 = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def layered_for(preset: str, **values: Any):
    return build([("preset", load_preset(preset).values), ("--set", dict(values))])


def render(preset: str, target: str, **values: Any) -> tuple[dict[str, str], list]:
    """(files, findings) for a preset rendered for target; files is empty when an error blocks writing."""
    layered = layered_for(preset, **{"deploy.target": target, **values})
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    findings = evaluate(ctx)
    if any(f.severity.value == "error" for f in findings):
        return {}, findings
    return render_artifacts(layered, ctx.plan, findings), findings


def docs_of(text: str) -> list[dict]:
    return [d for d in yaml.safe_load_all(text) if d]


def pod_templates(doc: dict) -> list[tuple[str, dict]]:
    if doc["kind"] == "Job":
        return [("Job", doc["spec"]["template"])]
    cluster = doc["spec"]["rayClusterSpec"] if doc["kind"] == "RayJob" else doc["spec"]
    found = [("headGroupSpec", cluster["headGroupSpec"]["template"])]
    found += [(f"workerGroupSpecs[{i}]", g["template"]) for i, g in enumerate(cluster.get("workerGroupSpecs") or [])]
    return found


def kubernetes_problems(doc: dict) -> list[str]:
    """kubernetes-validate (strict) on a core kind, or on each pod template of a Ray kind as a Pod."""
    import kubernetes_validate

    targets = (
        [("", doc)]
        if doc["kind"] in ("Job", "ConfigMap", "Pod", "Secret")
        else [
            (where, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "template"}, "spec": tpl["spec"]})
            for where, tpl in pod_templates(doc)
        ]
    )
    problems = []
    for where, item in targets:
        try:
            kubernetes_validate.validate(item, K8S_VERSION, strict=True)
        except Exception as exc:  # ValidationError, SchemaNotFoundError: both mean "not valid here"
            problems.append(f"{doc['kind']} {where}: {str(exc).splitlines()[0]}")
    return problems


def _gpu_pairs(tpl: dict) -> list[tuple]:
    out = []
    for c in tpl["spec"]["containers"]:
        res = c.get("resources") or {}
        out.append(((res.get("limits") or {}).get("nvidia.com/gpu"), (res.get("requests") or {}).get("nvidia.com/gpu")))
    return out


def kuberay_problems(doc: dict) -> list[str]:
    """KubeRay's CRD field names and the operator rules the schema cannot express."""
    problems = []
    if doc.get("apiVersion") != "ray.io/v1":
        problems.append(f"apiVersion {doc.get('apiVersion')}")
    name = doc["metadata"]["name"]
    if not DNS_1035.match(name) or len(name) > NAME_LIMIT[doc["kind"]]:
        problems.append(f"name {name!r}")
    spec = doc["spec"]
    cluster = spec.get("rayClusterSpec") if doc["kind"] == "RayJob" else spec
    if doc["kind"] == "RayJob":
        problems += [f"RayJob spec field {k}" for k in set(spec) - RAYJOB_SPEC]
        if re.search(r"(;|&&|\|)", spec.get("entrypoint", "")):
            problems.append("entrypoint chains commands")
        if spec.get("ttlSecondsAfterFinished") and spec.get("shutdownAfterJobFinishes") is not True:
            problems.append("ttl without shutdownAfterJobFinishes")
        if spec.get("submissionMode", "K8sJobMode") not in SUBMISSION_MODES:
            problems.append("submissionMode")
        if "runtimeEnvYAML" in spec and not isinstance(spec["runtimeEnvYAML"], str):
            problems.append("runtimeEnvYAML is not a string")
    problems += [f"cluster spec field {k}" for k in set(cluster) - CLUSTER_SPEC]
    auth = cluster.get("authOptions") or {}
    if set(auth) - {"mode", "secretName", "enableK8sTokenAuth"} or auth.get("mode", "token") not in (
        "token",
        "disabled",
    ):
        problems.append(f"authOptions {auth}")
    head = cluster["headGroupSpec"]
    problems += [f"headGroupSpec field {k}" for k in set(head) - HEAD_KEYS]
    groups = [head] + list(cluster.get("workerGroupSpecs") or [])
    for i, g in enumerate(cluster.get("workerGroupSpecs") or []):
        problems += [f"worker field {k}" for k in set(g) - WORKER_KEYS]
        r, lo, hi = g.get("replicas"), g.get("minReplicas"), g.get("maxReplicas")
        if (
            not g.get("groupName")
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in (r, lo, hi))
            or not lo <= r <= hi
        ):
            problems.append(f"workerGroupSpecs[{i}] replicas/min/max {r}/{lo}/{hi}")
    for g in groups:
        params = g.get("rayStartParams", {})
        if not isinstance(params, dict) or any(not isinstance(v, str) for v in params.values()):
            problems.append(f"rayStartParams {params}")
        if not g["template"]["spec"].get("containers"):
            problems.append("a group without containers")
        problems += [
            f"GPU requests {req} != limits {lim}"
            for lim, req in _gpu_pairs(g["template"])
            if req is not None and str(req) != str(lim)
        ]
    return problems


def bash_syntax(path: Path) -> str:
    proc = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    return proc.stderr.strip() if proc.returncode else ""
