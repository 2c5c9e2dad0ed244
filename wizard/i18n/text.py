"""Messages as catalogue keys with parameters, rendered in the language asked for.

A rule, a note or a fix label says *what* to tell the user as `msg("batch.indivisible", B=256, n=5)`; each
language says *how* in its catalogue (`wizard/i18n/messages_en.py`, `messages_zh.py`), a template per key:

    "batch.indivisible": "train_batch_size {B} × n {n} = {responses} responses do not divide by {label}"

Templates are `str.format` templates with three additions, so that each language keeps its own grammar:

- `{n:plural(error|errors)}` is the word for the count n (English needs it; Chinese writes `{n} 个错误`);
- `{items:list}` joins a list ("a, b and c" in English, "a、b 和 c" in Chinese); `{items:comma}` joins with
  the language's plain comma;
- a parameter that is itself a `Msg` (or a list of them) is rendered in the same language first.

Any standard format spec still applies (`{share:.0%}`, `{gib:.1f}`). A key missing from a language falls
back to English; a key missing from English renders as the key itself, and the catalogue tests fail on both.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Msg", "msg", "render", "template_fields"]


@dataclass(frozen=True)
class Msg:
    """A user-facing text as a catalogue key and its parameters (hashable, comparable, language-free)."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def args(self) -> dict[str, Any]:
        return dict(self.params)

    def render(self, lang: str | None = None) -> str:
        return render(self, lang)

    def __str__(self) -> str:
        return render(self)


def msg(key: str, **params: Any) -> Msg:
    """The message `key` with these parameters (lists become tuples, so that a Msg stays hashable)."""
    return Msg(key, tuple((name, _frozen(value)) for name, value in params.items()))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_JOINERS = {
    "en": {"list": (", ", " and "), "comma": (", ", ", ")},
    "zh": {"list": ("、", " 和 "), "comma": ("，", "，")},
}


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural(") and format_spec.endswith(")"):
            one, _, other = format_spec[7:-1].partition("|")
            return one if value == 1 else other
        if format_spec in ("list", "comma"):
            items = [self._text(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
            sep, last = _JOINERS.get(self.lang, _JOINERS["en"])[format_spec]
            if len(items) < 2:
                return "".join(items)
            return sep.join(items[:-1]) + last + items[-1]
        if isinstance(value, Msg):
            return format(render(value, self.lang), format_spec)
        return super().format_field(value, format_spec)

    def _text(self, value: Any) -> str:
        return render(value, self.lang) if isinstance(value, Msg) else str(value)


def _catalogue(lang: str) -> Mapping[str, str]:
    from wizard.i18n import messages_en, messages_zh

    return {"en": messages_en.MESSAGES, "zh": messages_zh.MESSAGES}.get(lang, messages_en.MESSAGES)


def render(message: Msg | str, lang: str | None = None) -> str:
    """The text of `message` in `lang` (default: the current language); a plain str is returned as it is."""
    if not isinstance(message, Msg):
        return message
    if lang is None:
        from wizard.i18n import language

        lang = language()
    template = _catalogue(lang).get(message.key)
    if template is None:
        template = _catalogue("en").get(message.key)
    if template is None:
        return message.key
    return _Formatter(lang).vformat(template, (), message.args)


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses (for the catalogue tests)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None and field != "":
            names.add(field.split(".")[0].split("[")[0])
    return names
