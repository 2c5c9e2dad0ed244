"""The steps in order, which answers each step shows, and on which step a finding's key is edited.

Which fields a step shows, in which order and when, is declared with each field (its `Spec` in
wizard.core.answers.model); this module reads those declarations. Importing it loads nothing heavy: the first
screen is painted before the answers model (pydantic) is loaded, and only the step list is needed for it.
"""

from __future__ import annotations

from wizard.core.step_names import FIELD_STEPS, STEPS


def fields_of(step: str) -> tuple[str, ...]:
    """The fields a step offers, in row order (none for Start and Review)."""
    if step not in FIELD_STEPS:
        return ()  # without loading the declarations: the Start step paints first
    return _declarations().step_fields().get(step, ())


def step_of(address: str) -> str:
    """The step where a verl key or field is edited; review for keys no step shows."""
    spec = _declarations().spec_of(address)
    return spec.step if spec is not None and spec.step is not None else "review"  # offered: it has a step


def field_for(address: str) -> str | None:
    """The field of a verl key or field name when a step offers it."""
    spec = _declarations().spec_of(address)
    return spec.name if spec is not None and spec.offered else None


def _declarations():
    # deferred: the field declarations are the answers model (pydantic), loaded after the first paint
    from wizard.core import field_keys

    return field_keys


__all__ = ["STEPS", "field_for", "fields_of", "step_of"]
