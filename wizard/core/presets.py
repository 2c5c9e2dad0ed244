"""Presets: answers files shipped with the package (from verl's own examples), listed and loaded by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from wizard.core.layers import flatten_answers_doc
from wizard.core.preset_files import COUNT_DEFAULTS, preset_names, shipped_preset, unknown_preset


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    values: dict[str, Any]  # layer addresses -> values

    @property
    def nnodes(self) -> int:
        return int(self.values.get("trainer.nnodes", COUNT_DEFAULTS["nnodes"]))

    @property
    def n_gpus_per_node(self) -> int:
        return int(self.values.get("trainer.n_gpus_per_node", COUNT_DEFAULTS["n_gpus_per_node"]))

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "nnodes": self.nnodes,
            "n_gpus_per_node": self.n_gpus_per_node,
        }


def load_preset(name: str) -> Preset:
    """A shipped preset by its listed name; UsageError for anything else (a path is not a preset name)."""
    path = shipped_preset(name)
    if path is None:
        raise unknown_preset(name)
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Preset(name, doc.get("description", ""), flatten_answers_doc(doc, f"preset {name}"))


def all_presets() -> list[Preset]:
    return [load_preset(name) for name in preset_names()]
