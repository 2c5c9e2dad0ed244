"""Secrets end to end: `new` refuses every route for every target and writes nothing; references pass.

Also the value forms around them: `--set deploy.env=FOO=1` (the documented spelling) works, `${...}` in a
user's string reaches config.yaml escaped so that OmegaConf keeps it as text, and bidirectional control
characters never reach a comment.
"""

from __future__ import annotations

import pytest

from tests.cli.helpers import check_json, cli

TARGETS = ["local", "ray-job", "kuberay-job", "kuberay-cluster", "slurm", "k8s-job"]
PRESET = ["--preset", "grpo-8b-1x8"]
TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12"
SECRET_SETS = {
    "deploy.env name": ["--set", "deploy.env=wandb_api_key=s3cr3tvalue"],
    "deploy.env $X": ["--set", "deploy.env=WANDB_API_KEY=$X"],
    "url password in the model path": ["--set", "actor_rollout_ref.model.path=https://u:s3cr3tvalue@host/m"],
    "url password in the Ray address": ["--set", "deploy.ray_address=http://u:s3cr3tvalue@head:8265"],
    "engine kwargs token": ["--set", f"+actor_rollout_ref.rollout.engine_kwargs.vllm.hf_token={TOKEN}"],
    "OmegaConf read": ["--set", "trainer.experiment_name=${oc.env:WANDB_API_KEY}"],
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("route", SECRET_SETS)
def test_new_refuses_every_route_for_every_target(route, target, tmp_path):
    out = tmp_path / "run"
    proc = cli("new", *PRESET, *SECRET_SETS[route], "--target", target, "--out", str(out))
    assert proc.returncode == 1 and "DEPLOY-006" in proc.stdout, (route, target, proc.stdout[-800:], proc.stderr)
    assert not out.exists()
    assert "s3cr3tvalue" not in proc.stdout + proc.stderr and TOKEN not in proc.stdout + proc.stderr


SCRIPT = f"""#!/bin/bash
export HF_TOKEN={TOKEN}
export WANDB_API_KEY="0123456789abcdef0123456789abcdef01234567"
python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen3-8B \\
  actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.n=4 data.train_batch_size=256 data.train_files=/data/gsm8k/train.parquet data.val_files=/data/gsm8k/test.parquet \\
  actor_rollout_ref.actor.ppo_mini_batch_size=64 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
  +actor_rollout_ref.rollout.engine_kwargs.vllm.hf_token=$HF_TOKEN trainer.experiment_name=run-$WANDB_API_KEY
"""


@pytest.mark.parametrize("target", ["local", "slurm", "kuberay-job"])
def test_from_script_never_copies_the_tokens_the_script_exports(target, tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    out = tmp_path / "run"
    proc = cli("new", "--from-script", str(script), "--target", target, "--out", str(out))
    assert proc.returncode == 1 and proc.stdout.count("DEPLOY-006") == 2, proc.stdout[-1500:]
    assert not out.exists() and TOKEN not in proc.stdout and "0123456789abcdef01" not in proc.stdout
    # With the two fixes the run is written, and reads both secrets from the environment.
    fixed = [
        "--set",
        "+actor_rollout_ref.rollout.engine_kwargs.vllm.hf_token=null",
        "--set",
        "trainer.experiment_name=run",
    ]
    proc = cli("new", "--from-script", str(script), *fixed, "--target", target, "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-1500:]
    for path in out.iterdir():
        text = path.read_text()
        assert TOKEN not in text and "0123456789abcdef01" not in text, path.name
    answers = (out / "answers.yaml").read_text()
    assert "HF_TOKEN" in answers and "WANDB_API_KEY" in answers  # deploy.secret_env: references only
    if target == "slurm":
        assert "HF_TOKEN:?" in (out / "job.sbatch").read_text()
    if target == "kuberay-job":
        assert "secretKeyRef" in (out / "rayjob.yaml").read_text()


def test_check_refuses_a_secret_in_an_answers_file(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("deploy:\n  target: slurm\n  env: ['WANDB_API_KEY=$X']\n")
    proc = cli("check", str(answers), "--mode", "cluster")
    assert proc.returncode == 1 and "DEPLOY-006" in proc.stdout and "never" not in proc.stderr


@pytest.mark.parametrize(
    ("flag", "in_manifest"),
    [
        ("deploy.env=FOO=1", "export FOO=1"),
        ("deploy.env=NCCL_DEBUG=INFO", "export NCCL_DEBUG=INFO"),
        ("deploy.env=['A=1','B=x=y']", "export B=x=y"),
    ],
)
def test_set_deploy_env_as_documented(flag, in_manifest, tmp_path):
    proc = cli("new", *PRESET, "--target", "slurm", "--set", flag, "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert in_manifest in (tmp_path / "job.sbatch").read_text()


def test_set_deploy_env_with_two_pairs_in_one_value_is_refused_with_the_list_form(tmp_path):
    proc = cli("new", *PRESET, "--set", "deploy.env=FOO=1,BAR=2", "--out", str(tmp_path / "o"))
    assert proc.returncode == 2 and "deploy.env=['A=1','B=2']" in proc.stderr, proc.stderr
    ok = cli(
        "new", *PRESET, "--target", "slurm", "--set", "deploy.env=NCCL_SOCKET_IFNAME=eth0,eth1", "--out", str(tmp_path)
    )
    assert ok.returncode == 0 and "export NCCL_SOCKET_IFNAME=eth0,eth1" in (tmp_path / "job.sbatch").read_text()


def test_set_node_selector_as_one_pair(tmp_path):
    label = "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3"
    proc = cli("new", *PRESET, "--target", "k8s-job", "--set", f"deploy.node_selector={label}", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3" in (tmp_path / "k8s-job.yaml").read_text()


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("exp-${now:%H}", "exp-\\${now:%H}"),
        ("open ${x", "open \\${x"),
        ("a\\${b}", "a\\\\\\${b}"),
        ("plain", "plain"),
    ],
)
def test_interpolation_syntax_in_a_value_is_written_escaped(value, written, tmp_path):
    import json

    answers = tmp_path / "answers-in.yaml"  # an answers file takes any text (Hydra's --set grammar refuses `${x`)
    answers.write_text(f"trainer:\n  project_name: {json.dumps(value)}\n")
    proc = cli("new", *PRESET, "--answers", str(answers), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-800:] + proc.stderr
    config = (tmp_path / "config.yaml").read_text()
    assert f"project_name: {written}" in config or f"project_name: '{written}'" in config, config
    back, doc = check_json(tmp_path / "config.yaml")
    assert back.returncode in (0, 1) and doc["verdict"] in ("pass", "fail")
    from wizard.detect.config.files import read_check_input

    assert read_check_input(tmp_path / "config.yaml").flat["trainer.project_name"] == value


def test_an_unset_variable_the_import_reads_from_the_environment_stays_a_read(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(
        SCRIPT.replace("export HF_TOKEN", "# export HF_TOKEN").replace(
            "+actor_rollout_ref", "data.train_files=$DATA/t.parquet #"
        )
    )
    proc = cli(
        "new", "--from-script", str(script), "--set", "trainer.experiment_name=run", "--out", str(tmp_path / "o")
    )
    assert proc.returncode == 0, proc.stdout[-1500:]
    assert "train_files: ${oc.env:DATA}/t.parquet" in (tmp_path / "o" / "config.yaml").read_text()


BIDI = "\u202e\u2066\u200f"


def test_bidirectional_controls_never_reach_a_comment(tmp_path):
    answers = tmp_path / "answers-in.yaml"  # Hydra's --set grammar refuses these characters; an answers file does not
    answers.write_text(f'trainer:\n  experiment_name: "exp{BIDI}name"\n', encoding="utf-8")
    for target in ("slurm", "kuberay-job", "ray-job"):
        out = tmp_path / target
        proc = cli("new", *PRESET, "--answers", str(answers), "--target", target, "--out", str(out))
        assert proc.returncode == 0, proc.stdout[-800:]
        for path in out.glob("[!.]*"):  # the artefacts (the hidden record of the set is JSON, without comments)
            comments = [line for line in path.read_text().splitlines() if line.lstrip().startswith("#")]
            assert comments and not any(c in line for line in comments for c in BIDI), (target, path.name)


def _env_literal(node, value: str):
    """The manifest's documents with WANDB_API_KEY's secretKeyRef replaced by a literal value."""
    if isinstance(node, dict):
        if node.get("name") == "WANDB_API_KEY" and "valueFrom" in node:
            return {"name": "WANDB_API_KEY", "value": value}
        return {k: _env_literal(v, value) for k, v in node.items()}
    if isinstance(node, list):
        return [_env_literal(v, value) for v in node]
    return node


@pytest.mark.parametrize(
    ("target", "name", "literal", "reference"),
    [
        ("slurm", "job.sbatch", "export WANDB_API_KEY='$X'", 'export WANDB_API_KEY="$WANDB_API_KEY"'),
        ("kuberay-job", "rayjob.yaml", "$X", "$(X)"),
    ],
)
def test_check_refuses_a_manifest_with_an_unexpanded_secret(target, name, literal, reference, tmp_path):
    """A manifest written by an older wizard from deploy.env=['WANDB_API_KEY=$X'] (literal in both), and the
    neighbour each format expands."""
    import yaml

    proc = cli("new", *PRESET, "--target", target, "--set", "deploy.env=NCCL_DEBUG=INFO", "--out", str(tmp_path))
    assert proc.returncode == 0
    path = tmp_path / name
    text = path.read_text()
    for form, expected in ((literal, True), (reference, False)):
        if target == "slurm":
            path.write_text(text.replace("export NCCL_DEBUG=INFO", f"export NCCL_DEBUG=INFO\n{form}"))
        else:
            docs = [_env_literal(d, form) for d in yaml.safe_load_all(text)]
            path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
        proc = cli("check", str(path), "--mode", "cluster")
        assert proc.returncode in (0, 1), proc.stderr
        assert ("DEPLOY-006" in proc.stdout) is expected, (form, proc.stdout[-1500:])
