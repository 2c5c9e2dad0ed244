"""Every preset for every target: valid manifests (kubernetes-validate strict, KubeRay structure, bash -n),
and a manifest that follows the config when nnodes / n_gpus_per_node change."""

from __future__ import annotations

import re

import pytest
import yaml

from tests.emit.manifests_kit import (
    TARGETS,
    bash_syntax,
    docs_of,
    kuberay_problems,
    kubernetes_problems,
    pod_templates,
    render,
)
from wizard.core.presets import load_preset, preset_names
from wizard.emit.manifests import FILES

CASES = [(p, t) for p in preset_names() for t in TARGETS]


@pytest.mark.parametrize("preset,target", CASES)
def test_every_preset_renders_a_valid_manifest_for_every_target(preset, target, tmp_path):
    files, findings = render(preset, target)
    if target == "k8s-job" and load_preset(preset).nnodes > 1:
        # One Pod cannot hold several nodes: the rule says so and nothing is written.
        assert files == {} and "DEPLOY-004" in {f.id for f in findings if f.severity.value == "error"}
        return
    assert files, [f.message for f in findings if f.severity.value == "error"]
    name = FILES[target]
    assert name in files and "config.yaml" in files
    (tmp_path / name).write_text(files[name])
    if name.endswith((".sh", ".sbatch")):
        assert bash_syntax(tmp_path / name) == ""
        assert "CUDA_VISIBLE_DEVICES=" not in files[name] and "NCCL_P2P_DISABLE" not in files[name]
        assert "NCCL_IB_DISABLE" not in files[name]
        return
    docs = docs_of(files[name])
    assert [d["kind"] for d in docs][-1] == "ConfigMap"
    for doc in docs:
        assert kubernetes_problems(doc) == []
        if doc["kind"] in ("RayJob", "RayCluster"):
            assert kuberay_problems(doc) == []
    config = docs[-1]["data"]["config.yaml"]
    assert config == files["config.yaml"], "the ConfigMap carries config.yaml as written"
    text = files[name]
    for banned in ("CUDA_VISIBLE_DEVICES", "NCCL_P2P_DISABLE", "NCCL_IB_DISABLE", "RAY_EXPERIMENTAL_NOSET"):
        assert banned not in text


def test_the_structural_checks_can_fail():
    files, _ = render("grpo-7b-2x8", "kuberay-job")
    doc = docs_of(files["rayjob.yaml"])[0]
    worker = doc["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]
    worker["replicas"], worker["rayStartParams"] = "1", {"num-gpus": 8}
    worker["template"]["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"] = "4"
    worker["template"]["spec"]["containers"][0]["volumeMount"] = []
    doc["spec"]["entrypoint"] += " | tee log"
    doc["metadata"]["name"] = "x" * 48
    problems = " / ".join(kuberay_problems(doc) + kubernetes_problems(doc))
    for expected in ("replicas/min/max", "rayStartParams", "GPU requests", "entrypoint chains", "name", "volumeMount"):
        assert expected in problems


def _kuberay_shape(doc: dict) -> tuple[int, list[int]]:
    """(GPU pods, GPUs of each GPU pod) of a RayJob/RayCluster."""
    gpus = []
    for where, tpl in pod_templates(doc):
        limit = int(tpl["spec"]["containers"][0]["resources"]["limits"].get("nvidia.com/gpu", 0))
        count = 1
        if where.startswith("worker"):
            cluster = doc["spec"].get("rayClusterSpec", doc["spec"])
            count = cluster["workerGroupSpecs"][int(where[-2])]["replicas"]
        gpus += [limit] * count if limit else []
    return len(gpus), gpus


@pytest.mark.parametrize("nnodes,per_node", [(3, 4), (1, 2), (4, 8)])
@pytest.mark.parametrize("target", TARGETS)
def test_every_target_follows_nnodes_and_gpus_per_node(target, nnodes, per_node):
    if target == "k8s-job" and nnodes > 1:
        nnodes = 1
    files, findings = render(
        "grpo-8b-1x8",
        target,
        **{
            "trainer.nnodes": nnodes,
            "trainer.n_gpus_per_node": per_node,
            "actor_rollout_ref.rollout.tensor_model_parallel_size": 2,
            "data.train_batch_size": 4 * nnodes * per_node,
            "actor_rollout_ref.actor.ppo_mini_batch_size": nnodes * per_node,
        },
    )
    assert files, [f.message for f in findings if f.severity.value == "error"]
    config = yaml.safe_load(files["config.yaml"])
    assert config["trainer"].get("nnodes", 1) == nnodes and config["trainer"].get("n_gpus_per_node", 8) == per_node
    text = files[FILES[target]]
    if target in ("kuberay-job", "kuberay-cluster"):
        docs = docs_of(text)
        assert _kuberay_shape(docs[0]) == (nnodes, [per_node] * nnodes)
        assert yaml.safe_load(docs[-1]["data"]["config.yaml"]) == config
    elif target == "k8s-job":
        job = docs_of(text)[0]
        assert job["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == str(
            per_node
        )
    elif target == "slurm":
        assert re.search(rf"^#SBATCH --nodes={nnodes}$", text, re.M) and re.search(
            rf"^#SBATCH --gpus-per-node={per_node}$", text, re.M
        )
        assert f"\nNNODES={nnodes} " in text and f"\nGPUS_PER_NODE={per_node} " in text
        assert re.search(rf"^#SBATCH --cpus-per-task={4 * per_node}$", text, re.M)
    else:
        assert f"Ray nodes with GPUs: {nnodes} x {per_node} " in text


def test_a_cpu_head_adds_a_pod_and_keeps_every_gpu_node():
    files, _ = render("grpo-7b-2x8", "kuberay-job", **{"deploy.gpu_head": False})
    doc = docs_of(files["rayjob.yaml"])[0]
    cluster = doc["spec"]["rayClusterSpec"]
    head = cluster["headGroupSpec"]["template"]["spec"]["containers"][0]
    assert "nvidia.com/gpu" not in head["resources"]["limits"]
    assert {"name": "NVIDIA_VISIBLE_DEVICES", "value": "void"} in head["env"]
    assert cluster["workerGroupSpecs"][0]["replicas"] == 2 and _kuberay_shape(doc) == (2, [8, 8])


def test_options_reach_the_pods_and_secrets_stay_references():
    files, _ = render(
        "grpo-7b-2x8",
        "kuberay-cluster",
        **{
            "deploy.gpu_toleration": True,
            "deploy.node_selector": ["nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3"],
            "deploy.nccl_socket_ifname": "=eth0",
            "deploy.gloo_socket_ifname": "eth0",
            "deploy.secret_env": ["HF_TOKEN"],
            "deploy.namespace": "ml-team",
            "deploy.auth_secret": "ray-token",
            "deploy.cpus_per_gpu": 6,
            "deploy.memory_per_gpu_gib": 100,
        },
    )
    doc = docs_of(files["raycluster.yaml"])[0]
    assert doc["metadata"]["namespace"] == "ml-team"
    assert doc["spec"]["authOptions"] == {"mode": "token", "secretName": "ray-token"}
    for _, tpl in pod_templates(doc):
        spec, container = tpl["spec"], tpl["spec"]["containers"][0]
        assert spec["tolerations"] == [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
        assert spec["nodeSelector"] == {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
        env = {e["name"]: e for e in container["env"]}
        assert env["NCCL_SOCKET_IFNAME"]["value"] == "=eth0" and env["GLOO_SOCKET_IFNAME"]["value"] == "eth0"
        for secret in ("HF_TOKEN", "WANDB_API_KEY"):
            assert env[secret] == {
                "name": secret,
                "valueFrom": {"secretKeyRef": {"name": "verl-secrets", "key": secret}},
            }
        assert container["resources"]["limits"] == {"cpu": "48", "memory": "800Gi", "nvidia.com/gpu": "8"}
        assert container["resources"]["requests"] == container["resources"]["limits"]


def test_auth_disabled_is_said_explicitly_everywhere():
    files, _ = render("grpo-7b-2x8", "kuberay-job", **{"deploy.auth_mode": "disabled"})
    doc = docs_of(files["rayjob.yaml"])[0]
    assert doc["spec"]["rayClusterSpec"]["authOptions"] == {"mode": "disabled"}
    for _, tpl in pod_templates(doc):
        assert {"name": "RAY_AUTH_MODE", "value": "disabled"} in tpl["spec"]["containers"][0]["env"]
    slurm, _ = render("grpo-7b-2x8", "slurm", **{"deploy.auth_mode": "disabled"})
    assert "export RAY_AUTH_MODE=disabled" in slurm["job.sbatch"] and "token_hex" not in slurm["job.sbatch"]
    ray_job, _ = render("grpo-7b-2x8", "ray-job", **{"deploy.auth_mode": "disabled"})
    assert "export RAY_AUTH_MODE=disabled" in ray_job["ray-job.sh"]


def test_k8s_job_has_shared_memory_and_no_retries():
    files, _ = render("workshop-0.5b-1gpu", "k8s-job", **{"deploy.shm_gib": 16})
    job = docs_of(files["k8s-job.yaml"])[0]
    pod = job["spec"]["template"]["spec"]
    assert job["spec"]["backoffLimit"] == 0 and pod["restartPolicy"] == "Never"
    assert {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}} in pod["volumes"]
    assert {"name": "dshm", "mountPath": "/dev/shm"} in pod["containers"][0]["volumeMounts"]
    command = pod["containers"][0]["command"]
    assert command[3:5] == ["--config-path=/verl-wizard/config", "--config-name=config"]
    # Ray in the container sees its 4-CPU limit; verl 0.9.1 also holds 8 TransferQueue units, a controller and a free CPU.
    assert command[5:] == ["ray_kwargs.ray_init.num_cpus=14"]
    none, findings = render("workshop-0.5b-1gpu", "k8s-job", **{"deploy.shm_gib": 0})
    assert "DEPLOY-011" in {f.id for f in findings}
    assert "/dev/shm" not in none["k8s-job.yaml"]


def test_local_target_writes_no_manifest():
    files, _ = render("grpo-8b-1x8", "local")
    assert set(files) == {"config.yaml", "run.sh", "answers.yaml", "RUN.md"}


@pytest.mark.parametrize("volume", ["verl-data", "/mnt/verl"])
@pytest.mark.parametrize("target", ["kuberay-job", "kuberay-cluster", "k8s-job"])
def test_a_data_volume_keeps_every_manifest_valid(target, volume):
    files, findings = render("workshop-0.5b-1gpu", target, **{"deploy.data_volume": volume})
    assert files, [str(f.message) for f in findings if f.severity.value == "error"]
    for doc in docs_of(files[FILES[target]]):
        assert kubernetes_problems(doc) == []
        if doc["kind"] in ("RayJob", "RayCluster"):
            assert kuberay_problems(doc) == []
        for _, template in pod_templates(doc) if doc["kind"] != "ConfigMap" else []:
            names = {v["name"] for v in template["spec"]["volumes"]}
            assert "verl-data" in names
