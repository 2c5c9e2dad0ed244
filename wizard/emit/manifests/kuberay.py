"""KubeRay (ray.io/v1) manifests: a RayJob (cluster made for the run, deleted after it) or a RayCluster.

One head and at most one GPU worker group; GPUs per pod = trainer.n_gpus_per_node, and the GPU pods add
up to the nodes verl's pools need (the head is one of them unless deploy.gpu_head is false). KubeRay
derives `ray start --num-gpus/--num-cpus` from the container limits, so rayStartParams stays empty. The
run's config.yaml travels as a ConfigMap (the second document), mounted where the entrypoint reads it.
Token authentication is KubeRay 1.5+'s spec.authOptions: the operator makes (or uses) one Secret and sets
RAY_AUTH_MODE and RAY_AUTH_TOKEN in every Ray container and the submitter.
"""

from __future__ import annotations

from typing import Any

from wizard.core.answers import Answers
from wizard.core.plan import Plan
from wizard.core.rules.deploy_facts import ENTRYPOINT, container_extra_env, head_has_gpus, k8s_name, worker_replicas
from wizard.emit.manifests.common import (
    config_map,
    config_mount,
    config_volume,
    container_env,
    dump_docs,
    header_lines,
    metadata,
    ns_flag,
    resources,
    scheduling,
    secret_hint,
)

HEAD_PORTS = [
    {"containerPort": 6379, "name": "gcs-server"},
    {"containerPort": 8265, "name": "dashboard"},
    {"containerPort": 10001, "name": "client"},
]
WORKER_GROUP = "gpu-workers"


def _pod(answers: Answers, name: str, gpus: int, cpus: int, memory_gib: int, head: bool) -> dict[str, Any]:
    extra = container_extra_env(answers, gpus)
    container: dict[str, Any] = {"name": name, "image": answers.deploy.image}
    if head:
        container["ports"] = [dict(p) for p in HEAD_PORTS]
    env = container_env(answers, extra)
    if env:
        container["env"] = env
    container["resources"] = resources(cpus, memory_gib, gpus)
    if head:
        container["volumeMounts"] = [config_mount()]
    spec: dict[str, Any] = {**scheduling(answers, gpus > 0), "containers": [container]}
    if head:
        spec["volumes"] = [config_volume(answers)]
    return {"spec": spec}


def cluster_spec(answers: Answers, plan: Plan) -> dict[str, Any]:
    """spec of a RayCluster (and rayClusterSpec of a RayJob)."""
    d = answers.deploy
    per = plan.gpus_per_node
    gpu_cpus, gpu_mem = d.cpus_per_gpu * per, d.memory_per_gpu_gib * per
    if head_has_gpus(answers):
        head = _pod(answers, "ray-head", per, gpu_cpus, gpu_mem, head=True)
    else:
        head = _pod(answers, "ray-head", 0, d.head_cpus, d.head_memory_gib, head=True)
    auth: dict[str, Any] = {"mode": d.auth_mode}
    if d.auth_mode == "token" and d.auth_secret:
        auth["secretName"] = d.auth_secret
    spec: dict[str, Any] = {
        "rayVersion": d.ray_version,
        "authOptions": auth,
        "headGroupSpec": {"rayStartParams": {}, "template": head},
    }
    workers = worker_replicas(answers, plan)
    if workers:
        spec["workerGroupSpecs"] = [
            {
                "groupName": WORKER_GROUP,
                "replicas": workers,
                "minReplicas": workers,
                "maxReplicas": workers,
                "rayStartParams": {},
                "template": _pod(answers, "ray-worker", per, gpu_cpus, gpu_mem, head=False),
            }
        ]
    return spec


def render_rayjob(answers: Answers, plan: Plan, config_text: str) -> str:
    d, name = answers.deploy, k8s_name(answers)
    job = {
        "apiVersion": "ray.io/v1",
        "kind": "RayJob",
        "metadata": metadata(answers),
        "spec": {
            "entrypoint": ENTRYPOINT,
            "submissionMode": "K8sJobMode",
            "shutdownAfterJobFinishes": True,
            "ttlSecondsAfterFinished": d.ttl_seconds,
            "rayClusterSpec": cluster_spec(answers, plan),
        },
    }
    header = (
        header_lines(answers, plan, "KubeRay RayJob")
        + [
            f"Launch: kubectl apply{ns_flag(answers)} -f rayjob.yaml; follow: kubectl logs{ns_flag(answers)} -f job/{name}",
            f"The cluster is deleted {d.ttl_seconds} s after the job ends (ttlSecondsAfterFinished).",
        ]
        + secret_hint(answers)
    )
    return dump_docs([job, config_map(answers, config_text)], header)


def render_raycluster(answers: Answers, plan: Plan, config_text: str) -> str:
    name = k8s_name(answers)
    cluster = {
        "apiVersion": "ray.io/v1",
        "kind": "RayCluster",
        "metadata": metadata(answers),
        "spec": cluster_spec(answers, plan),
    }
    head = f"$(kubectl get pod{ns_flag(answers)} -l ray.io/cluster={name},ray.io/node-type=head -o name)"
    header = (
        header_lines(answers, plan, "KubeRay RayCluster")
        + [
            f"Launch: kubectl apply{ns_flag(answers)} -f raycluster.yaml; then run the driver on the head: "
            f"kubectl exec{ns_flag(answers)} -it {head} -- {ENTRYPOINT}",
            f"The cluster stays up until kubectl delete{ns_flag(answers)} raycluster {name}.",
        ]
        + secret_hint(answers)
    )
    return dump_docs([cluster, config_map(answers, config_text)], header)
