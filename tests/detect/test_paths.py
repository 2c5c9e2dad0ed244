"""Path facts: what this machine says about the paths the answers name, read here and only here."""

from __future__ import annotations

from wizard.core.layers import build
from wizard.core.paths import LocalPath
from wizard.detect.paths import inspect_paths, named_paths, path_inputs


def answers(**values):
    return build([("test", values)]).answers


def test_local_mode_looks_each_path_up(tmp_path):
    there, gone = str(tmp_path), str(tmp_path / "nope")
    a = answers(**{"actor_rollout_ref.model.path": there, "data.train_files": [gone, there]})
    facts = inspect_paths(a, "local")["paths"]
    assert facts == {there: LocalPath(exists=True), gone: LocalPath(exists=False)}
    assert named_paths(a) == [there, gone]


def test_cluster_mode_looks_nothing_up_but_still_says_where_tilde_leads(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    a = answers(**{"actor_rollout_ref.model.path": str(tmp_path), "data.val_files": "~/val.parquet"})
    facts = inspect_paths(a, "cluster")["paths"]
    assert facts[str(tmp_path)] == LocalPath(exists=None)
    assert facts["~/val.parquet"] == LocalPath(expanded=str(tmp_path / "val.parquet"))


def test_the_cache_key_follows_the_paths_the_mode_and_the_home(tmp_path, monkeypatch):
    a = answers(**{"actor_rollout_ref.model.path": "~/m"})
    monkeypatch.setenv("HOME", "/home/a")
    key = path_inputs(a, "local")
    assert key == path_inputs(a, "local") and key != path_inputs(a, "cluster")
    monkeypatch.setenv("HOME", "/home/b")
    assert path_inputs(a, "local") != key
