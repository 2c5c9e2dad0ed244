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

from wizard.core.verl_target import TARGET_VERSION

DATA_DIR = Path(__file__).with_name("verl_data")

# Top-level sections that 0.9.x keeps in its schema (all null) but no longer reads.
LEGACY_PREFIXES = ("reward_model.", "custom_reward_function.", "sandbox_fusion.")

ADV_ESTIMATORS = (
    "gae",
    "grpo",
    "grpo_vectorized",
    "grpo_passk",
    "rloo",
    "rloo_vectorized",
    "reinforce_plus_plus",
    "reinforce_plus_plus_baseline",
    "remax",
    "opo",
    "gpg",
    "gdpo",
    "optimal_token_baseline",
    "tir_optimal_token_baseline",
)
# Estimators whose baseline comes from the other responses to the same prompt (n = 1 makes it zero).
GROUP_ESTIMATORS = (
    "grpo",
    "grpo_vectorized",
    "grpo_passk",
    "rloo",
    "rloo_vectorized",
    "opo",
    "gpg",
    "gdpo",
    "reinforce_plus_plus_baseline",
    "optimal_token_baseline",
    "tir_optimal_token_baseline",
)

ALLOWED_VALUES: dict[str, dict[str, tuple[Any, ...]]] = {
    "0.9.1": {
        "algorithm.adv_estimator": ADV_ESTIMATORS,
        "actor_rollout_ref.rollout.name": ("vllm", "sglang", "trtllm"),
        "actor_rollout_ref.rollout.mode": ("async",),
        "actor_rollout_ref.actor.loss_agg_mode": (
            "token-mean",
            "token-sum",
            "seq-mean-token-sum",
            "seq-mean-token-mean",
            "seq-mean-token-sum-norm",
        ),
        "actor_rollout_ref.actor.strategy": ("fsdp", "fsdp2", "fsdp_turbo", "megatron"),
        "critic.strategy": ("fsdp", "fsdp2", "fsdp_turbo", "megatron"),
        "actor_rollout_ref.actor.kl_loss_type": ("kl", "k1", "abs", "mse", "k2", "low_var_kl", "k3", "full"),
        "algorithm.kl_penalty": ("kl", "k1", "abs", "mse", "k2", "low_var_kl", "k3", "full"),
        "algorithm.kl_ctrl.type": ("fixed", "adaptive"),
        "data.truncation": ("error", "left", "right", "middle"),
        "trainer.v1.trainer_mode": ("sync", "colocate_async", "separate_async"),
        "reward.reward_manager.name": ("naive", "dapo", "gdpo", "remote", "rate_limited"),
        "actor_rollout_ref.actor.optim.lr_scheduler_type": ("constant", "cosine"),
        "critic.optim.lr_scheduler_type": ("constant", "cosine"),
        "actor_rollout_ref.actor.megatron.dtype": ("bfloat16", "float16"),
        "critic.megatron.dtype": ("bfloat16", "float16"),
        "actor_rollout_ref.actor.fsdp_config.strategy": ("fsdp", "fsdp2", "fsdp_turbo"),
        "actor_rollout_ref.actor.policy_loss.loss_mode": (
            "vanilla",
            "gspo",
            "sapo",
            "gpg",
            "clip_cov",
            "kl_cov",
            "geo_mean",
            "dro",
            "cispo",
            "dppo_tv",
            "dppo_kl",
            "bypass_mode",
        ),
        "trainer.logger": (
            "wandb",
            "mlflow",
            "swanlab",
            "vemlp_wandb",
            "tensorboard",
            "console",
            "clearml",
            "trackio",
            "file",
            "rl_insight",
        ),
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


def key_exists(key: str, engine: str = "dp", version: str = TARGET_VERSION) -> bool:
    """True when verl has this dotted key, or it lies under a mapping that takes any sub-key."""
    if key in defaults(engine, version):
        return True
    return any(key.startswith(prefix + ".") for prefix in open_mappings(version))


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
