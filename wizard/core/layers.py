"""Answers built from layers, each value remembering the layer it came from.

A layer is a flat mapping from an address (a verl dotted key, or a wizard-only field such as
`deploy.target`) to a value. `build` merges layers in the order given (later wins), validates once, and
records provenance; wizard.core.workspace holds the layers of a run in their one fixed precedence.
"""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from wizard.core import verl_schema
from wizard.core.answers.model import SECTIONS, Answers
from wizard.core.field_keys import all_fields, field_to_verl, verl_to_field
from wizard.core.value_reasons import reason_of
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg

# Hydra's config-group choice, accepted where launch scripts write it as an override.
ENGINE_GROUP = "model_engine"
STRATEGY_KEY = "actor_rollout_ref.actor.strategy"
# Sections of an answers file that are not answers: a preset's name and description, and the record of
# where the answers came from (wizard.core.answers.document).
NOT_ANSWERS = ("name", "description", "provenance", "migrated", "topology")


@dataclass(frozen=True)
class LayeredAnswers:
    """Validated answers plus, for every address that a layer set, the name of the winning layer."""

    answers: Answers
    flat: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def source_of(self, address: str) -> str:
        if address in self.sources:
            return self.sources[address]
        if address == STRATEGY_KEY and ENGINE_GROUP in self.sources:
            return self.sources[ENGINE_GROUP]  # `model_engine=megatron` chose the strategy
        return "wizard default" if address in all_fields() else "verl default"

    def with_values(self, values: dict[str, Any], layer: str = "edited") -> LayeredAnswers:
        """A copy with `values` (addresses -> value; None removes the address) set by `layer`."""
        flat = dict(self.flat)
        sources = dict(self.sources)
        for address, value in values.items():
            address = canonical_address(address)
            if value is None:
                flat.pop(address, None)
                sources.pop(address, None)
            else:
                flat[address] = value
                sources[address] = layer
        return LayeredAnswers(answers_from_flat(flat), flat, sources)


def canonical_address(name: str) -> str:
    """A field name or verl key -> the address layers use (the verl key when the field has one)."""
    return field_to_verl().get(name, name)


def build(layers: Iterable[tuple[str, Mapping[str, Any]]]) -> LayeredAnswers:
    """Merge layers in order (later wins) and validate the result once."""
    flat: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for layer, values in layers:
        for address, value in values.items():
            address = canonical_address(address)
            flat[address] = value
            sources[address] = layer
    return LayeredAnswers(answers_from_flat(flat), flat, sources)


def check_address(address: str, engine: str = "dp") -> None:
    """Refuse an address that is neither an answer field nor a key of verl's tree, naming the closest."""
    if address in verl_to_field() or address in all_fields() or address == ENGINE_GROUP:
        return
    if verl_schema.key_exists(address, engine) or verl_schema.key_exists(address, "megatron"):
        return
    close = verl_schema.did_you_mean(address, engine) or _closest_field(address)
    hint = f"; did you mean {close}?" if close else "; see `verl-wizard explain KEY-001`"
    raise UsageError(f"{address}: not a key of verl {verl_schema.TARGET_VERSION} nor a wizard answer{hint}")


def _closest_field(name: str) -> str | None:
    match = difflib.get_close_matches(name, list(all_fields()), n=1, cutoff=0.75)
    return match[0] if match else None


def answers_from_flat(flat: dict[str, Any]) -> Answers:
    """Validate a flat address -> value mapping into Answers; a bad value is one UsageError line."""
    nested: dict[str, dict[str, Any]] = {}
    extra: dict[str, Any] = {}
    for address, value in flat.items():
        if address == ENGINE_GROUP:
            nested.setdefault("engine", {})["strategy"] = "megatron" if value == "megatron" else "fsdp"
            continue
        field_name = verl_to_field().get(address, address if address in all_fields() else None)
        if field_name is None:
            extra[address] = value
            continue
        section, _, attr = field_name.partition(".")
        nested.setdefault(section, {})[attr] = value
    try:
        return Answers(**nested, extra=extra)
    except ValidationError as exc:
        raise UsageError(_one_line(exc)) from None


def _one_line(exc: ValidationError) -> Msg:
    err = exc.errors()[0]
    loc = [str(part) for part in err["loc"]]
    field_name = ".".join(loc[:2])
    address = field_to_verl().get(field_name, field_name)
    got = err.get("input")
    # reprlib bounds the text: a value built from YAML aliases can be astronomically large when expanded.
    shown = reprlib.repr(got) if not isinstance(got, (dict, list)) else type(got).__name__
    return msg("value.refused", field=address, reason=reason_of(err), got=shown)


def flatten_answers_doc(doc: Any, origin: str) -> dict[str, Any]:
    """An answers file or preset ({section: {field: value}, extra: {verl.key: value}}) -> addresses."""
    if not isinstance(doc, dict):
        raise UsageError(
            f"{origin}: expected a mapping of sections (algorithm, models, batch, ...), got {type(doc).__name__}"
        )
    flat: dict[str, Any] = {}
    for section, values in doc.items():
        if section in NOT_ANSWERS:
            continue
        if section == "extra":
            if not isinstance(values, dict):
                raise UsageError(f"{origin}: extra must be a mapping of verl keys to values")
            for key, value in values.items():
                check_address(str(key))
                flat[str(key)] = value
            continue
        model = SECTIONS.get(section)
        if model is None:
            close = difflib.get_close_matches(str(section), list(SECTIONS) + ["extra"], n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise UsageError(f"{origin}: unknown section {section!r}{hint}")
        if not isinstance(values, dict):
            raise UsageError(f"{origin}: section {section} must be a mapping of answers, got {type(values).__name__}")
        for attr, value in values.items():
            if attr not in model.model_fields:
                close = difflib.get_close_matches(str(attr), list(model.model_fields), n=1)
                hint = f"; did you mean {section}.{close[0]}?" if close else ""
                raise UsageError(f"{origin}: unknown answer {section}.{attr}{hint}")
            flat[canonical_address(f"{section}.{attr}")] = value
    return flat


def to_answers_doc(answers: Answers) -> dict[str, Any]:
    """Answers -> the nested document of an answers file, holding only values that differ from defaults."""
    doc = answers.model_dump(exclude_defaults=True, mode="json")
    return {k: v for k, v in doc.items() if v}
