"""`check` on manifests: what the wizard renders reads back to the same facts and findings, and hand edits are caught."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import cli_json
from tests.emit.manifests_kit import TARGETS, layered_for
from wizard.core.layers import build
from wizard.core.presets import load_preset, preset_names
from wizard.core.rules import context_for, evaluate
from wizard.core.rules.deploy.facts import facts_from_answers
from wizard.detect.deploy.manifests import read_if_manifest, read_manifest
from wizard.emit.artifacts import render_artifacts
from wizard.emit.manifests import FILES

VARIANTS = [
    {},
    {"deploy.gpu_head": False, "deploy.auth_mode": "disabled"},
    {
        "deploy.nccl_socket_ifname": "eth0",
        "deploy.env": ["NCCL_DEBUG=INFO"],
        "deploy.namespace": "ml",
        "deploy.auth_secret": "tok",
        "deploy.data_volume": "verl-data",
    },
]


def write(tmp_path: Path, preset: str, target: str, **values) -> tuple[Path, object, list]:
    layered = layered_for(preset, **{"deploy.target": target, **values})
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    findings = evaluate(ctx)
    for name, text in render_artifacts(layered, ctx.plan, findings).items():
        (tmp_path / name).write_text(text)
    return tmp_path / FILES[target], ctx, findings


def deploy_ids(findings) -> list[str]:
    return sorted(f.id for f in findings if f.id.startswith("DEPLOY"))


def shape(facts):
    return (
        [(g.role, g.replicas, g.gpus, g.cpus, g.auth_mode, g.token_source) for g in facts.groups],
        facts.driver_auth_mode,
        facts.driver_token_source,
        facts.names,
        facts.entrypoint,
        facts.joins_cluster,
        facts.shm_missing,
        facts.images,
        facts.mounts,
    )


# Every preset as written; the answer variants on one multi-node and one single-node preset.
CASES = [
    (p, t, i)
    for p in preset_names()
    for t in TARGETS
    for i in range(len(VARIANTS))
    if not (t == "k8s-job" and load_preset(p).nnodes > 1) and (i == 0 or p in ("grpo-7b-2x8", "workshop-0.5b-1gpu"))
]


@pytest.mark.parametrize("preset,target,variant", CASES)
def test_a_rendered_manifest_reads_back_to_the_facts_the_rules_saw(preset, target, variant, tmp_path):
    path, ctx, findings = write(tmp_path, preset, target, **VARIANTS[variant])
    source = read_manifest(path)
    rendered = facts_from_answers(ctx.answers, ctx.plan)
    assert shape(source.deploy) == shape(rendered)
    for i, group in enumerate(rendered.groups):
        assert group.env.items() <= source.deploy.groups[i].env.items()
    layered = build([(source.kind, source.flat)])
    assert layered.answers.cluster == ctx.answers.cluster, "the config travels with the manifest"
    again = evaluate(context_for(layered.answers, layered.flat, mode="cluster", deploy=source.deploy))
    assert deploy_ids(again) == deploy_ids(findings)


def _edit(tmp_path: Path, target: str, change, preset: str = "grpo-7b-2x8") -> list[dict]:
    path, _, _ = write(tmp_path, preset, target)
    docs = list(yaml.safe_load_all(path.read_text()))
    change(docs)
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert proc.returncode in (0, 1), proc.stderr
    return doc["findings"]


def _worker(docs):
    return docs[0]["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]


def _worker_container(docs):
    return _worker(docs)["template"]["spec"]["containers"][0]


def _set_gpus(n):
    def change(docs):
        for kind in ("limits", "requests"):
            _worker_container(docs)["resources"][kind]["nvidia.com/gpu"] = str(n)

    return change


def _set_cpu(n):
    """The worker pods' CPUs as Ray counts them: the limit, or rayStartParams num-cpus when it is given."""

    def change(docs):
        for kind in ("limits", "requests"):
            _worker_container(docs)["resources"][kind]["cpu"] = str(n)
        _worker(docs)["rayStartParams"]["num-cpus"] = str(n)

    return change


EDITS = {
    "more replicas": (
        lambda d: _worker(d).update(replicas=3, minReplicas=3, maxReplicas=3),
        "DEPLOY-004",
        "4 GPU node(s)",
    ),
    "fewer GPUs": (_set_gpus(4), "DEPLOY-004", "gives 4 GPU(s) per node"),
    "config changed": (
        lambda d: d[1]["data"].update({"config.yaml": d[1]["data"]["config.yaml"].replace("nnodes: 2", "nnodes: 3")}),
        "DEPLOY-004",
        "needs 3",
    ),
    "visible devices": (
        lambda d: _worker_container(d).setdefault("env", []).append({"name": "CUDA_VISIBLE_DEVICES", "value": "0"}),
        "DEPLOY-001",
        "workerGroupSpecs[0]",
    ),
    "inline key": (
        lambda d: _worker_container(d)["env"].append({"name": "HF_TOKEN", "value": "hf_secret"}),
        "DEPLOY-006",
        "HF_TOKEN",
    ),
    "auth mismatch": (
        lambda d: _worker_container(d)["env"].append({"name": "RAY_AUTH_MODE", "value": "disabled"}),
        "DEPLOY-012",
        "workerGroupSpecs[0]: disabled",
    ),
    "chained entrypoint": (
        lambda d: d[0]["spec"].update(entrypoint=d[0]["spec"]["entrypoint"] + " && echo done"),
        "DEPLOY-010",
        "&&",
    ),
    "few CPUs": (_set_cpu(16), "DEPLOY-005", "16 CPUs for 8 GPU(s)"),
    "no CPUs for TransferQueue": (_set_cpu(26), "DEPLOY-005", "TransferQueue pins 4 of its 8"),
    "bad name": (lambda d: d[0]["metadata"].update(name="Qwen_Run"), "DEPLOY-007", "Qwen_Run"),
    "http RAY_ADDRESS": (
        lambda d: _worker_container(d)["env"].append({"name": "RAY_ADDRESS", "value": "http://head:8265"}),
        "DEPLOY-002",
        "Jobs API",
    ),
    "Secret with data": (
        lambda d: d.append(
            {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": "verl-secrets"},
                "stringData": {"WANDB_API_KEY": "abc"},
            }
        ),
        "DEPLOY-006",
        "Secret verl-secrets",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_hand_edit_of_a_rayjob_is_caught(edit, tmp_path):
    change, rule, words = EDITS[edit]
    findings = _edit(tmp_path, "kuberay-job", change)
    hits = [f for f in findings if f["id"] == rule]
    assert hits and any(words in f["message"] for f in hits), [f["message"] for f in findings]
    assert all("hf_secret" not in f["message"] and f["message"] != "abc" for f in findings)


def test_the_untouched_rayjob_has_none_of_those_findings(tmp_path):
    findings = _edit(tmp_path, "kuberay-job", lambda d: None)
    assert {f["id"] for f in findings if f["severity"] == "error"} == set()


def test_a_manifest_fix_changes_the_config_to_match(tmp_path):
    findings = _edit(tmp_path, "kuberay-job", EDITS["more replicas"][0])
    fix = next(f for f in findings if f["id"] == "DEPLOY-004")["fixes"]
    assert fix and fix[0]["set"] == {"trainer.n_gpus_per_node": 8, "trainer.nnodes": 4}


def test_a_job_without_shared_memory(tmp_path):
    def drop_shm(docs):
        pod = docs[0]["spec"]["template"]["spec"]
        pod["volumes"] = [v for v in pod["volumes"] if v["name"] != "dshm"]
        pod["containers"][0]["volumeMounts"] = [m for m in pod["containers"][0]["volumeMounts"] if m["name"] != "dshm"]

    assert "DEPLOY-011" in {f["id"] for f in _edit(tmp_path, "k8s-job", drop_shm, "workshop-0.5b-1gpu")}
    assert "DEPLOY-011" not in {
        f["id"]
        for f in _edit(
            tmp_path / "x" if (tmp_path / "x").mkdir() is None else tmp_path,
            "k8s-job",
            lambda d: None,
            "workshop-0.5b-1gpu",
        )
    }


def token_in_pods_only(docs):
    """A RayJob edited by hand: the token set on the cluster's pods, none for the submitter pod."""
    cluster = docs[0]["spec"]["rayClusterSpec"]
    cluster.pop("authOptions")
    token = [
        {"name": "RAY_AUTH_MODE", "value": "token"},
        {"name": "RAY_AUTH_TOKEN", "valueFrom": {"secretKeyRef": {"name": "tok", "key": "auth_token"}}},
    ]
    for group in [cluster["headGroupSpec"], *cluster["workerGroupSpecs"]]:
        group["template"]["spec"]["containers"][0].setdefault("env", []).extend(token)


def test_a_rayjob_whose_submitter_has_no_token(tmp_path):
    hits = [f for f in _edit(tmp_path, "kuberay-job", token_in_pods_only) if f["id"] == "DEPLOY-012"]
    assert hits and "submitter pod (ray job submit): unset" in hits[0]["message"]


def test_a_data_volume_moved_by_hand_leaves_the_data_unseen(tmp_path):
    def move(docs):
        for pod in (docs[0]["spec"]["template"]["spec"],):
            for mount in pod["containers"][0]["volumeMounts"]:
                if mount["name"] == "verl-data":
                    mount["mountPath"] = "/mnt/other"

    path, _, findings = write(tmp_path, "workshop-0.5b-1gpu", "k8s-job", **{"deploy.data_volume": "verl-data"})
    assert "DEPLOY-015" not in {f.id for f in findings}
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert "DEPLOY-015" not in {f["id"] for f in doc["findings"]}, "the written Job mounts the data at /data"
    docs = list(yaml.safe_load_all(path.read_text()))
    move(docs)
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    hits = [f["message"] for f in doc["findings"] if f["id"] == "DEPLOY-015"]
    assert proc.returncode == 0, "a warning: the image might hold the files"
    assert hits and "outside what the pods mount (/mnt/other)" in hits[0], doc["findings"]


def test_verls_own_ray_cpus_are_read_from_the_job_command(tmp_path):
    path, _, _ = write(tmp_path, "grpo-8b-1x8", "k8s-job", **{"trainer.logger": "console"})
    assert read_manifest(path).deploy.groups[0].cpus == 42  # 8 x 4 CPUs + verl 0.9.1's TransferQueue share
    text = path.read_text()
    assert "ray_kwargs.ray_init.num_cpus=42" in text
    path.write_text(text.replace("ray_kwargs.ray_init.num_cpus=42", "ray_kwargs.ray_init.num_cpus=30"))
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert proc.returncode == 1
    assert "TransferQueue" in " ".join(f["message"] for f in doc["findings"] if f["id"] == "DEPLOY-005")


def test_read_if_manifest_leaves_configs_and_launch_scripts_alone(tmp_path):
    path, _, _ = write(tmp_path, "grpo-8b-1x8", "kuberay-job")
    assert read_if_manifest(tmp_path / "config.yaml") is None
    assert read_if_manifest(tmp_path / "run.sh") is None
    assert read_if_manifest(tmp_path / "missing.yaml") is None
    assert read_if_manifest(path) is not None
    script = tmp_path / "train.sh"
    script.write_text(
        "# or submit it with: ray job submit -- python3 -m verl.trainer.main_ppo\n"
        "python3 -m verl.trainer.main_ppo trainer.nnodes=1\n"
    )
    assert read_if_manifest(script) is None, "a comment that mentions ray job submit is not a submission"


def test_a_manifest_without_a_workload_is_a_usage_error(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n")
    proc, _ = cli_json("check", str(path))
    assert proc.returncode == 2 and "RayJob, RayCluster, Job or Pod" in proc.stderr and "\n" not in proc.stderr.strip()
