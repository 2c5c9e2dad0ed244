"""The verl key tree and defaults for the target version, allowed values, and did-you-mean.

The key/default snapshot is data (`verl_data/verl-<version>.json`, written by
`scripts/snapshot_verl_schema.py` from an installed verl wheel); the allowed value sets below are facts
read from verl's registries and dataclasses. Another verl version is another snapshot plus an entry in
ALLOWED_VALUES, not a fork of the code.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from wizard.core.choices import (
    FSDP_STRATEGIES,
    AdvEstimator,
    KlCtrl,
    KlEstimator,
    Logger,
    LossAggMode,
    LrScheduler,
    MegatronDtype,
    PolicyLoss,
    RewardManager,
    RolloutMode,
    RolloutName,
    Strategy,
    TrainerMode,
    Truncation,
    values,
)
from wizard.core.choices import (
    GROUP_ESTIMATORS as GROUP_ESTIMATORS,  # batch rules read it here, beside the other verl facts
)
from wizard.core.verl_target import TARGET_VERSION

DATA_DIR = Path(__file__).with_name("verl_data")

# Top-level sections that 0.9.x keeps in its schema (all null) but no longer reads.
LEGACY_PREFIXES = ("reward_model.", "custom_reward_function.", "sandbox_fusion.")

ADV_ESTIMATORS = values(AdvEstimator)

# The closed value sets of verl keys, per verl version (the enums of wizard.core.choices for 0.9.1).
ALLOWED_VALUES: dict[str, dict[str, tuple[Any, ...]]] = {
    "0.9.1": {
        "algorithm.adv_estimator": ADV_ESTIMATORS,
        "actor_rollout_ref.rollout.name": values(RolloutName),
        "actor_rollout_ref.rollout.mode": values(RolloutMode),
        "actor_rollout_ref.actor.loss_agg_mode": values(LossAggMode),
        "actor_rollout_ref.actor.strategy": values(Strategy),
        "critic.strategy": values(Strategy),
        "actor_rollout_ref.actor.kl_loss_type": values(KlEstimator),
        "algorithm.kl_penalty": values(KlEstimator),
        "algorithm.kl_ctrl.type": values(KlCtrl),
        "data.truncation": values(Truncation),
        "trainer.v1.trainer_mode": values(TrainerMode),
        "reward.reward_manager.name": values(RewardManager),
        "actor_rollout_ref.actor.optim.lr_scheduler_type": values(LrScheduler),
        "critic.optim.lr_scheduler_type": values(LrScheduler),
        "actor_rollout_ref.actor.megatron.dtype": values(MegatronDtype),
        "critic.megatron.dtype": values(MegatronDtype),
        "actor_rollout_ref.actor.fsdp_config.strategy": FSDP_STRATEGIES,
        "actor_rollout_ref.actor.policy_loss.loss_mode": values(PolicyLoss),
        "trainer.logger": values(Logger),
    }
}


@lru_cache(maxsize=4)
def _snapshot(version: str) -> dict:
    path = DATA_DIR / f"verl-{version}.json"
    return json.loads(path.read_text())


def extras(version: str = TARGET_VERSION) -> dict[str, list[str]]:
    """The extras verl's wheel declares (name -> requirements, as in its METADATA); empty for an older snapshot."""
    return _snapshot(version).get("extras", {})


def known_versions() -> list[str]:
    return sorted(p.stem.removeprefix("verl-") for p in DATA_DIR.glob("verl-*.json"))


def defaults(engine: str = "dp", version: str = TARGET_VERSION) -> dict[str, Any]:
    """Every dotted key of verl's composed PPO config with its default, for an engine (dp or megatron)."""
    return _snapshot(version)["engines"][engine]


def open_mappings(version: str = TARGET_VERSION) -> tuple[str, ...]:
    return tuple(_snapshot(version)["open"])


def key_tree(ctx) -> str:
    """The engine whose key tree a context's keys are checked against: the model_engine choice when the
    snapshot has its tree (torchtitan, veomni too), else the plan's engine (dp or megatron)."""
    choice = ctx.flat.get("model_engine") if isinstance(ctx.flat, dict) else None
    if isinstance(choice, str) and choice in _snapshot(TARGET_VERSION)["engines"]:
        return choice
    return ctx.plan.engine


def keys_chosen(ctx) -> frozenset[str]:
    """Keys a script's config-group choices add to the tree (`actor@actor_rollout_ref.actor=megatron_actor`
    brings the Megatron actor's keys), from the snapshot of what each option composes to."""
    script = getattr(ctx, "script", None)
    groups = config_groups()
    added: set[str] = set()
    for choice in getattr(script, "choices", None) or ():
        effect = groups.get(choice.group, {}).get("options", {}).get(choice.option, {})
        added.update(effect.get("added", {}))
    return frozenset(added)


def config_groups(version: str = TARGET_VERSION) -> dict[str, dict]:
    """Hydra config groups a command line can choose (`model_engine=megatron`): name -> options, default, and
    what each option does to the key tree ("engine": the engine whose tree it gives, or the keys it adds/removes).
    """
    return _snapshot(version).get("groups", {})


@lru_cache(maxsize=8)
def class_only_keys(engine: str = "dp", version: str = TARGET_VERSION) -> frozenset[str]:
    """Keys verl's config classes accept that its YAML does not list (Hydra needs `+` to add them)."""
    return frozenset(_snapshot(version).get("class_keys", {}).get(engine, ()))


def key_exists(key: str, engine: str = "dp", version: str = TARGET_VERSION) -> bool:
    """True when verl has this dotted key, or it lies under a mapping that takes any sub-key."""
    if key in defaults(engine, version) or key in _open_set(version) or key in class_only_keys(engine, version):
        return True
    # a sub-key of an open mapping: one of the key's dotted prefixes is one (a look-up per dot, not per mapping)
    open_set, end = _open_set(version), key.find(".")
    while end != -1:
        if key[:end] in open_set:
            return True
        end = key.find(".", end + 1)
    return False


@lru_cache(maxsize=4)
def _open_set(version: str) -> frozenset[str]:
    return frozenset(open_mappings(version))


def is_section(key: str, engine: str = "dp", version: str = TARGET_VERSION) -> bool:
    """True when the key is a mapping in verl's tree (it has sub-keys), not a leaf."""
    prefix = key + "."
    return any(k.startswith(prefix) for k in defaults(engine, version))


def default(key: str, engine: str = "dp", version: str = TARGET_VERSION) -> Any:
    return defaults(engine, version).get(key)


def is_legacy(key: str) -> bool:
    return key.startswith(LEGACY_PREFIXES)


def allowed_values(key: str, version: str = TARGET_VERSION) -> tuple[Any, ...] | None:
    return ALLOWED_VALUES.get(version, {}).get(key)


def did_you_mean(key: str, engine: str = "dp", version: str = TARGET_VERSION) -> str | None:
    """The real key closest to a mistyped one: same section first, then the same leaf anywhere."""
    keys = list(defaults(engine, version))
    section, _, leaf = key.rpartition(".")
    sibling_leaves = {k.rpartition(".")[2]: k for k in keys if k.rpartition(".")[0] == section}
    match = difflib.get_close_matches(leaf, list(sibling_leaves), n=1, cutoff=0.75)
    if match:
        return sibling_leaves[match[0]]
    same_leaf = [k for k in keys if k.rpartition(".")[2] == leaf]
    if same_leaf:
        return difflib.get_close_matches(key, same_leaf, n=1, cutoff=0.0)[0]
    match = difflib.get_close_matches(key, keys, n=1, cutoff=0.8)
    return match[0] if match else None
