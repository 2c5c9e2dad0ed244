"""`check --verl-version X` on the real wheels of verl 0.8.0 and 0.9.1 (downloaded by pip: network), against the real
verl 0.9.1 (VERL_PYTHON) where one is at hand.

- A script that 0.8.0 accepts and 0.9.1 refuses (actor_rollout_ref.rollout.skip.*, which verl 0.9.0 removed; found
  by diffing the two wheels' composed trees): no composition error with 0.8.0, Hydra's own words with 0.9.1.
- For a handful of scripts, the composition verdict of `--verl-version 0.9.1` is the installed verl 0.9.1's (`--verl`):
  refused at composition by both, with the same words, or by neither.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import cli_subprocess

pytestmark = pytest.mark.conformance

WIZARD = Path(sys.executable).with_name("verl-wizard")
SKIP = "actor_rollout_ref.rollout.skip.enable"
HEAD = """python3 -m verl.trainer.main_ppo {config} \\
    algorithm.adv_estimator=grpo \\
    data.train_batch_size=16 \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 \\
    trainer.n_gpus_per_node=8 {extra}
"""
# (name, --config-name argument or "", extra overrides): accepted and refused at composition, by several routes
SCRIPTS = [
    ("plain", "", ""),
    ("removed key", "", f"{SKIP}=True"),
    ("typo", "", "trainer.total_epoch=3"),
    ("added new key", "", "+actor_rollout_ref.actor.checkpoint.my_note=x"),
    ("added existing key", "", "+trainer.nnodes=1"),
    ("forced key", "", "++trainer.nnodes=1 ++trainer.brand_new=2"),
    ("deleted key", "", "~trainer.val_before_train"),
    ("deleted missing key", "", "~trainer.no_such_key"),
    ("bad override", "", "trainer.nnodes=[1"),
    (
        "megatron key",
        "--config-name=ppo_megatron_trainer",
        "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2",
    ),
    ("megatron key on fsdp", "", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"),
]


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    """A cache of this session's own: the wheels are downloaded here, as on a user's first run."""
    return tmp_path_factory.mktemp("verl-wizard-cache")


def wizard(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, VERL_WIZARD_CACHE=str(cache))
    env.pop("VERL_WIZARD_WHEEL_DIR", None)
    return cli_subprocess(*args, program=[str(WIZARD)], env=env, timeout=600)


def script(tmp_path: Path, name: str, config: str, extra: str) -> Path:
    path = tmp_path / ("".join(c if c.isalnum() else "_" for c in name) + ".sh")
    path.write_text(HEAD.format(config=config, extra=extra), encoding="utf-8")
    return path


def tree_verdict(cache: Path, path: Path, version: str) -> dict:
    done = wizard(cache, "check", str(path), "--mode", "cluster", "--verl-version", version, "--format", "json")
    doc = json.loads(done.stdout)
    if not doc["verl_tree"]["composed"]:
        pytest.skip(f"verl {version}'s wheel could not be downloaded here: {doc['verl_tree']['detail']}")
    return doc


def test_a_key_0_9_1_removed_composes_under_0_8_0_and_0_9_1_refuses_it_in_hydra_s_words(cache, tmp_path):
    path = script(tmp_path, "removed", "", f"{SKIP}=True actor_rollout_ref.rollout.skip.dump_dir=/tmp/skip")
    old = tree_verdict(cache, path, "0.8.0")
    assert old["verl_tree"]["stage"] is None and old["verl_tree"]["source"] == "wheel"
    ids = [f["id"] for f in old["findings"]]
    assert "VERL-005" not in ids and "KEY-001" not in ids
    assert {tuple(f["paths"]) for f in old["findings"] if f["id"] == "VERL-007"} == {
        (SKIP,),
        ("actor_rollout_ref.rollout.skip.dump_dir",),
    }
    new = tree_verdict(cache, path, "0.9.1")
    [refused] = [f for f in new["findings"] if f["id"] == "VERL-005"]
    assert f"Could not override '{SKIP}'" in refused["message"] and "Key 'skip' is not in struct" in refused["message"]
    assert "verl 0.9.1's config tree (wheel), composed by Hydra, verl not imported" in refused["message"]
    again = tree_verdict(cache, path, "0.8.0")  # the tree is cached now
    assert again["verl_tree"]["source"] == "cache" and again["findings"] == old["findings"]


@pytest.mark.parametrize("name, config, extra", SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_the_0_9_1_tree_s_composition_verdict_is_verl_0_9_1_s_own(cache, tmp_path, verl_python, name, config, extra):
    path = script(tmp_path, name, config, extra)
    tree = tree_verdict(cache, path, "0.9.1")["verl_tree"]
    done = wizard(cache, "check", str(path), "--mode", "cluster", "--verl", verl_python, "--format", "json")
    verl = json.loads(done.stdout)["verl"]
    assert verl["version"] == "0.9.1" and verl["problem"] is None, verl
    assert (tree["stage"] == "compose") == (verl["stage"] == "compose"), (tree, verl)
    if verl["stage"] == "compose":
        assert tree["error"] == verl["error"]  # the same words: Hydra's, quoted the same way


def test_a_config_new_writes_composes_over_the_0_9_1_tree_as_verl_composes_it(cache, tmp_path, verl_python):
    out = tmp_path / "out"
    assert wizard(cache, "new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(out)).returncode == 0
    config = str(out / "config.yaml")
    tree = tree_verdict(cache, Path(config), "0.9.1")["verl_tree"]
    verl = json.loads(
        wizard(cache, "check", config, "--mode", "cluster", "--verl", verl_python, "--format", "json").stdout
    )
    assert tree["stage"] is None and verl["verl"]["stage"] is None  # pkg://verl.trainer.config found in both
