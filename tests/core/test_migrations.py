"""The key history of verl's trainer config, the hand-written renames, and the migration to verl 0.9.1."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from wizard.core import migrations, verl_schema
from wizard.core.migrations import fate, migrate_flat

ROOT = Path(__file__).resolve().parents[2]


def _load_script():
    spec = importlib.util.spec_from_file_location("key_history", ROOT / "scripts" / "key_history.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the committed table ---------------------------------------------------------------------


def test_table_covers_every_release_from_0_2_to_0_9_1_read_from_the_wheels():
    table = migrations.history()
    assert table["versions"][0] == "0.2.0" and table["versions"][-1] == "0.9.1"
    assert len(table["versions"]) == 12
    for version in table["versions"]:
        assert ".whl: " in table["sources"][version]
    # before 0.5 the complete yaml, from 0.5 on the generated flat config
    assert "_generated_ppo_trainer.yaml" not in table["sources"]["0.4.1"]
    assert "_generated_ppo_trainer.yaml" in table["sources"]["0.5.0"]


def test_table_agrees_with_the_0_9_1_snapshot_written_by_the_other_script():
    keys_091 = {k for k in migrations.history()["keys"] if "0.9.1" in migrations.releases_having(k)}
    snapshot = {k for engine in ("dp", "megatron") for k in verl_schema.defaults(engine) if not k.endswith("._target_")}
    assert keys_091 == snapshot


def test_defaults_per_release():
    assert migrations.default_in("actor_rollout_ref.rollout.name", "0.5.0") == "vllm"
    assert migrations.default_in("actor_rollout_ref.rollout.name", "0.9.1") == "???"
    assert migrations.default_in("actor_rollout_ref.rollout.mode", "0.5.0") == "sync"
    assert migrations.default_in("actor_rollout_ref.rollout.mode", "0.3.0") is None  # not there yet
    assert migrations.releases_having("trainer.val_generations_to_log_to_wandb") == ["0.2.0", "0.3.0"]


# --- what became of a key: at least five known moves and removals -----------------------------


@pytest.mark.parametrize(
    "key, kind, target, version",
    [
        ("actor_rollout_ref.actor.fsdp_config.grad_offload", "removed", None, "0.3.0"),
        ("trainer.remove_previous_ckpt_in_save", "removed", None, "0.3.0"),
        ("actor_rollout_ref.rollout.use_fire_sampling", "removed", None, "0.5.0"),
        ("reward_model.micro_batch_size_per_gpu", "removed", None, "0.7.1"),
        ("reward_model.enable", "moved", "reward.reward_model.enable", "0.7.1"),
        ("custom_reward_function.path", "moved", "reward.custom_reward_function.path", "0.7.1"),
        ("reward_model.sandbox_fusion.url", "moved", "reward.sandbox_fusion.url", "0.7.1"),
        ("ray_init.num_cpus", "moved", "ray_kwargs.ray_init.num_cpus", "0.6.0"),
        ("critic.model.fsdp_config.param_offload", "moved", "critic.fsdp.param_offload", "0.8.0"),
        ("algorithm.rollout_is_threshold", "moved", "algorithm.rollout_correction.rollout_is_threshold", "0.6.1"),
        (
            "actor_rollout_ref.rollout.update_weights_bucket_megabytes",
            "moved",
            "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes",
            "0.7.1",
        ),
        # from renames.yaml: the leaf changed, so the table alone cannot say
        (
            "actor_rollout_ref.rollout.val_temperature",
            "renamed",
            "actor_rollout_ref.rollout.val_kwargs.temperature",
            "0.3.0",
        ),
        ("reward_model.model.path", "renamed", "reward.reward_model.model_path", "0.7.1"),
        ("trainer.val_generations_to_log_to_wandb", "renamed", "trainer.log_val_generations", "0.4.0"),
        ("algorithm.rollout_is", "removed", None, "0.6.1"),
        ("reward_model.model.external_lib", "retired", None, "0.7.1"),
    ],
)
def test_known_moves_and_removals(key, kind, target, version):
    f = fate(key)
    assert (f.kind, f.target, f.version) == (kind, target, version)
    assert not verl_schema.key_exists(key) or migrations.history()["keys"][key].get("retired")
    if target:
        assert fate(target).kind == "current"  # the neighbour: the new home is a live 0.9.1 key


@pytest.mark.parametrize(
    "key, kind",
    [
        ("trainer.n_gpus_per_node", "current"),
        ("actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space", "current"),  # under an open mapping
        ("actor_rollout_ref.actor.megatron.tensor_model_parallel_size", "other-engine"),
        ("actor_rollout_ref.actor.ppo_epoch", "typo"),
        ("actor_rollout_ref.actr.ppo_epochs", "typo"),
        ("actor_rollout_ref.actor.entropy_coeff_schedule", "unknown"),  # starts like a real key: not close
        ("retriever.topk", "unknown"),
    ],
)
def test_current_typo_and_unknown_keys(key, kind):
    assert fate(key).kind == kind


def test_typo_names_the_genuinely_close_key_and_unknown_says_fork():
    assert fate("actor_rollout_ref.actor.ppo_epoch").target == "actor_rollout_ref.actor.ppo_epochs"
    text = str(fate("algorithm.curriculum.enable").describe())
    assert "belongs to a fork or to the script's own code" in text and "did you mean" not in text


def test_removed_message_names_the_release_and_the_span():
    text = str(fate("actor_rollout_ref.actor.fsdp_config.grad_offload").describe())
    assert "removed in verl 0.3.0" in text and "it was in verl 0.2.0" in text


# --- the hand-written renames ---------------------------------------------------------------


def test_every_hand_rename_is_dated_explained_and_points_at_a_live_key():
    releases = migrations.releases()
    for key, entry in migrations.renames().items():
        assert entry["version"] in releases, key
        assert entry["reason"] and "\n" not in entry["reason"], key
        assert fate(key).kind in ("renamed", "removed"), key
        if entry["to"]:
            assert verl_schema.key_exists(entry["to"]) and fate(entry["to"]).kind == "current", key


def test_inferred_moves_lead_to_a_key_of_a_later_release():
    table = migrations.history()["keys"]
    moves = {k: e["moved"] for k, e in table.items() if "moved" in e}
    assert len(moves) >= 5
    for key, (version, target) in moves.items():
        assert version in migrations.releases_having(target), (key, target)
        assert version not in migrations.releases_having(key) or table[key].get("retired") == version


# --- the generator's pure parts, on made-up trees --------------------------------------------


def test_generator_infers_a_move_by_leaf_and_skips_ambiguous_ones():
    script = _load_script()
    versions = ["1.0.0", "1.1.0"]
    old = {"a.shared.lr": 1, "a.enable": True, "b.x.name": "n", "c.keep": 0}
    new = {"z.shared.lr": 1, "z.enable": True, "y.name": "m", "w.name": "k", "c.keep": 0}
    moves = script.infer_moves([old, new], versions)
    assert moves["a.shared.lr"] == ("1.1.0", "z.shared.lr")
    assert "a.enable" not in moves  # a lone generic leaf says nothing
    assert "b.x.name" not in moves  # two candidates, no better one
    table = script.build([old, new], versions, {})
    assert table["keys"]["a.shared.lr"]["in"] == "1.0.0" and table["keys"]["c.keep"]["in"] == "1.0.0..1.1.0"


def test_generator_ranges_and_labels():
    script = _load_script()
    assert script.ranges([True, True, False, True], ["a", "b", "c", "d"]) == "a..b,d"
    assert script.label("0.3.0.post1") == "0.3.0" and script.label("0.2") == "0.2.0"


# --- the migration of a flat override dict ---------------------------------------------------


def test_migrate_moves_renames_and_drops_with_reasons():
    result = migrate_flat(
        {
            "algorithm.adv_estimator": "grpo",
            "reward_model.enable": True,
            "reward_model.model.path": "/rm",
            "reward_model.micro_batch_size_per_gpu": 8,
            "actor_rollout_ref.actor.fsdp_config.grad_offload": False,
            "algorithm.curriculum.enable": True,
            "actor_rollout_ref.rollout.name": "vllm",
        }
    )
    assert result.flat["algorithm.adv_estimator"] == "grpo"
    assert result.flat["reward.reward_model.enable"] is True
    assert result.flat["reward.reward_model.model_path"] == "/rm"
    assert result.flat["reward.reward_model.rollout.name"] == "vllm"  # mandatory in 0.9.1, filled in
    assert all(verl_schema.key_exists(k) for k in result.flat)
    dropped = "\n".join(result.dropped)
    for key in ("reward_model.micro_batch_size_per_gpu", "grad_offload", "algorithm.curriculum.enable"):
        assert key in dropped
    assert "removed in verl 0.7.1" in dropped and "a fork's or the script's own key" in dropped
    assert any("reward_model.model.path → reward.reward_model.model_path" in c for c in result.changed)


def test_migrate_keeps_an_explicit_new_key_over_the_old_one():
    result = migrate_flat(
        {
            "reward.custom_reward_function.path": "/new.py",
            "custom_reward_function.path": "/old.py",
            "actor_rollout_ref.rollout.name": "vllm",
        }
    )
    assert result.flat == {"reward.custom_reward_function.path": "/new.py", "actor_rollout_ref.rollout.name": "vllm"}
    assert "custom_reward_function.path=/old.py" in result.dropped[0] and "wins" in result.dropped[0]


def test_migrate_fills_the_rollout_name_the_old_default_gave():
    result = migrate_flat({"data.train_batch_size": 64, "trainer.val_generations_to_log_to_wandb": 5})
    assert result.flat["actor_rollout_ref.rollout.name"] == "vllm"
    assert result.releases == ["0.2.0", "0.3.0"] and result.fits_all
    assert any("verl 0.3.0's default" in c for c in result.changed)
    current = migrate_flat({"actor_rollout_ref.rollout.name": "sglang"})
    assert current.flat == {"actor_rollout_ref.rollout.name": "sglang"} and not current.changed


def test_migrate_lists_defaults_that_changed_since_the_scripts_release():
    result = migrate_flat({"trainer.val_generations_to_log_to_wandb": 5, "actor_rollout_ref.rollout.name": "vllm"})
    assert any(
        line.startswith("actor_rollout_ref.actor.entropy_coeff: 0.001 in verl 0.3.0") for line in result.defaults
    )
    pinned = migrate_flat({"trainer.val_generations_to_log_to_wandb": 5, "actor_rollout_ref.actor.entropy_coeff": 0.01})
    assert not any(line.startswith("actor_rollout_ref.actor.entropy_coeff") for line in pinned.defaults)


def test_likely_releases_best_fit_when_none_has_all():
    assert migrations.likely_releases(["actor_rollout_ref.actor.fsdp_config.grad_offload"]) == ["0.2.0"]
    mixed = migrations.likely_releases(
        ["actor_rollout_ref.actor.fsdp_config.grad_offload", "ray_init.num_cpus", "ray_init.timeline_json_file"]
    )
    assert mixed == ["0.4.0", "0.4.1", "0.5.0"]
    assert migrations.likely_releases(["no.such.key"]) == []
