"""`check --verl-version X` and `new --verl-version X`: verl X's config tree (from its wheel) composed by Hydra.

pip takes stand-in wheels (tests/detect/verl_wheels.py) from a folder (VERL_WIZARD_WHEEL_DIR) into a cache under
tmp_path (VERL_WIZARD_CACHE): no network. The stand-in 0.8.0 has actor_rollout_ref.rollout.skip, as the real 0.8.0
has and 0.9.1 has not (the real pair: tests/conformance/test_verl_version.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, check_json, cli
from tests.detect.verl_wheels import shared_trees

SKIP = "actor_rollout_ref.rollout.skip.enable"
LAUNCH = "python3 -m verl.trainer.main_ppo \\\n    data.train_batch_size=64 \\\n    {args}\n"


@pytest.fixture
def wheels(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in wheels of 0.8.0 and 0.9.1 and a cache that holds both trees (pip ran once per process)."""
    folder, cache, _ = shared_trees()
    monkeypatch.setenv("VERL_WIZARD_WHEEL_DIR", str(folder))
    monkeypatch.setenv("VERL_WIZARD_CACHE", str(cache))
    return folder


def script(tmp_path: Path, args: str) -> Path:
    path = tmp_path / "run.sh"
    path.write_text(LAUNCH.format(args=args), encoding="utf-8")
    return path


def ids(doc: dict) -> list[str]:
    return [f["id"] for f in doc["findings"]]


def test_a_key_0_9_1_removed_is_no_error_under_0_8_0_and_hydra_s_refusal_under_0_9_1(wheels, tmp_path):
    run = script(tmp_path, f"{SKIP}=true")
    _, old = check_json(run, "--mode", "cluster", "--verl-version", "0.8.0")
    assert old["verl_tree"]["version"] == "0.8.0" and old["verl_tree"]["stage"] is None
    assert old["verl_tree"]["composed"] is True and old["verl_tree"]["source"] == "cache"
    assert "VERL-005" not in ids(old) and "KEY-001" not in ids(old)
    [held] = [f for f in old["findings"] if f["id"] == "VERL-007"]
    assert held["severity"] == "info" and held["paths"] == [SKIP]
    assert "verl 0.8.0's config tree" in held["message"] and "0.9.1" in held["message"]
    assert "removed in verl 0.9.0" in held["message"]  # what 0.9.1 made of it, from the key history

    result, new = check_json(run, "--mode", "cluster", "--verl-version", "0.9.1")
    assert result.returncode == 1
    assert new["verl_tree"]["source"] == "cache" and new["verl_tree"]["stage"] == "compose"
    [refused] = [f for f in new["findings"] if f["id"] == "VERL-005"]
    assert refused["severity"] == "error" and refused["paths"] == ["--verl-version"]
    assert f"Could not override '{SKIP}'" in refused["message"] and "is not in struct" in refused["message"]
    assert "verl 0.9.1's config tree (wheel), composed by Hydra, verl not imported" in refused["message"]
    assert refused["message"].endswith(new["verl_tree"]["error"])  # Hydra's words as they are
    assert "KEY-001" in ids(new)  # the wizard's own 0.9.1 rule, beside it


def test_the_held_key_changes_the_exit_status_only_when_it_was_the_one_error(wheels, tmp_path):
    base = "algorithm.adv_estimator=grpo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B actor_rollout_ref.rollout.name=vllm"
    base += " actor_rollout_ref.actor.ppo_mini_batch_size=16 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2"
    base += " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=2"
    base += " actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=2 data.train_files=/d/t.parquet"
    base += " data.val_files=/d/v.parquet trainer.n_gpus_per_node=8"
    plain, _ = check_json(script(tmp_path, base), "--mode", "cluster")
    assert plain.returncode == 0, plain.stdout  # the neighbour: nothing wrong without the removed key
    run = script(tmp_path, f"{base} {SKIP}=true")
    today, doc = check_json(run, "--mode", "cluster")
    assert today.returncode == 1 and [i for i in ids(doc) if i.startswith(("KEY", "VERL"))] == ["KEY-001"]
    old, doc = check_json(run, "--mode", "cluster", "--verl-version", "0.8.0")
    assert old.returncode == 0 and "VERL-007" in ids(doc) and doc["verdict"] == "pass"


def test_offline_with_no_cached_tree_the_snapshot_judges_and_a_note_says_so(wheels, tmp_path, monkeypatch):
    monkeypatch.setenv("VERL_WIZARD_WHEEL_DIR", str(tmp_path / "no-wheels-here"))
    monkeypatch.setenv("VERL_WIZARD_CACHE", str(tmp_path / "empty-cache"))
    run = script(tmp_path, f"{SKIP}=true trainer.nnodes=1")
    plain_result, plain = check_json(run, "--mode", "cluster")
    result, doc = check_json(run, "--mode", "cluster", "--verl-version", "0.8.0")
    assert result.returncode == plain_result.returncode == 1
    assert doc["verl_tree"]["composed"] is False and doc["verl_tree"]["source"] == "snapshot"
    [note] = [f for f in doc["findings"] if f["id"] == "VERL-006"]
    assert note["severity"] == "info" and "embedded verl 0.9.1 snapshot" in note["message"]
    assert "verl==0.8.0" in note["message"]  # pip's own last words
    assert not (tmp_path / "empty-cache" / "verl-config" / "0.8.0").exists()
    text = cli("check", str(run), "--mode", "cluster", "--verl-version", "0.8.0").stdout
    assert "VERL-006 info: no config tree of verl 0.8.0 here" in text
    assert [f for f in doc["findings"] if f["id"] != "VERL-006"] == plain["findings"]  # today's judging, as is


def test_the_text_output_notes_the_tree_that_composed_it(wheels, tmp_path):
    run = script(tmp_path, "trainer.nnodes=1")
    out = cli("check", str(run), "--mode", "cluster", "--verl-version", "0.8.0").stdout
    assert "note: verl 0.8.0's config tree (wheel), composed by Hydra, verl not imported: composes the config" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (
            ["--verl-version", "0.0.7"],
            "--verl-version 0.0.7: verl has no release 0.0.7 on the package index (its last: 0.8.0, 0.9.1)",
        ),
        (["--verl-version", "newest"], "--verl-version 'newest': not a release number"),
        (["--verl-version", "0.8.0", "--verl", sys.executable], "--verl-version and --verl: give one"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(wheels, tmp_path, args, words):
    result, doc = check_json(script(tmp_path, "trainer.nnodes=1"), *args)
    assert result.returncode == 2 and doc is None
    assert words in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_new_composes_the_config_it_writes_over_the_release_s_tree(wheels, tmp_path):
    out = tmp_path / "out"
    result = cli(
        "new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(out), "--verl-version", "0.8.0", "--format", "json"
    )
    doc = json.loads(result.stdout)
    assert result.returncode == 0, result.stdout
    # the written config.yaml searches pkg://verl.trainer.config: pointed at the cached tree, it composes there
    assert doc["verl_tree"]["config_name"] == "config" and doc["verl_tree"]["stage"] is None
    assert doc["verl_tree"]["composed"] is True and "config.yaml" in doc["written"]


def test_without_the_flag_check_neither_downloads_nor_imports_hydra(wheels, tmp_path):
    run = str(script(tmp_path, f"+trainer.note_{os.getpid()}=1"))  # a question no earlier check kept a verdict of
    fresh = tmp_path / "fresh-cache"
    code = (
        "import os, sys\nfrom wizard.cli import main\n"
        "def composers():\n    return sorted({m.split('.')[0] for m in sys.modules} & {'hydra', 'omegaconf', 'antlr4'})\n"
        "main(['check', sys.argv[1], '--mode', 'cluster'])\n"
        "print('WITHOUT', composers(), os.path.exists(sys.argv[2]))\n"
        "os.environ['VERL_WIZARD_CACHE'] = sys.argv[3]\n"
        "main(['check', sys.argv[1], '--mode', 'cluster', '--verl-version', '0.8.0'])\nprint('WITH', composers())\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), VERL_WIZARD_CACHE=str(fresh))
    argv = [sys.executable, "-c", code, run, str(fresh), str(shared_trees()[1])]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    lines = [line for line in done.stdout.splitlines() if line.startswith(("WITHOUT", "WITH "))]
    assert lines == ["WITHOUT [] False", "WITH ['antlr4', 'hydra', 'omegaconf']"], done.stderr[-2000:]
