"""DEPLOY-017 (more nodes than run.sh alone starts on target local) and DATA-011..013 (validation data left at verl's placeholder,
relative and Windows data paths): each mistake, and the neighbours that pass."""

from __future__ import annotations

import pytest

from tests.conftest import BASE, findings_for
from wizard.core import verl_schema
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.i18n.text import render

TWO_NODES = {"trainer.nnodes": 2}


def by_id(findings, rule_id):
    return [f for f in findings if f.id == rule_id]


# --- DEPLOY-017 ------------------------------------------------------------------------------------


def test_deploy_017_two_nodes_on_target_local_is_a_warning_with_a_target_fix_each():
    # a warning: RUN.md starts a Ray cluster of the nodes by hand first (wizard.emit.runbook), which works
    (finding,) = by_id(findings_for(TWO_NODES), "DEPLOY-017")
    assert finding.severity.value == "warning" and finding.paths[0] == "deploy.target"
    text = render(finding.message, "en")
    assert "trainer.nnodes is 2 (2 nodes x 8 GPUs)" in text and "desired GPUs 16" in text
    assert "RUN.md's steps" in text
    assert "--set deploy.ray_address=http://HEAD:8265" in text  # the value only the user knows, said how to give
    # each fix is one key, and was checked to remove the finding (evaluate keeps only those)
    assert [f.set for f in finding.fixes] == [{"deploy.target": t} for t in ("ray-job", "slurm", "kuberay-job")]
    assert "2 nodes" in render(finding.fixes[1].label, "en")
    assert "2 个节点" in render(finding.message, "zh") and "2 个节点" in render(finding.fixes[1].label, "zh")


@pytest.mark.parametrize("target", ["ray-job", "slurm", "kuberay-job", "kuberay-cluster"])
def test_deploy_017_silent_for_two_nodes_on_a_cluster_target(target):
    assert not by_id(findings_for({**TWO_NODES, "deploy.target": target}), "DEPLOY-017")


def test_deploy_017_silent_for_one_node_on_local_and_for_a_driver_joining_a_cluster():
    assert not by_id(findings_for(), "DEPLOY-017")
    # deploy.env RAY_ADDRESS: run.sh exports it and verl's ray.init joins that cluster instead of starting one
    assert not by_id(findings_for({**TWO_NODES, "deploy.env": ["RAY_ADDRESS=10.0.0.1:6379"]}), "DEPLOY-017")


def test_deploy_017_k8s_job_stays_deploy_004s():
    found = findings_for({**TWO_NODES, "deploy.target": "k8s-job"})
    assert by_id(found, "DEPLOY-004") and not by_id(found, "DEPLOY-017")


def test_deploy_017_silent_where_nothing_says_where_the_run_starts():
    """`check` of a verl config or a launch script: the run may be a driver on a cluster (target_known False)."""
    layered = build([("test", {**BASE, **TWO_NODES})])
    ctx = context_for(layered.answers, layered.flat, mode="cluster", target_known=False)
    assert not by_id(evaluate(ctx), "DEPLOY-017")
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    assert by_id(evaluate(ctx), "DEPLOY-017")


# --- DATA-011 --------------------------------------------------------------------------------------


def test_data_011_val_files_unset_is_an_error_with_the_training_files_as_a_fix():
    (finding,) = by_id(findings_for({"data.val_files": None}), "DATA-011")
    assert finding.severity.value == "error" and list(finding.paths) == ["data.val_files"]
    placeholder = verl_schema.default("data.val_files")
    assert placeholder == "~/data/rlhf/gsm8k/test.parquet" and placeholder in render(finding.message, "en")
    assert [f.set for f in finding.fixes] == [{"data.val_files": "/data/gsm8k/train.parquet"}]
    assert "验证" in render(finding.message, "zh")


def test_data_011_val_files_at_verls_placeholder_is_its_finding_not_data_008s():
    found = findings_for({"data.val_files": "~/data/rlhf/gsm8k/test.parquet"})
    assert by_id(found, "DATA-011") and not by_id(found, "DATA-008")
    assert "placeholder" in render(by_id(found, "DATA-011")[0].message, "en")


def test_data_011_no_fix_when_the_training_files_are_not_set_either():
    found = findings_for({"data.val_files": None, "data.train_files": None})
    assert by_id(found, "DATA-010") and by_id(found, "DATA-011")[0].fixes == ()


def test_data_011_silent_when_val_files_are_set():
    assert not by_id(findings_for(), "DATA-011")
    assert not by_id(findings_for({"data.val_files": ["/d/a.parquet", "hdfs://nn/b.parquet"]}), "DATA-011")


# --- DATA-012 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("local", "the folder run.sh is started in"),
        ("ray-job", "the Ray job's working_dir"),
        ("slurm", "SLURM_SUBMIT_DIR"),
        ("kuberay-job", "the image's WORKDIR"),
        ("k8s-job", "the image's WORKDIR"),
    ],
)
def test_data_012_relative_path_says_relative_to_what_for_the_target(target, words):
    found = findings_for({"data.train_files": "data/train.parquet", "deploy.target": target})
    (finding,) = by_id(found, "DATA-012")
    assert finding.severity.value == "warning" and list(finding.paths) == ["data.train_files"]
    text = render(finding.message, "en")
    assert "'data/train.parquet'" not in text and "data/train.parquet is a relative path" in text and words in text


def test_data_012_names_every_relative_path_of_a_key_once():
    found = findings_for({"data.val_files": ["test.parquet", "/data/b.parquet", "openai/gsm8k"]})
    (finding,) = by_id(found, "DATA-012")
    assert list(finding.paths) == ["data.val_files"]
    assert "test.parquet and openai/gsm8k are relative paths" in render(finding.message, "en")
    assert "相对路径" in render(finding.message, "zh")


@pytest.mark.parametrize(
    "path", ["/data/train.parquet", "hdfs://nn/train.parquet", "s3://b/t.parquet", "$DATA/t.parquet", "~/t.parquet"]
)
def test_data_012_silent_for_absolute_remote_variable_and_tilde_paths(path):
    assert not by_id(findings_for({"data.train_files": path}), "DATA-012")


# --- DATA-013 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["C:\\data\\train.parquet", "D:/x.parquet", "\\\\server\\share\\x.parquet", "data\\train.parquet"]
)
def test_data_013_windows_path_is_an_error(path):
    found = findings_for({"data.train_files": path})
    (finding,) = by_id(found, "DATA-013")
    assert finding.severity.value == "error" and list(finding.paths) == ["data.train_files"]
    assert path in render(finding.message, "en") and "Linux" in render(finding.message, "en")
    assert "Windows" in render(finding.message, "zh")
    assert not by_id(found, "DATA-012")  # one finding for the path, the error


def test_data_013_silent_for_linux_paths_with_colons_and_urls():
    for path in ("/data/a:b.parquet", "hdfs://nn:8020/t.parquet", "/mnt/c/data/t.parquet"):
        assert not by_id(findings_for({"data.train_files": path}), "DATA-013"), path
