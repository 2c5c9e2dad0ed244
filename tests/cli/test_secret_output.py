"""Secrets masked once, on the data, in every door and every file (issue 28's doors, issue 31's first class).

`check --format json` on scripts with $PWD, secrets and quotes is JSON (it was not: a pattern over the printed
JSON took `PWD=` for a password and swallowed a closing quote); a token glued to a word is refused; an
import's dropped keys reach RUN.md and answers.yaml masked; an image with credentials is an error and never
printed; deploy.auth_secret takes a Secret's name, never a token; the TUI renders through the same layer.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import check_json, cli, parsed

TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12"
WANDB = "0123456789abcdef0123456789abcdef01234567"
PRESET = ["--preset", "grpo-8b-1x8"]
HEAD = """#!/bin/bash
python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen3-8B \\
  actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.n=4 data.train_batch_size=256 \\
  actor_rollout_ref.actor.ppo_mini_batch_size=64 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
"""
SCRIPTS = {
    "PWD": HEAD + "  data.train_files=$PWD/data/train.parquet data.val_files=$PWD/data/test.parquet\n",
    "PWD and a quoted glued token": HEAD
    + f"  data.train_files=$PWD/t.parquet trainer.experiment_name='say \"hi\", run_{TOKEN}'\n",
    "exported secrets": f'export HF_TOKEN={TOKEN}\nexport WANDB_API_KEY="{WANDB}"\n'
    + HEAD
    + "  data.train_files=$PWD/t.parquet +trainer.wandb_key=$WANDB_API_KEY trainer.experiment_name=\"a 'b' $HF_TOKEN\"\n",
    "a threshold named like a token": HEAD
    + "  data.train_files=$PWD/t.parquet actor_rollout_ref.rollout.rollout_token_veto_threshold=0.5\n",
}


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize("name", SCRIPTS)
def test_check_on_scripts_with_pwd_secrets_and_quotes(name, fmt, tmp_path):
    path = tmp_path / "train.sh"
    path.write_text(SCRIPTS[name])
    if fmt == "json":
        proc, doc = check_json(path)  # json.loads of the whole output: it failed on PWD before
        assert proc.returncode in (0, 1) and doc is not None, proc.stderr
        text = json.dumps(doc, ensure_ascii=False)
        notes = [n for n in doc["notes"] if "$PWD" in n]
        assert notes and notes[0].endswith("give it with --env PWD=VALUE"), doc["notes"]
    else:
        proc = cli("check", str(path))
        text = proc.stdout
        assert "--env PWD=VALUE" in text and "PWD=***" not in text
    assert TOKEN not in text and WANDB not in text and "abcdefghijklmnopqrstuvwxyz" not in text
    assert "rollout_token_veto_threshold=***" not in text
    deploy_006 = [line for line in text.splitlines() if "DEPLOY-006" in line or "holds a secret" in line]
    assert not [line for line in deploy_006 if "veto" in line]
    if name == "PWD and a quoted glued token":
        assert "DEPLOY-006" in text  # the glued token is found (it passed before)
    if name == "exported secrets":
        assert "trainer.wandb_key" in text and "DEPLOY-006" in text  # wandb_key: a service's key


def test_a_glued_token_is_refused_and_nothing_is_written(tmp_path):
    """issue 28: `run_hf_...` was written into config.yaml, run.sh, answers.yaml and RUN.md."""
    out = tmp_path / "run"
    proc = cli("new", *PRESET, "--set", f"trainer.experiment_name=run_{TOKEN}", "--out", str(out), "--format", "json")
    doc = parsed(proc)
    assert proc.returncode == 1 and "DEPLOY-006" in {f["id"] for f in doc["findings"]}
    assert not out.exists() and TOKEN not in proc.stdout
    ok = cli("new", *PRESET, "--set", "trainer.experiment_name=run_hf_exp", "--out", str(out))
    assert ok.returncode == 0 and "run_hf_exp" in (out / "config.yaml").read_text()


def test_keys_dropped_by_an_import_are_masked_in_every_file(tmp_path):
    """issue 28: `new --from-script` copied a dropped key's value verbatim under "Keys dropped"."""
    script = tmp_path / "old.sh"
    dropped = f"actor_rollout_ref.actor.router_replay.record_file=/ckpt/run_{TOKEN}"
    script.write_text(HEAD + f"  data.train_files=/d/t.parquet data.val_files=/d/v.parquet {dropped}\n")
    out = tmp_path / "run"
    proc = cli("new", "--from-script", str(script), "--out", str(out))
    assert proc.returncode == 0, proc.stdout[-1500:]
    for path in out.iterdir():
        assert TOKEN not in path.read_text(), path.name
    run_md, answers = (out / "RUN.md").read_text(), (out / "answers.yaml").read_text()
    assert "### Keys dropped" in run_md and "record_file=/ckpt/run_hf_***" in run_md
    assert "record_file=/ckpt/run_hf_***" in answers
    # the neighbour: a dropped value without a secret is kept as it is
    script.write_text(script.read_text().replace(f"run_{TOKEN}", "run_hf_exp"))
    assert cli("new", "--from-script", str(script), "--out", str(out), "--force").returncode == 0
    assert "record_file=/ckpt/run_hf_exp" in (out / "RUN.md").read_text()


def test_an_image_with_credentials_is_an_error_and_never_printed(tmp_path):
    out = tmp_path / "run"
    image = "user:pw0rd@registry.example.com/verl/verl:v1"
    proc = cli("new", *PRESET, "--target", "kuberay-job", "--set", f"deploy.image={image}", "--out", str(out))
    assert proc.returncode == 1 and "✗ DEPLOY-006" in proc.stdout and not out.exists()
    assert "pw0rd" not in proc.stdout + proc.stderr and "DEPLOY-014" not in proc.stdout  # an error, not a warning
    good = "deploy.image=registry.example.com/verl/verl:v1"
    fixed = cli("new", *PRESET, "--target", "kuberay-job", "--set", good, "--out", str(tmp_path / "ok"))
    assert fixed.returncode == 0 and "DEPLOY-006" not in fixed.stdout
    # a manifest read back: the same refusal, the same silence
    assert cli("new", *PRESET, "--target", "kuberay-job", "--out", str(out)).returncode == 0
    manifest = out / "rayjob.yaml"
    text = manifest.read_text()
    assert "DEPLOY-006" not in {f["id"] for f in check_json(manifest, "--mode", "cluster")[1]["findings"]}
    manifest.write_text(text.replace("image: verlai/verl:vllm024.dev2", f"image: {image}"))
    proc, doc = check_json(manifest, "--mode", "cluster")
    assert "DEPLOY-006" in {f["id"] for f in doc["findings"]} and "pw0rd" not in proc.stdout


@pytest.mark.parametrize("target", ["kuberay-job", "slurm"])
def test_auth_secret_takes_a_secret_name_never_a_token(target, tmp_path):
    out = tmp_path / "run"
    proc = cli("new", *PRESET, "--target", target, "--set", f"deploy.auth_secret={TOKEN}", "--out", str(out))
    assert proc.returncode == 2 and "deploy.auth_secret" in proc.stderr and not out.exists()
    assert TOKEN not in proc.stdout + proc.stderr
    ok = cli("new", *PRESET, "--target", target, "--set", "deploy.auth_secret=ray-token", "--out", str(out))
    assert ok.returncode == 0 and "auth_secret: ray-token" in (out / "answers.yaml").read_text()


def test_the_tui_renders_findings_through_the_same_masking():
    from wizard.core.findings import error
    from wizard.i18n.text import msg
    from wizard.tui.widgets.findings_panel import finding_text

    secret = error("KEY-002", ["x.hf_token"], msg("key.not_allowed", key="x.hf_token", value="abc", allowed=["a"]), "")
    glued = error("KEY-002", ["x.name"], msg("key.not_allowed", key="x.name", value=f"run_{TOKEN}", allowed=["a"]), "")
    plain = error("KEY-002", ["x.name"], msg("key.not_allowed", key="x.name", value="abc", allowed=["a"]), "")
    assert "x.hf_token=***" in finding_text(secret).plain
    assert TOKEN not in finding_text(glued).plain and "run_hf_***" in finding_text(glued).plain
    assert "x.name=abc" in finding_text(plain).plain


def test_preflight_shows_a_cluster_address_without_its_password():
    """The address is shown as data masked (emit no longer rewrites printed text), in text and in JSON."""
    from types import SimpleNamespace

    from wizard.commands.output import as_json
    from wizard.commands.preflight import _summary_lines

    result = SimpleNamespace(address="http://admin:pw0rd@head:8265", ray_version="2.60.0", nodes=[])
    line = _summary_lines(result, None)[0]
    assert "pw0rd" not in line and "http://admin:***@head:8265" in line
    doc = json.loads(as_json([], cluster={"address": result.address, "nodes": []}))
    assert doc["cluster"]["address"] == "http://admin:***@head:8265"
    plain = SimpleNamespace(address="head:6379", ray_version="2.60.0", nodes=[])
    assert "cluster head:6379 " in _summary_lines(plain, None)[0]
