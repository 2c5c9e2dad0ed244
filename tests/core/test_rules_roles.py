"""Roles and models rules: a failing case and its passing neighbours for each."""

from __future__ import annotations

import pytest

from tests.conftest import findings_for, ids

GAE = {
    "algorithm.adv_estimator": "gae",
    "actor_rollout_ref.rollout.n": 1,
    "actor_rollout_ref.actor.ppo_mini_batch_size": 16,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 2,
    "critic.ppo_micro_batch_size_per_gpu": 2,
}


def test_role_001_actor_path_required():
    assert "ROLE-001" in ids({"actor_rollout_ref.model.path": None})
    assert "ROLE-001" not in ids()


def test_role_002_critic_needs_path_and_fix_uses_actor():
    found = [f for f in findings_for(GAE) if f.id == "ROLE-002"]
    assert found and found[0].fixes[0].set == {"critic.model.path": "Qwen/Qwen3-8B"}
    assert "ROLE-002" not in ids({**GAE, "critic.model.path": "Qwen/Qwen3-8B"})
    assert "ROLE-002" in ids({"critic.enable": True, "critic.ppo_micro_batch_size_per_gpu": 2})


def test_role_003_critic_same_as_reward_model():
    rm = {
        **GAE,
        "critic.model.path": "/m/rm",
        "reward.reward_model.enable": True,
        "reward.reward_model.model_path": "/m/rm",
        "reward.reward_model.rollout.name": "vllm",
    }
    assert "ROLE-003" in ids(rm)
    assert "ROLE-003" not in ids({**rm, "critic.model.path": "/m/actor"})


@pytest.mark.parametrize(
    "source, fails", [("my_dataset", True), ("openai/gsm8k", False), ("aime2024", False), ("numina_cn_k12", False)]
)
def test_role_005_unknown_data_source_without_reward(source, fails):
    assert ("ROLE-005" in ids({"models.data_source": source})) == fails


def test_role_005_custom_function_or_reward_model_is_a_reward_source():
    assert "ROLE-005" not in ids({"models.data_source": "mine", "reward.custom_reward_function.path": "/r.py"})
    assert "ROLE-005" not in ids(
        {
            "models.data_source": "mine",
            "reward.reward_model.enable": True,
            "reward.reward_model.model_path": "/rm",
            "reward.reward_model.rollout.name": "vllm",
        }
    )


def test_role_006_critic_forced_on_with_grpo():
    assert "ROLE-006" in ids(
        {"critic.enable": True, "critic.model.path": "x", "critic.ppo_micro_batch_size_per_gpu": 4}
    )
    assert "ROLE-006" not in ids({**GAE, "critic.enable": True, "critic.model.path": "x"})


def test_role_007_tilde_path_is_refused_with_an_expanded_fix(monkeypatch):
    monkeypatch.setenv("HOME", "/home/ada")
    found = [f for f in findings_for({"actor_rollout_ref.model.path": "~/models/qwen"}) if f.id == "ROLE-007"]
    assert found and found[0].fixes[0].set == {"actor_rollout_ref.model.path": "/home/ada/models/qwen"}


def test_role_007_missing_local_path_only_in_local_mode(tmp_path):
    missing = str(tmp_path / "nope")
    assert "ROLE-007" in ids({"actor_rollout_ref.model.path": missing}, mode="local")
    assert "ROLE-007" not in ids({"actor_rollout_ref.model.path": missing}, mode="cluster")
    assert "ROLE-007" not in ids({"actor_rollout_ref.model.path": str(tmp_path)}, mode="local")


def test_role_007_judges_the_path_facts_it_is_given_and_looks_nothing_up(tmp_path):
    from wizard.core.paths import LocalPath

    there, gone = str(tmp_path), str(tmp_path / "nope")
    told_gone = {there: LocalPath(exists=False)}
    told_there = {gone: LocalPath(exists=True)}
    assert "ROLE-007" in ids({"actor_rollout_ref.model.path": there}, mode="local", paths=told_gone)
    assert "ROLE-007" not in ids({"actor_rollout_ref.model.path": gone}, mode="local", paths=told_there)
    assert "ROLE-007" not in ids({"actor_rollout_ref.model.path": gone}, mode="local", paths={})  # unknown
    tilde = {"~/m": LocalPath(expanded="/srv/home/m")}
    found = [f for f in findings_for({"actor_rollout_ref.model.path": "~/m"}, paths=tilde) if f.id == "ROLE-007"]
    assert found[0].fixes[0].set == {"actor_rollout_ref.model.path": "/srv/home/m"}
    unknown = findings_for({"actor_rollout_ref.model.path": "~/m"}, paths={})
    assert not next(f for f in unknown if f.id == "ROLE-007").fixes  # where ~ leads is not known: no fix to offer


@pytest.mark.parametrize(
    "path",
    [
        "Qwen/Qwen2.5-0.5B-Instruct'; echo $HOME",  # a paste that took the shell line's tail
        "Qwen/Qwen3 8B",
        "`id`/model",
    ],
)
def test_role_007_a_name_that_is_neither_a_repo_id_nor_a_path(path):
    found = [f for f in findings_for({"actor_rollout_ref.model.path": path}) if f.id == "ROLE-007"]
    assert len(found) == 1 and "neither a Hugging Face repo id" in str(found[0].message)


@pytest.mark.parametrize(
    "path",
    [
        "Qwen/Qwen3-8B",
        "gpt2",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
        "checkpoints/run_3/global_step_100/actor",  # a folder relative to where the run starts
        "${oc.env:MODEL_PATH}",  # an interpolation verl resolves (a script's unknown variable)
        "/models/Qwen 3 (copy)",  # a local path may hold anything; it is judged by whether it exists
    ],
)
def test_role_007_repo_ids_relative_folders_and_interpolations_pass(path):
    assert "ROLE-007" not in ids({"actor_rollout_ref.model.path": path}, mode="cluster")


def test_role_009_reference_note_only_when_reference_used():
    assert any(
        f.id == "ROLE-009"
        for f in findings_for(
            {"actor_rollout_ref.actor.use_kl_loss": True, "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu": 8}
        )
    )
    assert not any(f.id == "ROLE-009" for f in findings_for())


def test_role_010_filter_groups_with_colocated_reward_model():
    rm = {
        "reward.reward_model.enable": True,
        "reward.reward_model.model_path": "/rm",
        "reward.reward_model.rollout.name": "vllm",
        "algorithm.filter_groups.enable": True,
    }
    assert "ROLE-010" in ids(rm)
    assert "ROLE-010" not in ids(
        {
            **rm,
            "reward.reward_model.enable_resource_pool": True,
            "reward.reward_model.nnodes": 1,
            "reward.reward_model.n_gpus_per_node": 1,
        }
    )
