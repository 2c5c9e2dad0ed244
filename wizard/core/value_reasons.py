"""Why a value was refused by the answers' schema, as a catalogue message in the user's language.

Pydantic words its reasons in English only; the wizard shows them at the field (KEY-006) and in the one-line
error of `new`/`check`, so each common refusal is a message key with the numbers as parameters. A refusal with
no key here (rare: a type no field has) keeps pydantic's English text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from wizard.i18n.text import Msg, msg

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails  # a type only: the TUI paints its first screen before pydantic loads

# pydantic error type -> (message key, the ctx parameter it names)
_KEYS: dict[str, tuple[str, str | None]] = {
    "greater_than": ("value.greater_than", "gt"),
    "greater_than_equal": ("value.greater_than_equal", "ge"),
    "less_than": ("value.less_than", "lt"),
    "less_than_equal": ("value.less_than_equal", "le"),
    "int_parsing": ("value.not_integer", None),
    "int_type": ("value.not_integer", None),
    "int_from_float": ("value.fractional", None),
    "float_parsing": ("value.not_number", None),
    "float_type": ("value.not_number", None),
    "finite_number": ("value.not_finite", None),
    "bool_parsing": ("value.not_boolean", None),
    "bool_type": ("value.not_boolean", None),
    "string_type": ("value.not_text", None),
    "bool_for_number": ("answers.bool_for_number", None),
}
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'")


def reason_of(err: ErrorDetails) -> Msg | str:
    """The reason of one pydantic error (an item of ValidationError.errors()), as a message where one exists."""
    kind, ctx = err.get("type"), err.get("ctx") or {}
    if kind == "unholdable_char":
        return msg("value.unholdable", char=ctx.get("char"))
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return msg("value.one_of", allowed=_QUOTED.findall(str(ctx["expected"])) or [str(ctx["expected"])])
    if kind not in _KEYS:
        text = str(err.get("msg", ""))
        return text[:1].lower() + text[1:]
    key, param = _KEYS[kind]
    if param is None:
        return msg(key)
    return msg(key, limit=_plain_number(ctx.get(param)))


def bare_reason(refusal: Msg | str) -> Msg | str:
    """The reason alone of a refusal ("should be >= 1"), for a place that already names the field and the text."""
    if isinstance(refusal, Msg) and refusal.key == "value.refused":
        return refusal.args["reason"]
    return refusal


def _plain_number(value: Any) -> Any:
    # pydantic keeps the bound as declared (gt=0 on a float field is 0.0) but says "0": so do we.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


SHOWN_TEXT_MAX = 60  # characters of a refused text quoted beside its field and in KEY-006


def shown_text(text: str) -> str:
    """A refused text as it is quoted: whole up to SHOWN_TEXT_MAX characters, else its start and end around `…`
    (a pasted 5,000-character path must not push the step's fields off the screen)."""
    if len(text) <= SHOWN_TEXT_MAX:
        return text
    half = SHOWN_TEXT_MAX // 2
    return text[:half] + "…" + text[-(half - 1) :]
