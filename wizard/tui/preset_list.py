"""The presets as the Start step lists them (name, description, GPUs), read without the answers model.

`wizard.core.presets` validates every answer through the pydantic model; the Start step is painted before
that model is loaded, so it reads the same files for the four things it shows. A test checks that both
readers agree on every shipped preset.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import wizard

_PACKAGE = Path(wizard.__file__).resolve().parent
# The same places as wizard.core.presets.SEARCH_DIRS: installed wheels, then a source checkout.
SEARCH_DIRS = (_PACKAGE / "_presets", _PACKAGE.parent / "presets")


@dataclass(frozen=True)
class PresetSummary:
    name: str
    description: str
    nnodes: int
    n_gpus_per_node: int


def preset_dir() -> Path:
    return next((d for d in SEARCH_DIRS if d.is_dir()), SEARCH_DIRS[-1])


def preset_summaries() -> list[PresetSummary]:
    """Every shipped preset, by name."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    summaries = []
    for path in sorted(preset_dir().glob("*.yaml"), key=lambda p: p.stem):
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}
        summaries.append(PresetSummary(path.stem, str(doc.get("description", "")), _count(doc, "nnodes", 1), _count(doc, "n_gpus_per_node", 8)))
    return summaries


def _count(doc: dict, field: str, default: int) -> int:
    # An answers document sets trainer.<field> as cluster.<field>, or as a verl key under extra.
    extra = doc.get("extra") or {}
    if f"trainer.{field}" in extra:
        return int(extra[f"trainer.{field}"])
    return int((doc.get("cluster") or {}).get(field, default))
