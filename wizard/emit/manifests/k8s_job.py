"""k8s-job.yaml: a single-node batch/v1 Job; verl starts its own Ray instance inside the one container.

The container gets trainer.n_gpus_per_node GPUs, a memory volume at /dev/shm (a container's default is
64 MiB, too small for NCCL), the config.yaml as a ConfigMap, the data volume (deploy.data_volume), and no
retries (backoffLimit 0: a retry would start training over). Ray inside sees the container's CPU limit, so
the command gives verl's Ray instance the CPUs its TransferQueue actors hold on top (unless the config sets
ray_kwargs.ray_init.num_cpus itself).
"""

from __future__ import annotations

from typing import Any

from wizard.core.answers.model import Answers
from wizard.core.choices import Target
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import CONFIG_DIR, own_ray_cpus
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
    resources,
    scheduling,
    secret_hint,
)
from wizard.emit.manifests.registry import renders

COMMAND = ["python3", "-m", "verl.trainer.main_ppo", f"--config-path={CONFIG_DIR}", "--config-name=config"]
SHM_VOLUME = "dshm"


@renders(Target.K8S_JOB)
def render_k8s_job(answers: Answers, plan: Plan, config_text: str) -> str:
    d = answers.deploy
    gpus = plan.gpus_per_node
    command = list(COMMAND)
    if d.ray_init_num_cpus is None:
        command.append(f"ray_kwargs.ray_init.num_cpus={own_ray_cpus(answers, plan)}")
    container: dict[str, Any] = {"name": "verl", "image": d.image, "command": command}
    env = container_env(answers, {"RAY_AUTH_MODE": d.auth_mode})
    if env:
        container["env"] = env
    container["resources"] = resources(d.cpus_per_gpu * gpus, d.memory_per_gpu_gib * gpus, gpus)
    data_mounts, data_volumes = data_volume_parts(answers)
    mounts = [config_mount(), *data_mounts]
    volumes = [config_volume(answers), *data_volumes]
    if d.shm_gib:
        mounts.append({"name": SHM_VOLUME, "mountPath": "/dev/shm"})
        volumes.append({"name": SHM_VOLUME, "emptyDir": {"medium": "Memory", "sizeLimit": f"{d.shm_gib}Gi"}})
    container["volumeMounts"] = mounts
    pod_spec: dict[str, Any] = {
        "restartPolicy": "Never",
        **scheduling(answers, True),
        "containers": [container],
        "volumes": volumes,
    }
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": metadata(answers),
        "spec": {
            "backoffLimit": 0,
            "ttlSecondsAfterFinished": d.ttl_seconds,
            "template": {"metadata": {"labels": {"app.kubernetes.io/managed-by": "verl-wizard"}}, "spec": pod_spec},
        },
    }
    header = header_lines(answers, plan, "Kubernetes Job (one node)") + launch_header(answers) + secret_hint(answers)
    return dump_docs([job, config_map(answers, config_text)], header)
