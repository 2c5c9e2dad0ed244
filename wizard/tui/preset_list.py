"""The presets as the Start step lists them (name, description, GPUs), read without the answers model.

`wizard.core.presets` validates every answer through the pydantic model, and YAML's import alone costs a
tenth of a Textual app's start; the Start step is painted before either is loaded. The shipped presets
are written in a plain layout (one-line descriptions, `cluster:` counts as integers): for those, the four
things the list shows are read line by line; any other file is read with YAML. A test checks that this
agrees with wizard.core.presets on every shipped preset.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.preset_files import COUNT_DEFAULTS as COUNTS
from wizard.core.preset_files import preset_dir

# A one-line plain scalar that YAML reads as that very string: not quoted, block, anchor, tag, flow or
# comment syntax, no ": " or " #" inside, and nothing YAML could resolve to a bool, null, number or date
# (any text that starts like a number is left to YAML).
_NOT_PLAIN_START = tuple("'\">|&*!%@`{}[],#?-:~.+0123456789")
_RESOLVED_WORDS = {"y", "yes", "n", "no", "true", "false", "on", "off", "null"}


@dataclass(frozen=True)
class PresetSummary:
    name: str
    description: str
    nnodes: int
    n_gpus_per_node: int


def preset_summaries() -> list[PresetSummary]:
    """Every shipped preset, by name."""
    summaries = []
    for path in sorted(preset_dir().glob("*.yaml"), key=lambda p: p.stem):
        text = path.read_text(encoding="utf-8")
        read = read_plain(text) or _read_yaml(text)
        summaries.append(PresetSummary(path.stem, *read))
    return summaries


def read_plain(text: str) -> tuple[str, int, int] | None:
    """(description, nnodes, n_gpus_per_node) of a preset in the plain layout; None for anything else."""
    description, counts, section = "", dict(COUNTS), None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in line or stripped.startswith(("---", "...", "%")):
            return None
        if not line[0].isspace():
            key, sep, value = line.partition(":")
            value = value.strip()
            if (
                not sep or not (key.isascii() and key.isidentifier()) or key == "extra"
            ):  # extra may set trainer.* keys itself
                return None
            section = key
            if key == "description":
                if not _plain(value):
                    return None
                description = value
            elif key == "cluster" and value:
                return None  # a flow mapping
            continue
        if section == "description":
            return None  # the description goes on over more lines
        if section == "cluster":
            key, sep, value = stripped.partition(":")
            if key in COUNTS:
                value = value.strip()
                if not (value.isascii() and value.isdigit() and not value.startswith("0")):
                    return None
                counts[key] = int(value)
    return description, counts["nnodes"], counts["n_gpus_per_node"]


def _plain(value: str) -> bool:
    return (
        bool(value)
        and not value.startswith(_NOT_PLAIN_START)
        and ": " not in value
        and " #" not in value
        and not value.endswith(":")
        and value.lower() not in _RESOLVED_WORDS
    )


def _read_yaml(text: str) -> tuple[str, int, int]:
    import yaml

    doc = yaml.safe_load(text) or {}
    extra = doc.get("extra") or {}
    cluster = doc.get("cluster") or {}

    def count(field: str) -> int:
        # An answers document sets trainer.<field> as cluster.<field>, or as a verl key under extra.
        return int(extra[f"trainer.{field}"]) if f"trainer.{field}" in extra else int(cluster.get(field, COUNTS[field]))

    return str(doc.get("description", "")), count("nnodes"), count("n_gpus_per_node")
