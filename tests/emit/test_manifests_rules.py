"""DEPLOY-* on answers (what the emitters would render): each rule's failing case, its passing neighbours, its fix."""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for, ids
from wizard.core.layers import build
from wizard.core.rules import apply_fix, context_for, evaluate

TWO_NODES = {**BASE, "trainer.nnodes": 2, "deploy.nccl_socket_ifname": "eth0"}


def one(rule: str, overrides: dict, base: dict | None = None):
    found = [f for f in findings_for(overrides, base) if f.id == rule]
    assert found, f"{rule} not raised for {overrides}"
    return found[0]


def fixed(overrides: dict, finding, base: dict | None = None) -> set[str]:
    """The rule ids left after applying the finding's first fix."""
    values = {**(BASE if base is None else base), **overrides}
    layered = build([("test", values)])
    ctx = apply_fix(context_for(layered.answers, layered.flat, mode="cluster"), finding.fixes[0].set)
    return {f.id for f in evaluate(ctx) if f.severity.value in ("error", "warning")}


@pytest.mark.parametrize("target", ["kuberay-job", "slurm", "ray-job", "k8s-job"])
def test_deploy_001_hand_set_visible_devices(target):
    bad = {"deploy.target": target, "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1", "NCCL_DEBUG=INFO"]}
    f = one("DEPLOY-001", bad)
    assert f.severity.value == "error" and "CUDA_VISIBLE_DEVICES=0,1" in str(f.message)
    assert "DEPLOY-001" not in fixed(bad, f)
    assert f.fixes[0].set == {"deploy.env": ["NCCL_DEBUG=INFO"]}
    assert "DEPLOY-001" not in ids({"deploy.target": target, "deploy.env": ["NCCL_DEBUG=INFO"]})
    assert "DEPLOY-001" in ids(
        {"deploy.target": target, "deploy.env": ["RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES=1"]}
    )


def test_deploy_001_a_local_mask_is_checked_by_its_count():
    # Local: verl's own Ray takes its GPUs from the mask, so one that shows trainer.n_gpus_per_node GPUs is fine.
    assert "DEPLOY-001" not in ids({"deploy.target": "local", "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7"]})
    one_gpu = {"deploy.target": "local", "trainer.n_gpus_per_node": 1, "deploy.env": ["CUDA_VISIBLE_DEVICES=3"]}
    assert "DEPLOY-001" not in ids(one_gpu)
    bad = {"deploy.target": "local", "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1"]}
    f = one("DEPLOY-001", bad)
    assert str(f.message).startswith("CUDA_VISIBLE_DEVICES=0,1 shows 2 GPUs and the run needs 8 on this machine")
    assert [fix.set for fix in f.fixes] == [{"trainer.n_gpus_per_node": 2}, {"deploy.env": []}]
    assert "DEPLOY-001" not in fixed(bad, f)
    empty = one("DEPLOY-001", {"deploy.target": "local", "deploy.env": ["CUDA_VISIBLE_DEVICES="]})
    assert "shows 0 GPUs" in str(empty.message) and [fix.set for fix in empty.fixes] == [{"deploy.env": []}]
    assert "DEPLOY-001" in ids(
        {"deploy.target": "local", "deploy.env": ["RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES=1"]}
    )


def test_deploy_002_address_forms():
    f = one("DEPLOY-002", {"deploy.target": "ray-job", "deploy.ray_address": "10.0.0.5:6379"})
    assert f.fixes[0].set == {"deploy.ray_address": "http://10.0.0.5:8265"}
    assert "DEPLOY-002" not in fixed({"deploy.target": "ray-job", "deploy.ray_address": "10.0.0.5:6379"}, f)
    assert "DEPLOY-002" not in ids({"deploy.target": "ray-job", "deploy.ray_address": "http://10.0.0.5:8265"})
    assert "DEPLOY-002" in ids({"deploy.target": "ray-job", "deploy.ray_address": "ray://10.0.0.5:10001"})
    assert "DEPLOY-002" in ids({"deploy.target": "slurm", "deploy.env": ["RAY_ADDRESS=http://10.0.0.5:8265"]})
    assert "DEPLOY-002" not in ids({"deploy.target": "slurm", "deploy.env": ["RAY_ADDRESS=10.0.0.5:6379"]})


def test_deploy_003_dedup_off_only_matters_on_several_nodes():
    f = one("DEPLOY-003", {"deploy.target": "kuberay-job", "deploy.env": ["RAY_DEDUP_LOGS=0"]}, TWO_NODES)
    assert f.severity.value == "warning"
    assert "DEPLOY-003" not in ids({"deploy.target": "kuberay-job", "deploy.env": ["RAY_DEDUP_LOGS=0"]})
    assert "DEPLOY-003" not in ids({"deploy.target": "kuberay-job", "deploy.env": ["RAY_DEDUP_LOGS=1"]}, TWO_NODES)


def test_deploy_004_one_pod_cannot_hold_two_nodes():
    bad = {"deploy.target": "k8s-job"}
    f = one("DEPLOY-004", bad, TWO_NODES)
    assert "2 nodes" in str(f.message) and f.fixes[0].set == {"deploy.target": "kuberay-job"}
    assert not {"DEPLOY-004"} & fixed(bad, f, TWO_NODES)
    assert "DEPLOY-004" not in ids({"deploy.target": "k8s-job"})
    assert "DEPLOY-004" not in ids({"deploy.target": "kuberay-job"}, TWO_NODES)


# 3 CPUs per GPU fill verl's bundles; Ray is offered verl 0.9.1's TransferQueue CPUs on top (see the rendered
# manifests), so 3 passes and 2 does not.
@pytest.mark.parametrize(
    "cpus,gpu_head,expected", [(2, True, True), (2, False, True), (3, True, False), (3, False, False), (4, True, False)]
)
def test_deploy_005_cpus_per_gpu(cpus, gpu_head, expected):
    values = {"deploy.target": "kuberay-job", "deploy.cpus_per_gpu": cpus, "deploy.gpu_head": gpu_head}
    assert ("DEPLOY-005" in ids(values)) is expected
    if expected:
        f = one("DEPLOY-005", values)
        assert "DEPLOY-005" not in fixed(values, f)


@pytest.mark.parametrize("target", ["local", "k8s-job"])
@pytest.mark.parametrize("num_cpus,expected", [(16, True), (33, True), (34, False), (None, False)])
def test_deploy_005_counts_verls_own_ray_cpus(target, num_cpus, expected):
    # 8 GPUs: 3 CPUs each for verl's bundles, 8 TransferQueue storage units, their controller, one free: 34.
    values = {"deploy.target": target, "ray_kwargs.ray_init.num_cpus": num_cpus}
    assert ("DEPLOY-005" in ids(values)) is expected
    if expected:
        f = one("DEPLOY-005", values)
        assert "needs 34 CPUs for 8 GPUs" in str(f.message) and f.fixes[0].set == {"ray_kwargs.ray_init.num_cpus": 34}
        assert "DEPLOY-005" not in fixed(values, f)


def test_deploy_005_transfer_queue_units_follow_the_config():
    # Two units instead of eight: 3 x 8 + 2 + 1 + 1 = 28 CPUs are enough, 27 are not.
    fewer = {"deploy.target": "local", "transfer_queue.backend.SimpleStorage.num_data_storage_units": 2}
    assert "DEPLOY-005" not in ids({**fewer, "ray_kwargs.ray_init.num_cpus": 28})
    assert "needs 28 CPUs" in str(one("DEPLOY-005", {**fewer, "ray_kwargs.ray_init.num_cpus": 27}).message)


def test_deploy_006_secret_values_are_never_written():
    bad = {"deploy.target": "kuberay-job", "deploy.env": ["WANDB_API_KEY=s3cr3t-value", "NCCL_DEBUG=INFO"]}
    f = one("DEPLOY-006", bad)
    assert "s3cr3t-value" not in str(f.message)
    assert f.fixes[0].set == {"deploy.env": ["NCCL_DEBUG=INFO"], "deploy.secret_env": ["WANDB_API_KEY"]}
    assert "DEPLOY-006" not in fixed(bad, f)
    assert "DEPLOY-006" in ids({"deploy.target": "slurm", "deploy.env": ["HF_TOKEN=hf_abc"]})
    assert "DEPLOY-006" not in ids({"deploy.target": "slurm", "deploy.env": ["HF_HOME=/cache"]})
    assert "DEPLOY-006" not in ids({"deploy.target": "kuberay-job", "deploy.secret_env": ["HF_TOKEN"]})


@pytest.mark.parametrize(
    "target,name,bad",
    [
        ("kuberay-job", "My_Run", True),
        ("kuberay-job", "a" * 48, True),
        ("kuberay-cluster", "a" * 48, False),
        ("kuberay-cluster", "a" * 54, True),
        ("k8s-job", "run-1", False),
        ("kuberay-job", "1run", True),
        ("slurm", "My_Run", False),
    ],
)
def test_deploy_007_names(target, name, bad):
    assert ("DEPLOY-007" in ids({"deploy.target": target, "deploy.name": name})) is bad
    if bad:
        f = one("DEPLOY-007", {"deploy.target": target, "deploy.name": name})
        assert "DEPLOY-007" not in fixed({"deploy.target": target, "deploy.name": name}, f)


def test_deploy_007_namespace_and_default_names():
    assert "DEPLOY-007" in ids({"deploy.target": "k8s-job", "deploy.namespace": "ML Team"})
    assert "DEPLOY-007" not in ids(
        {
            "deploy.target": "k8s-job",
            "deploy.namespace": "ml-team",
            "trainer.experiment_name": "Qwen 3 / 8B GRPO: run #1 " + "x" * 80,
        }
    )


@pytest.mark.parametrize(
    "target,joins", [("slurm", True), ("kuberay-job", True), ("ray-job", True), ("local", False), ("k8s-job", False)]
)
def test_deploy_008_num_cpus_only_when_verl_starts_ray(target, joins):
    values = {"deploy.target": target, "ray_kwargs.ray_init.num_cpus": 64}
    assert ("DEPLOY-008" in ids(values)) is joins
    if joins:
        f = one("DEPLOY-008", values)
        assert f.fixes[0].set == {"ray_kwargs.ray_init.num_cpus": None} and "DEPLOY-008" not in fixed(values, f)


def test_deploy_009_interfaces_offered_for_several_nodes():
    base = {**BASE, "trainer.nnodes": 2}
    f = one("DEPLOY-009", {"deploy.target": "slurm"}, base)
    assert f.severity.value == "warning" and "DEPLOY-009" not in fixed({"deploy.target": "slurm"}, f, base)
    assert "DEPLOY-009" not in ids({"deploy.target": "slurm", "deploy.gloo_socket_ifname": "ib0"}, base)
    assert "DEPLOY-009" not in ids({"deploy.target": "slurm"})
    assert "DEPLOY-009" not in ids({"deploy.target": "local"}, base)


def test_deploy_011_shared_memory_for_a_plain_job():
    f = one("DEPLOY-011", {"deploy.target": "k8s-job", "deploy.shm_gib": 0})
    assert "DEPLOY-011" not in fixed({"deploy.target": "k8s-job", "deploy.shm_gib": 0}, f)
    assert "DEPLOY-011" not in ids({"deploy.target": "k8s-job", "deploy.shm_gib": 8})
    assert "DEPLOY-011" not in ids({"deploy.target": "kuberay-job", "deploy.shm_gib": 0})


def test_deploy_012_auth_is_set_one_way():
    bad = {"deploy.target": "kuberay-job", "deploy.env": ["RAY_AUTH_MODE=disabled"]}
    f = one("DEPLOY-012", bad)
    assert "DEPLOY-012" not in fixed(bad, f)
    old = {"deploy.target": "kuberay-cluster", "deploy.ray_version": "2.48.0"}
    assert "DEPLOY-012" in ids(old)
    assert "DEPLOY-012" not in ids({**old, "deploy.auth_mode": "disabled"})
    for target in ("kuberay-job", "kuberay-cluster", "slurm", "ray-job", "k8s-job", "local"):
        assert "DEPLOY-012" not in ids({"deploy.target": target}, TWO_NODES)


def test_deploy_014_image_reference():
    assert "DEPLOY-014" in ids({"deploy.target": "kuberay-job", "deploy.image": "my image:1"})
    assert "DEPLOY-014" in ids({"deploy.target": "k8s-job", "deploy.image": "Reg/Verl:1"})
    assert "DEPLOY-014" not in ids(
        {"deploy.target": "k8s-job", "deploy.image": "registry.local:5000/team/verl:0.9.1-vllm"}
    )
    assert "DEPLOY-014" not in ids({"deploy.target": "slurm", "deploy.image": "my image:1"})


def test_bad_deploy_answers_are_one_line_usage_errors():
    from wizard.errors import UsageError

    for values in (
        {"deploy.target": "kubernetes"},
        {"deploy.env": ["1BAD=x"]},
        {"deploy.env": ["NOVALUE"]},
        {"deploy.nccl_socket_ifname": "eth0; rm -rf /"},
        {"deploy.slurm_partition": "gpu\nx"},
        {"deploy.auth_mode": "on"},
    ):
        with pytest.raises(UsageError) as err:
            build([("test", {**BASE, **values})])
        assert "\n" not in str(err.value) and str(err.value).startswith(next(iter(values)))


DATA = {"data.train_files": "/data/gsm8k/train.parquet", "data.val_files": "/data/gsm8k/test.parquet"}


@pytest.mark.parametrize("target", ["kuberay-job", "kuberay-cluster", "k8s-job"])
def test_deploy_015_pods_see_only_what_is_mounted(target):
    bare = {"deploy.target": target, **DATA}
    f = one("DEPLOY-015", bare)
    assert f.severity.value == "warning"
    assert str(f.message).startswith("/data/gsm8k/train.parquet and /data/gsm8k/test.parquet are local paths")
    assert f.fixes[0].set == {"deploy.data_volume": "verl-data", "deploy.data_mount": "/data/gsm8k"}
    assert "DEPLOY-015" not in fixed(bare, f)
    assert "DEPLOY-015" not in ids({**bare, "deploy.data_volume": "verl-data"}), "/data is the default mount"
    outside = {**bare, "deploy.data_volume": "/mnt/verl", "deploy.data_mount": "/mnt/verl"}
    g = one("DEPLOY-015", outside)
    assert "outside what the pods mount (/mnt/verl)" in str(g.message)
    assert g.fixes[0].set == {"deploy.data_mount": "/data/gsm8k"} and "DEPLOY-015" not in fixed(outside, g)
    # Hugging Face ids and remote files are not local paths; neither target without pods is judged.
    remote = {"data.train_files": "hdfs://nn/train.parquet", "data.val_files": "hdfs://nn/test.parquet"}
    assert "DEPLOY-015" not in ids({"deploy.target": target, **remote})
    for other in ("local", "slurm", "ray-job"):
        assert "DEPLOY-015" not in ids({**bare, "deploy.target": other})


def test_deploy_015_counts_models_and_the_reward_function():
    values = {
        "deploy.target": "kuberay-job",
        "deploy.data_volume": "verl-data",
        **DATA,
        "actor_rollout_ref.model.path": "/models/qwen",
        "reward.custom_reward_function.path": "/data/reward.py",
    }
    f = one("DEPLOY-015", values)
    assert str(f.message).startswith("/models/qwen lies outside what the pods mount (/data)")
    assert f.fixes == (), "no folder below / holds /models and /data: mounting / is not offered"
