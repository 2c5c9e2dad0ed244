"""verl X's config tree composed once with no override, kept in the cache, and a run's overrides applied to it by
Hydra's own code: `--verl-version`'s fast path (wizard.detect.config.verl_tree).

Hydra's compose reads and merges some thirty YAML files of verl's tree (0.3-0.4 s, against a `check` of ~0.25 s that
must stay 20x faster than verl's own start-up). What those files compose to does not depend on a run's plain value
overrides (`a.b=1`, `+a.b=1`, `++a.b=1`, `~a.b`): Hydra composes the defaults list first, sets the config to struct
mode, then applies them with ConfigLoaderImpl._apply_overrides_to_config. So the composed base is kept per release
and primary config (`base-NAME.pickle` beside the tree; pickle keeps OmegaConf's node types exactly, and the file is
the wizard's own), and the overrides are parsed by Hydra's OverridesParser and applied by that same function.
Anything else (a config group, a package, a sweep, a `hydra.*` key, another folder than verl's tree) is not taken
here, and a refusal is left to the full compose, so that Hydra's own compose words every error.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from pathlib import Path
from typing import Any

from wizard.detect.env.verl_verdict_compose import compose_config
from wizard.detect.script.hydra_values import hydra_parser


def accepts(tree: Path, config_name: str, overrides: list[str]) -> bool:
    """True when Hydra's own override code applies `overrides` to the kept composition of `config_name` over the
    tree without an error; False when this path does not apply or something was raised (compose in full then)."""
    # deferred: start-up cost (Hydra only with --verl-version)
    from hydra._internal.config_loader_impl import ConfigLoaderImpl

    if "/" in config_name or not (tree / f"{config_name}.yaml").is_file():
        return False
    try:
        parsed = hydra_parser().parse_overrides(overrides=list(overrides))
    except Exception:  # noqa: BLE001 - the full compose parses again and words it
        return False
    for override in parsed:
        key = override.key_or_group
        group = (tree / key).is_dir() or (tree / f"{key}.yaml").is_file()
        if group or override.package is not None or override.is_sweep_override() or override.is_hydra_override():
            return False
    base = composed(tree, config_name)
    if base is None:
        return False
    try:
        ConfigLoaderImpl._apply_overrides_to_config(parsed, base)  # noqa: SLF001 - the very code compose runs (1.3.8)
    except Exception:  # noqa: BLE001 - refused: the full compose gives Hydra's verdict in its own words
        return False
    return True


def composed(tree: Path, config_name: str) -> Any | None:
    """The DictConfig of `config_name` composed over the tree with no override, struct mode on, as Hydra holds it
    before it applies a run's overrides; kept beside the tree after the first time. None when it cannot compose."""
    from omegaconf import DictConfig, OmegaConf  # deferred: start-up cost (only with --verl-version)

    kept = tree.parents[2] / f"base-{config_name}.pickle"  # beside verl/ in the release's cache folder
    try:
        loaded = pickle.loads(kept.read_bytes())
    except Exception:  # noqa: BLE001 - none kept yet, a damaged one, one another OmegaConf wrote: compose again
        loaded = None
    if isinstance(loaded, DictConfig):
        return loaded
    try:
        config = compose_config(str(tree), config_name, [])
    except Exception:  # noqa: BLE001 - the full compose says why
        return None
    OmegaConf.set_struct(config, True)
    with contextlib.suppress(OSError):  # a read-only cache composes in full next time
        staged = kept.with_name(f".{kept.name}.{os.getpid()}")
        staged.write_bytes(pickle.dumps(config))
        os.replace(staged, kept)
    return config
