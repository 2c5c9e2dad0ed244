"""A relative --config-path is read where Hydra reads it: against verl's entry point, so `config` is verl's own
config folder (verl's own Megatron examples start with `--config-path=config`), never a folder beside the script
(issue 31: check asked no verl and composed nothing for such a script)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import check_json
from wizard.core.hydra_config_path import is_verls_own


@pytest.mark.parametrize("path", ["config", "./config", "config/", "'config'", '"config"', "../trainer/config"])
def test_a_relative_config_is_verls_own_folder(path):
    assert is_verls_own(path)


@pytest.mark.parametrize("path", ["/opt/verl/verl/trainer/config", "configs", "config/extra", "../config", "$DIR"])
def test_other_paths_are_not(path):
    assert not is_verls_own(path)


SCRIPT = """python3 -m verl.trainer.main_ppo --config-path={path} --config-name='ppo_megatron_trainer.yaml' \\
    algorithm.adv_estimator=grpo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    data.train_files=/data/train.parquet data.val_files=/data/val.parquet \\
    actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2 \\
    trainer.n_gpus_per_node=8 trainer.nnodes=1
"""
# a folder named config beside the script, whose primary config Hydra never reads under `--config-path=config`
LOCAL = "actor_rollout_ref:\n  actor:\n    megatron:\n      tensor_model_parallel_size: 4\n"


def _notes(doc) -> str:
    return " ".join(str(n) for n in doc.get("notes", []))


def test_a_folder_named_config_beside_the_script_is_not_read(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "ppo_megatron_trainer.yaml").write_text(LOCAL)
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(path="config"))
    proc, doc = check_json(script)
    assert doc is not None, proc.stderr
    assert str(tmp_path / "config") not in _notes(doc)


def test_an_absolute_config_path_is_read(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "ppo_megatron_trainer.yaml").write_text(LOCAL)
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(path=tmp_path / "config"))
    proc, doc = check_json(script)
    assert doc is not None, proc.stderr
    assert str(tmp_path / "config") in _notes(doc)


def _ids(doc) -> list[str]:
    return [f["id"] for f in doc["findings"]]


def test_any_other_relative_config_path_is_an_error(tmp_path):
    # verl-recipe's deepeyes: `--config-path=${BASEDIR}/recipe/deepeyes/configs` with BASEDIR=base_dir, a relative
    # path; verl 0.9.1 stops with "Primary config directory not found" (.../verl/trainer/base_dir/...)
    (tmp_path / "base_dir" / "configs").mkdir(parents=True)
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(path="base_dir/configs"))
    proc, doc = check_json(script, "--mode", "cluster")
    assert proc.returncode == 1 and "SCRIPT-018" in _ids(doc), proc.stdout
    [finding] = [f for f in doc["findings"] if f["id"] == "SCRIPT-018"]
    assert "verl/trainer/base_dir/configs" in finding["message"] and finding["severity"] == "error"


@pytest.mark.parametrize("path", ["config", "./config", "{abs}", "$NOT_SET_HERE/configs"])
def test_verls_own_an_absolute_or_an_unknown_config_path_is_no_error(path, tmp_path):
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(path=path.format(abs=tmp_path)))
    proc, doc = check_json(script, "--mode", "cluster")
    assert doc is not None and "SCRIPT-018" not in _ids(doc), proc.stderr


def test_a_relative_config_dir_is_read_against_the_working_directory(tmp_path):
    # --config-dir (what the wizard's ray-job.sh writes: `--config-dir=.`) is not --config-path: Hydra adds it to
    # the search path from the working directory, so a relative one is no SCRIPT-018
    (tmp_path / "local").mkdir()
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT.format(path="x").replace("--config-path=x", "--config-dir=local"))
    proc, doc = check_json(script, "--mode", "cluster")
    assert doc is not None and "SCRIPT-018" not in _ids(doc), proc.stderr
