"""The one table between answer fields and verl keys, built from the answers model itself.

An answer field is named `section.field` (`batch.train_batch_size`); a verl key is dotted
(`data.train_batch_size`). `--set`, fixes, configs read by `check` and the emitted config.yaml all speak
verl keys; answers files speak fields. Wizard-only fields (no verl key) are addressed by their field name.
"""

from __future__ import annotations

from functools import lru_cache

from wizard.core.answers import SECTIONS


@lru_cache(maxsize=1)
def field_to_verl() -> dict[str, str]:
    """`section.field` -> verl key, for every field that has one."""
    table = {}
    for section, model in SECTIONS.items():
        for name, info in model.model_fields.items():
            extra = info.json_schema_extra or {}
            if "verl" in extra:
                table[f"{section}.{name}"] = extra["verl"]
    return table


@lru_cache(maxsize=1)
def verl_to_field() -> dict[str, str]:
    return {key: field for field, key in field_to_verl().items()}


@lru_cache(maxsize=1)
def all_fields() -> tuple[str, ...]:
    return tuple(f"{section}.{name}" for section, model in SECTIONS.items() for name in model.model_fields)


def wizard_only_fields() -> tuple[str, ...]:
    mapped = field_to_verl()
    return tuple(f for f in all_fields() if f not in mapped)


def address_of(name: str) -> str:
    """The canonical address of a field or key: the verl key when the field has one, else the field."""
    return field_to_verl().get(name, name)


def field_help(name: str) -> str:
    """The user-facing help of a field (its docstring), by field name or verl key."""
    field = verl_to_field().get(name, name)
    section, _, attr = field.partition(".")
    model = SECTIONS.get(section)
    if model is None or attr not in model.model_fields:
        return ""
    return model.model_fields[attr].description or ""
