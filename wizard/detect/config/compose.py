"""Read a primary config the way Hydra composes it from a folder: `--config-path DIR --config-name NAME`.

The wizard's own `run.sh` points at the config.yaml beside it; a project may keep its own config folder
(`defaults: [ppo_trainer, base, _self_]`). Entries of the defaults list are followed when they are
verl's (ppo_trainer, ppo_megatron_trainer, `override model_engine: ...`) or files in the same folder;
any other entry is named in a note. Later entries win, `_self_` (last unless placed) is the file's body.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wizard.core.layers import ENGINE_GROUP
from wizard.detect.config import yaml_input
from wizard.detect.config.basics import flatten_config, read_text
from wizard.errors import UsageError
from wizard.i18n.text import msg

VERL_PRIMARIES = {"ppo_trainer": "dp", "ppo_megatron_trainer": "megatron"}
MAX_DEPTH = 8


def config_file(folder: Path, name: str) -> Path:
    name = name.strip("'\"")
    return folder / (name if name.endswith((".yaml", ".yml")) else f"{name}.yaml")


def read_primary(folder: Path, name: str) -> tuple[dict[str, Any], list]:
    """(flat keys, notes) of the primary config `name` in `folder`; UsageError for a file that is not YAML."""
    return _read(config_file(folder, name), folder, 0, set())


def _read(path: Path, folder: Path, depth: int, seen: set) -> tuple[dict[str, Any], list]:
    if depth > MAX_DEPTH or path in seen:
        return {}, []
    seen.add(path)
    try:
        doc = yaml_input.load_config(read_text(path))
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - a YAML error, told as one line
        raise UsageError(f"{path}: not a YAML config ({exc})") from None
    if not isinstance(doc, dict):
        return {}, []
    flat: dict[str, Any] = {}
    notes: list = []
    engine = "dp"
    declared = doc.get("defaults")
    defaults = declared if isinstance(declared, list) else []
    body = {k: v for k, v in doc.items() if k not in ("defaults", "hydra")}
    entries = list(defaults) if "_self_" in defaults else [*defaults, "_self_"]
    for entry in entries:
        if entry == "_self_":
            flat.update(flatten_config(body, engine))
            continue
        if isinstance(entry, str) and entry in VERL_PRIMARIES:
            engine = VERL_PRIMARIES[entry]
            continue
        if isinstance(entry, dict) and len(entry) == 1:
            ((group, option),) = entry.items()
            group = str(group).replace("override", "").strip()
            if group == ENGINE_GROUP:
                engine = str(option)
                continue
            target = folder / group / f"{option}.yaml"
            if target.is_file():
                sub, sub_notes = _read(target, folder, depth + 1, seen)
                package = group.split("@", 1)[1] if "@" in group else group.replace("/", ".")
                flat.update({f"{package}.{k}": v for k, v in sub.items()})
                notes.extend(sub_notes)
                continue
        elif isinstance(entry, str) and config_file(folder, entry).is_file():
            sub, sub_notes = _read(config_file(folder, entry), folder, depth + 1, seen)
            flat.update(sub)
            notes.extend(sub_notes)
            continue
        notes.append(msg("script.config_default_not_read", path=str(path), entry=str(entry)))
    if engine != "dp":
        flat[ENGINE_GROUP] = engine
    return flat, notes
