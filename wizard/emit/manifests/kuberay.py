"""KubeRay (ray.io/v1) manifests: a RayJob (cluster made for the run, deleted after it) or a RayCluster.

One head and at most one GPU worker group; GPUs per pod = trainer.n_gpus_per_node, and the GPU pods add
up to the nodes verl's pools need (the head is one of them unless deploy.gpu_head is false). KubeRay
derives `ray start --num-gpus` from the container limits; rayStartParams gives Ray num-cpus = the CPU limit
plus what verl 0.9.1's TransferQueue actors hold (they mostly wait). The run's config.yaml travels as a
ConfigMap (the second document), mounted where the entrypoint reads it; the data volume (deploy.data_volume)
is mounted in every pod.
Token authentication is KubeRay 1.5+'s spec.authOptions: the operator makes (or uses) one Secret and sets
RAY_AUTH_MODE and RAY_AUTH_TOKEN in every Ray container and the submitter.
"""

from __future__ import annotations

from typing import Any

from wizard.core.answers.model import Answers
from wizard.core.choices import Target
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import (
    ENTRYPOINT,
    container_extra_env,
    head_has_gpus,
    k8s_name,
    ray_cpus,
    worker_replicas,
)
from wizard.emit.manifests.common import (
    config_map,
    config_mount,
    config_volume,
    container_env,
    data_volume_parts,
    dump_docs,
    header_lines,
    launch_header,
    metadata,
    ns_flag,
    resources,
    scheduling,
    secret_hint,
)
from wizard.emit.manifests.registry import renders

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
    data_mounts, data_volumes = data_volume_parts(answers)
    mounts = ([config_mount()] if head else []) + data_mounts
    if mounts:
        container["volumeMounts"] = mounts
    spec: dict[str, Any] = {**scheduling(answers, gpus > 0), "containers": [container]}
    volumes = ([config_volume(answers)] if head else []) + data_volumes
    if volumes:
        spec["volumes"] = volumes
    return {"spec": spec}


def _start_params(answers: Answers, plan: Plan, own_cpus: int) -> dict[str, str]:
    return {"num-cpus": str(ray_cpus(answers, plan, own_cpus))}


def cluster_spec(answers: Answers, plan: Plan) -> dict[str, Any]:
    """spec of a RayCluster (and rayClusterSpec of a RayJob)."""
    d = answers.deploy
    per = plan.gpus_per_node
    gpu_cpus, gpu_mem = d.cpus_per_gpu * per, d.memory_per_gpu_gib * per
    if head_has_gpus(answers):
        head = _pod(answers, "ray-head", per, gpu_cpus, gpu_mem, head=True)
        head_params = _start_params(answers, plan, gpu_cpus)
    else:
        head = _pod(answers, "ray-head", 0, d.head_cpus, d.head_memory_gib, head=True)
        head_params = _start_params(answers, plan, d.head_cpus)
    auth: dict[str, Any] = {"mode": d.auth_mode}
    if d.auth_mode == "token" and d.auth_secret:
        auth["secretName"] = d.auth_secret
    spec: dict[str, Any] = {
        "rayVersion": d.ray_version,
        "authOptions": auth,
        "headGroupSpec": {"rayStartParams": head_params, "template": head},
    }
    workers = worker_replicas(answers, plan)
    if workers:
        spec["workerGroupSpecs"] = [
            {
                "groupName": WORKER_GROUP,
                "replicas": workers,
                "minReplicas": workers,
                "maxReplicas": workers,
                "rayStartParams": _start_params(answers, plan, gpu_cpus),
                "template": _pod(answers, "ray-worker", per, gpu_cpus, gpu_mem, head=False),
            }
        ]
    return spec


@renders(Target.KUBERAY_JOB)
def render_rayjob(answers: Answers, plan: Plan, config_text: str) -> str:
    d = answers.deploy
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
        + launch_header(answers)
        + [f"The cluster is deleted {d.ttl_seconds} s after the job ends (ttlSecondsAfterFinished)."]
        + secret_hint(answers)
    )
    return dump_docs([job, config_map(answers, config_text)], header)


@renders(Target.KUBERAY_CLUSTER)
def render_raycluster(answers: Answers, plan: Plan, config_text: str) -> str:
    name = k8s_name(answers)
    cluster = {
        "apiVersion": "ray.io/v1",
        "kind": "RayCluster",
        "metadata": metadata(answers),
        "spec": cluster_spec(answers, plan),
    }
    header = (
        header_lines(answers, plan, "KubeRay RayCluster")
        + launch_header(answers)
        + [f"The cluster stays up until kubectl delete{ns_flag(answers)} raycluster {name}."]
        + secret_hint(answers)
    )
    return dump_docs([cluster, config_map(answers, config_text)], header)
