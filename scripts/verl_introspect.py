#!/usr/bin/env python3
"""Run inside an environment that has verl (scripts/snapshot_verl_schema.py calls it): print, as JSON, what
the YAML files alone do not say.

- "groups": every Hydra config group that verl's ppo_trainer composes (`hydra.runtime.choices`), with its
  default and, for each option Hydra composes when chosen on the command line (`group=option`), what it
  does to the key tree: `model_engine` options name the engine tree they give; other options list the
  keys they add (with defaults), remove and change.
- "open": mappings that verl's config dataclasses type as dict (any sub-key is accepted), by dotted key, and
  the one mapping main_ppo hands whole to `ray.init(**...)` (`ray_kwargs.ray_init`: any ray.init argument).
- "class_keys": per engine, keys a config dataclass accepts that the composed YAML does not list.

Nothing of verl's is copied: only key names, defaults and types.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys
import typing
from pathlib import Path

ENGINES = ("dp", "megatron", "torchtitan", "veomni")


def flatten(tree, prefix: str = "", out: dict | None = None) -> dict:
    out = {} if out is None else out
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flatten(value, dotted + ".", out)
        else:
            out[dotted] = value
    return out


def _is_dict_type(tp) -> bool:
    origin = typing.get_origin(tp)
    if tp is dict or origin is dict:
        return True
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return any(_is_dict_type(arg) for arg in typing.get_args(tp) if arg is not type(None))
    return False


def class_facts(flat: dict) -> tuple[set, set]:
    """(open mappings, keys only a config class has) for every section of `flat` with a _target_."""
    open_maps, class_keys = set(), set()
    for key, target in flat.items():
        if not key.endswith("._target_") or not isinstance(target, str):
            continue
        section = key[: -len("._target_")]
        module_name, _, class_name = target.rpartition(".")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
            hints = typing.get_type_hints(cls)
        except Exception:  # noqa: BLE001 - a class that does not import here is simply not described
            continue
        if not dataclasses.is_dataclass(cls):
            continue
        for f in dataclasses.fields(cls):
            if f.name.startswith("_"):
                continue
            dotted = f"{section}.{f.name}"
            if _is_dict_type(hints.get(f.name)):
                open_maps.add(dotted)
            present = dotted in flat or any(k.startswith(dotted + ".") for k in flat)
            if not present:
                class_keys.add(dotted)
    return open_maps, class_keys


def main() -> int:
    import verl
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    config_dir = Path(verl.__file__).parent / "trainer" / "config"
    result: dict = {"groups": {}, "open": [], "class_keys": {}}
    with initialize_config_dir(str(config_dir), version_base=None):
        choices = OmegaConf.to_container(compose("ppo_trainer", return_hydra_config=True).hydra.runtime.choices)
        base = flatten(OmegaConf.to_container(compose("ppo_trainer"), resolve=False))
        open_maps: set = set()
        for engine in ENGINES:
            tree = flatten(OmegaConf.to_container(compose("ppo_trainer", overrides=[f"model_engine={engine}"])))
            found, only = class_facts(tree)
            open_maps |= found
            result["class_keys"][engine] = sorted(only)
        for name, default in choices.items():
            if name.startswith("hydra/") or default is None:
                continue
            folder = config_dir / name.split("@")[0]
            options = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
            effects: dict = {}
            for option in options:
                try:
                    tree = flatten(OmegaConf.to_container(compose("ppo_trainer", overrides=[f"{name}={option}"])))
                except Exception:  # noqa: BLE001 - Hydra refused this choice: it is not an option to offer
                    continue
                if name == "model_engine":
                    effects[option] = {"engine": option}
                    continue
                effects[option] = {
                    "added": {k: v for k, v in tree.items() if k not in base},
                    "removed": sorted(k for k in base if k not in tree),
                    "changed": {k: v for k, v in tree.items() if k in base and base[k] != v},
                }
            result["groups"][name] = {"default": default, "options": effects}
        import inspect

        from verl.trainer import main_ppo

        source = inspect.getsource(main_ppo)
        if 'config.ray_kwargs.get("ray_init"' in source and "ray.init(**" in source:
            open_maps.add("ray_kwargs.ray_init")
        result["open"] = sorted(open_maps)
    json.dump(result, sys.stdout, sort_keys=True, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
