"""A stand-in for Hydra's composition of a wizard config.yaml, for runs without verl installed.

verl's composed config is its defaults (the project's snapshot of verl 0.9.1's key tree, for the engine
the file's ``defaults`` list picks) with the file's own values laid on top (``_self_`` comes last).
Interpolations stay as strings; ``verl_model.Config`` resolves them when a check reads a key. The
conformance tier checks this stand-in against verl's real composition on every generated config.
"""

from __future__ import annotations

from typing import Any

import yaml

from wizard.core import verl_schema


def engine_of(defaults: Any) -> str:
    """ "megatron" when the defaults list overrides model_engine to megatron, else "dp"."""
    for item in defaults if isinstance(defaults, list) else []:
        if isinstance(item, dict):
            for key, value in item.items():
                if str(key).replace("override", "").strip() == "model_engine" and value == "megatron":
                    return "megatron"
    return "dp"


def flatten(tree: dict, prefix: str = "") -> dict[str, Any]:
    """Nested mapping -> dotted keys; lists and empty mappings are leaves."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def composed_flat(config_text: str) -> dict[str, Any]:
    """The flat config verl would compose from a wizard config.yaml (defaults, then the file's values)."""
    doc = yaml.safe_load(config_text) or {}
    engine = engine_of(doc.get("defaults"))
    flat = dict(verl_schema.defaults(engine))
    body = {k: v for k, v in doc.items() if k not in ("hydra", "defaults")}
    for key, value in flatten(body).items():
        # A value replacing a whole subtree (or a leaf replaced by a subtree) drops the old keys.
        for old in [k for k in flat if k.startswith(key + ".")]:
            del flat[old]
        flat[key] = value
    return flat


def model_paths(config_text: str) -> dict[str, Any]:
    """The actor's and critic's model paths as the file writes them (None: verl's "~/models/..." default)."""
    flat = flatten({k: v for k, v in (yaml.safe_load(config_text) or {}).items() if k not in ("hydra", "defaults")})
    return {"actor": flat.get("actor_rollout_ref.model.path"), "critic": flat.get("critic.model.path")}
