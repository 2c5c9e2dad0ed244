"""DEPLOY-017 and DATA-011..013 through the doors a user takes: `new` (exit 1 and nothing written for the errors;
DEPLOY-017 is a warning beside RUN.md's cluster steps), `check` of an answers file (it names the target) but not of
a verl config (it does not), `explain` in both languages, and `data` (which checks the files it is given, not
where a run reads them)."""

from __future__ import annotations

import inspect
import json
import re

import pytest

from tests.cli.helpers import cli, cli_json
from wizard.commands.data import RUN_PATH_RULES
from wizard.core.rules.catalogue import CATALOGUE
from wizard.core.rules.data import paths as data_paths
from wizard.i18n.zh_terms import RULES as ZH_RULES

NEW_IDS = ("DEPLOY-017", "DATA-011", "DATA-012", "DATA-013")


def ids(doc, severity=None) -> set[str]:
    return {f["id"] for f in doc["findings"] if severity in (None, f["severity"])}


def test_new_with_a_two_node_preset_on_the_default_target_warns_beside_runmds_cluster_steps(tmp_path):
    out = tmp_path / "out"
    proc, doc = cli_json("new", "--preset", "grpo-7b-2x8", "--out", str(out))
    assert proc.returncode == 0 and "DEPLOY-017" in ids(doc, "warning") and not ids(doc, "error")
    finding = next(f for f in doc["findings"] if f["id"] == "DEPLOY-017")
    assert [f["set"] for f in finding["fixes"]] == [{"deploy.target": t} for t in ("ray-job", "slurm", "kuberay-job")]
    # what the warning points to: RUN.md starts the cluster and joins run.sh to its head
    run_md = (out / "RUN.md").read_text()
    assert "ray start --head" in run_md and 'export RAY_ADDRESS="${HEAD_ADDRESS:?' in run_md


@pytest.mark.parametrize("target", ["slurm", "ray-job", "kuberay-job"])
def test_new_with_a_two_node_preset_on_a_cluster_target_passes(target, tmp_path):
    proc, doc = cli_json("new", "--preset", "grpo-7b-2x8", "--target", target, "--out", str(tmp_path / "out"))
    assert proc.returncode == 0 and "DEPLOY-017" not in ids(doc), doc["findings"]


def test_check_judges_the_target_an_answers_file_names_but_not_a_verl_config(tmp_path):
    out = tmp_path / "out"
    assert cli("new", "--preset", "grpo-7b-2x8", "--target", "slurm", "--out", str(out)).returncode == 0
    proc, doc = cli_json("check", str(out / "answers.yaml"), "--mode", "cluster")
    assert proc.returncode == 0 and "DEPLOY-017" not in ids(doc)
    local = tmp_path / "local.yaml"
    local.write_text((out / "answers.yaml").read_text().replace("target: slurm", "target: local"))
    proc, doc = cli_json("check", str(local), "--mode", "cluster")
    assert proc.returncode == 0 and "DEPLOY-017" in ids(doc, "warning")
    # a verl config (and a launch script) says nothing of where it runs: a driver on a cluster may start it
    proc, doc = cli_json("check", str(out / "config.yaml"), "--mode", "cluster")
    assert proc.returncode == 0 and "DEPLOY-017" not in ids(doc)


def test_new_refuses_unset_validation_data_and_windows_paths_and_warns_on_relative_ones(tmp_path):
    answers = tmp_path / "in.yaml"
    answers.write_text("data:\n  val_files: null\n")
    proc, doc = cli_json("new", "--preset", "grpo-8b-1x8", "--answers", str(answers), "--out", str(tmp_path / "a"))
    assert proc.returncode == 1 and ids(doc, "error") == {"DATA-011"} and not (tmp_path / "a").exists()
    win = ["--set", "data.train_files=D:/x.parquet"]
    proc, doc = cli_json("new", "--preset", "grpo-8b-1x8", *win, "--out", str(tmp_path / "b"))
    assert proc.returncode == 1 and ids(doc, "error") == {"DATA-013"} and not (tmp_path / "b").exists()
    rel = ["--set", "data.train_files=data/train.parquet", "--target", "ray-job"]
    proc, doc = cli_json("new", "--preset", "grpo-8b-1x8", *rel, "--out", str(tmp_path / "c"))
    assert proc.returncode == 0 and "DATA-012" in ids(doc, "warning")
    finding = next(f for f in doc["findings"] if f["id"] == "DATA-012")
    assert "working_dir" in finding["message"]
    # the neighbour: the preset's own absolute paths
    proc, doc = cli_json("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path / "d"))
    assert proc.returncode == 0 and not ids(doc) & set(NEW_IDS)


@pytest.mark.parametrize("rule_id", NEW_IDS)
def test_explain_in_both_languages(rule_id):
    en = cli("explain", rule_id.lower())
    zh = cli("explain", rule_id, "--lang", "zh")
    doc = CATALOGUE[rule_id]
    assert en.returncode == 0 and doc.title in en.stdout and doc.why in en.stdout
    title, why = ZH_RULES[rule_id]
    assert zh.returncode == 0 and title in zh.stdout and why in zh.stdout and doc.title not in zh.stdout
    assert cli("explain", "BATCH-001").stdout == en_batch()  # the language does not stay switched


def en_batch() -> str:
    return f"BATCH-001 (error, batch arithmetic): {CATALOGUE['BATCH-001'].title}\n\n{CATALOGUE['BATCH-001'].why}\n"


def test_data_checks_the_files_it_is_given_not_where_a_run_reads_them(tmp_path):
    rows = [{"prompt": [{"role": "user", "content": "1+1?"}], "data_source": "openai/gsm8k"}]
    rows[0]["reward_model"] = {"ground_truth": "2"}
    (tmp_path / "train.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    proc = cli("data", "train.jsonl", "--format", "json", cwd=tmp_path)  # relative, and no validation files
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and not ids(doc) & set(NEW_IDS), doc["findings"]
    # the command leaves out exactly the ids the path rules emit
    assert set(RUN_PATH_RULES) == set(re.findall(r'"(DATA-\d{3})"', inspect.getsource(data_paths)))
