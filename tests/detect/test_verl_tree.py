"""verl X's config tree from its wheel (wizard.detect.config.verl_tree): the cache, offline, a release that does not
exist, and Hydra's own verdict on the composition, fast path and full compose alike.

pip is pointed at a folder of stand-in wheels (tests/detect/verl_wheels.py) through VERL_WIZARD_WHEEL_DIR, and the
cache at a temporary folder through VERL_WIZARD_CACHE: no test here reaches the network. pip's own answers (no
index, no such release) are read in tests/cli/test_check_verl_version.py; the real wheels are composed in
tests/conformance/test_verl_version.py.
"""

from __future__ import annotations

import pickle
import shutil

import pytest

from tests.detect.verl_wheels import make_wheel, shared_trees
from wizard.detect.config import verl_tree, verl_tree_base
from wizard.detect.env.verl_verdict import Question
from wizard.detect.env.verl_verdict_compose import compose_config, quote
from wizard.errors import UsageError


@pytest.fixture(scope="module")
def trees() -> dict[str, verl_tree.Tree]:
    """The stand-in's trees of 0.8.0 and 0.9.1 as first taken from their wheels (once per test process)."""
    return shared_trees()[2]


def test_a_release_is_taken_from_its_wheel_once_then_from_the_cache_without_pip(trees, tmp_path, monkeypatch):
    _, cache, _ = shared_trees()
    tree = trees["0.8.0"]
    assert tree.source == "wheel"
    assert tree.folder == cache / "verl-config" / "0.8.0" / "verl" / "trainer" / "config"
    assert "skip:" in (tree.folder / "ppo_trainer.yaml").read_text()
    assert (tree.folder / "worker" / "fsdp_worker.yaml").is_file()
    assert not (tree.folder.parent.parent / "__init__.py").exists()  # only the config tree, not verl's code
    assert not [p.name for p in (cache / "verl-config").iterdir() if p.name.startswith(".")]  # no staging left
    # no wheel to be had now: the cached tree is used all the same
    monkeypatch.setenv(verl_tree.CACHE_ENV, str(cache))
    monkeypatch.setenv(verl_tree.WHEEL_DIR_ENV, str(tmp_path / "empty"))
    again = verl_tree.obtain("0.8.0")
    assert (again.source, again.folder) == ("cache", tree.folder)


def test_with_no_tree_nothing_is_composed_and_the_snapshot_stands_in():
    facts = verl_tree.compose(verl_tree.Tree("0.8.0", None, detail="pip: no index"), Question(None, overrides=("a=1",)))
    assert (facts["composed"], facts["source"], facts["stage"], facts["detail"]) == (
        False,
        "snapshot",
        None,
        "pip: no index",
    )


@pytest.mark.parametrize("value", ["latest", "0.9.1; rm -rf /", ""])
def test_a_value_that_is_no_release_number_is_bad_input(value):
    with pytest.raises(UsageError, match="--verl-version"):
        verl_tree.release(value)


def test_a_release_number_may_carry_a_v():
    assert verl_tree.release("v0.8.0") == "0.8.0"


def test_a_wheel_without_a_config_tree_is_bad_input_and_leaves_nothing(tmp_path):
    wheel = make_wheel(tmp_path / "wheels", "0.9.0", files={})
    with pytest.raises(UsageError, match="no verl/trainer/config/ tree"):
        verl_tree._unpack(wheel, "0.9.0", tmp_path / "cache" / "0.9.0")
    assert list((tmp_path / "cache").iterdir()) == []


def test_the_key_0_9_1_removed_composes_under_0_8_0_and_hydra_refuses_it_under_0_9_1(trees):
    question = Question(None, overrides=("actor_rollout_ref.rollout.skip.enable=true", "trainer.nnodes=2"))
    old = verl_tree.compose(trees["0.8.0"], question)
    assert (old["composed"], old["stage"], old["error"]) == (True, None, None)
    new = verl_tree.compose(trees["0.9.1"], question)
    assert new["stage"] == "compose"
    assert "Could not override 'actor_rollout_ref.rollout.skip.enable'" in new["error"]
    assert "Key 'skip' is not in struct" in new["error"]  # OmegaConf's reason, from the cause


# Overrides whose verdict the fast path (the kept base and Hydra's own override code) must give as the full compose
# does: plain values, additions, forced additions, deletions, a group choice, a package, a sweep, a hydra key, and
# refusals of several kinds.
OVERRIDES = [
    ["data.train_batch_size=32"],
    ["+trainer.new_key=1"],
    ["++trainer.nnodes=2", "++trainer.brand_new=x"],
    ["~data.max_prompt_length"],
    ["~data.no_such_key"],
    ["trainer.no_such_key=1"],
    ["+trainer.nnodes=2"],
    ["worker@actor_rollout_ref.actor=fsdp_worker"],
    ["worker@actor_rollout_ref.actor=no_such_worker"],
    ["data=nothing"],
    ["+worker=fsdp_worker"],
    ["+worker=no_such_worker"],
    ["trainer.nnodes=1,2"],
    ["hydra.job.name=x"],
    ["trainer.nnodes=[1"],
    ["actor_rollout_ref.model.override_config.any_key=3"],
    ["actor_rollout_ref.rollout.n=4", "actor_rollout_ref.rollout.skip.enable=true"],
]


@pytest.mark.parametrize("overrides", OVERRIDES, ids=[" ".join(o) for o in OVERRIDES])
def test_the_verdict_is_the_full_compose_s_whichever_path_gives_it(trees, overrides):
    tree = trees["0.9.1"]
    assert tree.folder is not None
    try:
        compose_config(str(tree.folder), "ppo_trainer", overrides)
        expected = None
    except Exception as exc:
        expected = quote(exc)
    shutil.rmtree(tree.folder.parents[2] / "verdicts", ignore_errors=True)  # composed now, not recalled
    facts = verl_tree.compose(tree, Question(None, overrides=tuple(overrides)))
    assert facts["error"] == expected
    assert facts["stage"] == (None if expected is None else "compose")


def test_a_verdict_is_kept_for_the_same_question_and_a_new_question_is_composed(trees):
    tree = trees["0.9.1"]
    assert tree.folder is not None
    kept = tree.folder.parents[2] / "verdicts"
    shutil.rmtree(kept, ignore_errors=True)
    refused = Question(None, overrides=("trainer.kept_no_such=1",))
    first = verl_tree.compose(tree, refused)
    assert first["stage"] == "compose" and len(list(kept.glob("*.json"))) == 1
    (tree.folder.parents[2] / "base-ppo_trainer.pickle").unlink(missing_ok=True)
    assert verl_tree.compose(tree, refused) == first  # recalled: the same words
    accepted = verl_tree.compose(tree, Question(None, overrides=("trainer.nnodes=3",)))
    assert accepted["stage"] is None and len(list(kept.glob("*.json"))) == 2


def test_a_config_folder_s_verdict_is_composed_again_once_a_file_there_changes(trees, tmp_path):
    primary = tmp_path / "config.yaml"
    primary.write_text(
        "hydra:\n  searchpath: ['pkg://verl.trainer.config']\ndefaults: [ppo_trainer, _self_]\n", encoding="utf-8"
    )
    question = Question(str(tmp_path), "config", ("trainer.nnodes=2",))
    assert verl_tree.compose(trees["0.8.0"], question)["stage"] is None
    primary.write_text(primary.read_text() + "defaults_typo: [\n", encoding="utf-8")  # no longer YAML
    changed = verl_tree.compose(trees["0.8.0"], question)
    assert changed["stage"] == "compose" and changed["error"].startswith("ParserError: while parsing a flow node")
    assert str(primary) in changed["error"]  # OmegaConf's YAML reader names the file, as verl's run would


def test_the_fast_path_takes_plain_values_and_leaves_groups_and_refusals_to_the_full_compose(trees):
    folder = trees["0.9.1"].folder
    assert folder is not None
    assert verl_tree_base.accepts(folder, "ppo_trainer", ["data.train_batch_size=32", "+trainer.x=1"])
    kept = folder.parents[2] / "base-ppo_trainer.pickle"
    assert kept.is_file()  # kept for the next check


# A kept base that is no longer one: a pickle whose loading raises (here int('x'): ValueError), one that loads as
# something else than a DictConfig, and bytes that are no pickle.
DAMAGED = [b"cbuiltins\nint\n(S'x'\ntR.", pickle.dumps(1), b"not a pickle"]


@pytest.mark.parametrize("damaged", DAMAGED, ids=["raises", "not a config", "no pickle"])
def test_a_damaged_kept_base_is_composed_again(trees, damaged):
    folder = trees["0.9.1"].folder
    assert folder is not None
    kept = folder.parents[2] / "base-ppo_trainer.pickle"
    kept.write_bytes(damaged)
    assert verl_tree_base.accepts(folder, "ppo_trainer", ["data.train_batch_size=32"])
    assert not verl_tree_base.accepts(folder, "ppo_trainer", ["trainer.no_such_key=1"])
    assert pickle.loads(kept.read_bytes()).trainer.nnodes == 1  # written again, whole
    assert not verl_tree_base.accepts(folder, "ppo_trainer", ["worker@actor_rollout_ref.actor=fsdp_worker"])
    assert not verl_tree_base.accepts(folder, "ppo_trainer", ["trainer.no_such_key=1"])


def test_a_config_folder_that_searches_verl_s_package_composes_over_the_release_s_tree(trees, tmp_path):
    (tmp_path / "config.yaml").write_text(
        "hydra:\n  searchpath: ['pkg://verl.trainer.config']\ndefaults: [ppo_trainer, _self_]\ntrainer:\n  nnodes: 2\n",
        encoding="utf-8",
    )
    accepted = verl_tree.compose(trees["0.8.0"], Question(str(tmp_path), "config"))
    assert (accepted["composed"], accepted["stage"]) == (True, None)
    refused = verl_tree.compose(
        trees["0.9.1"], Question(str(tmp_path), "config", ("actor_rollout_ref.rollout.skip.enable=1",))
    )
    assert refused["stage"] == "compose" and "Could not override" in refused["error"]


def test_without_the_searchpath_the_config_folder_alone_does_not_find_verl_s_tree(trees, tmp_path):
    (tmp_path / "config.yaml").write_text("defaults: [ppo_trainer, _self_]\n", encoding="utf-8")
    facts = verl_tree.compose(trees["0.8.0"], Question(str(tmp_path), "config"))
    assert facts["stage"] == "compose" and "ppo_trainer" in facts["error"]  # as Hydra says it to verl's own run


def test_the_release_s_keys_hold_its_own_and_the_open_mappings(trees):
    keys, open_keys = verl_tree.tree_keys(trees["0.8.0"], "ppo_trainer")
    assert "actor_rollout_ref.rollout.skip.enable" in keys and "actor_rollout_ref.actor.strategy" in keys
    assert "actor_rollout_ref.model.override_config" in open_keys
    newer, _ = verl_tree.tree_keys(trees["0.9.1"], "ppo_trainer")
    assert "actor_rollout_ref.rollout.skip.enable" not in newer and "trainer.nnodes" in newer
