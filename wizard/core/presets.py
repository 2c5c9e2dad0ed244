"""Presets: answers files shipped with the package (from verl's own examples), listed and loaded by name."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from wizard.core.layers import flatten_answers_doc
from wizard.errors import UsageError

_PACKAGE = Path(__file__).resolve().parents[1]
# Installed wheels carry the presets as wizard/_presets; a source checkout has them at the top level.
SEARCH_DIRS = (_PACKAGE / "_presets", _PACKAGE.parent / "presets")


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    values: dict[str, Any]  # layer addresses -> values

    @property
    def nnodes(self) -> int:
        return int(self.values.get("trainer.nnodes", 1))

    @property
    def n_gpus_per_node(self) -> int:
        return int(self.values.get("trainer.n_gpus_per_node", 8))

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "nnodes": self.nnodes, "n_gpus_per_node": self.n_gpus_per_node}


def preset_dir() -> Path:
    return next((d for d in SEARCH_DIRS if d.is_dir()), SEARCH_DIRS[-1])


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.yaml"))


def load_preset(name: str) -> Preset:
    path = preset_dir() / f"{name}.yaml"
    if not path.is_file():
        close = difflib.get_close_matches(name, preset_names(), n=1)
        hint = f"; did you mean {close[0]}?" if close else f"; choose one of: {', '.join(preset_names())}"
        raise UsageError(f"--preset {name}: no such preset{hint}")
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Preset(name, doc.get("description", ""), flatten_answers_doc(doc, f"preset {name}"))


def all_presets() -> list[Preset]:
    return [load_preset(name) for name in preset_names()]
