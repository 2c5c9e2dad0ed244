"""`check --verl PY` where PY's verl is another release than 0.9.1: the wizard's 0.9.1 key verdicts are held to what
that verl composed (wizard.core.rules.verl.tree.held_to_installed), asked of fake verl packages
(tests/cli/verl_fakes.py) whose config tree has the keys an older release had."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import cli
from tests.cli.verl_fakes import find_hydra_python, make_fake_verl

# A tree as verl 0.7-0.8 had it: the rollout's skip switch (gone in 0.9.0) and the global micro-batch size.
OLD_TREE = (
    "data:\n  train_batch_size: 8\ntrainer:\n  n_gpus_per_node: 8\n  nnodes: 1\n  device: cuda\n"
    "actor_rollout_ref:\n  model:\n    path: ~/models/placeholder\n"
    "  actor:\n    ppo_mini_batch_size: 16\n    ppo_micro_batch_size: null\n    ppo_micro_batch_size_per_gpu: null\n"
    "  rollout:\n    skip:\n      enable: false\n"
)
ARGS = (
    "data.train_batch_size=16 trainer.n_gpus_per_node=8 actor_rollout_ref.actor.ppo_mini_batch_size=16 "
    "actor_rollout_ref.actor.ppo_micro_batch_size=8 actor_rollout_ref.rollout.skip.enable=True "
    "+trainer.val_before_train=true"
)


@pytest.fixture(scope="session")
def hydra_python() -> str:
    return find_hydra_python()


def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    folder = make_fake_verl(tmp_path / f"fake-{version}", version=version)
    (folder / "verl/trainer/config/ppo_trainer.yaml").write_text(OLD_TREE, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(folder))


def check(tmp_path: Path, hydra_python: str, args: str = ARGS) -> tuple[int, dict[str, list[dict]]]:
    run = tmp_path / "run.sh"
    run.write_text(f"python3 -m verl.trainer.main_ppo {args}\n", encoding="utf-8")
    result = cli("check", str(run), "--mode", "cluster", "--verl", hydra_python, "--format", "json")
    by_id: dict[str, list[dict]] = {}
    for finding in json.loads(result.stdout)["findings"]:
        by_id.setdefault(finding["id"], []).append(finding)
    return result.returncode, by_id


def test_an_old_verl_that_composed_the_run_holds_the_0_9_1_key_verdicts(tmp_path, monkeypatch, hydra_python):
    fake(tmp_path, monkeypatch, "0.7.1")
    rc, found = check(tmp_path, hydra_python)
    assert not {"KEY-001", "SCRIPT-005"} & found.keys(), found
    actor_micro = "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"
    assert not [f for f in found.get("BATCH-006", []) if f["paths"] == [actor_micro]]
    notes = {f["paths"][0]: f["message"] for f in found["VERL-007"]}
    skip, plus = "actor_rollout_ref.rollout.skip.enable", "trainer.val_before_train"
    assert notes[skip].startswith(f"{skip} is a key of verl 0.7.1's config tree")
    assert notes[plus].startswith(f"{plus} is not in verl 0.7.1's config tree, so the + adds it there")
    micro = notes[actor_micro]
    assert micro.startswith("verl 0.7.1's workers divide the global actor_rollout_ref.actor.ppo_micro_batch_size")
    assert "VERL-001" not in found and "VERL-002" not in found
    # what stays is said to be 0.9.1's verdict (the log-prob passes set no micro-batch size at all)
    for finding in found.get("BATCH-006", []):
        assert finding["message"].endswith("(judged by verl 0.9.1's schema; the run uses verl 0.7.1)")
    assert rc == 1


def test_verl_0_9_1_itself_keeps_the_wizards_errors(tmp_path, monkeypatch, hydra_python):
    fake(tmp_path, monkeypatch, "0.9.1")
    rc, found = check(tmp_path, hydra_python)
    assert {"KEY-001", "SCRIPT-005", "BATCH-006"} <= found.keys()
    assert "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu" in [f["paths"][0] for f in found["BATCH-006"]]
    assert "VERL-007" not in found
    assert not any("judged by verl" in f["message"] for fs in found.values() for f in fs)
    assert rc == 1


def test_an_old_verl_that_refused_to_compose_only_says_the_verdicts_are_0_9_1_s(tmp_path, monkeypatch, hydra_python):
    fake(tmp_path, monkeypatch, "0.7.1")
    rc, found = check(tmp_path, hydra_python, ARGS + " trainer.no_such_key=1")
    assert [f["id"] for f in found["VERL-001"]] == ["VERL-001"]
    for rule_id in ("KEY-001", "SCRIPT-005"):
        for finding in found[rule_id]:
            assert finding["message"].endswith("(judged by verl 0.9.1's schema; the run uses verl 0.7.1)"), finding
    # the release alone decides that 0.7's workers read a global micro-batch size
    assert "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu" in [f["paths"][0] for f in found["VERL-007"]]
    assert rc == 1
