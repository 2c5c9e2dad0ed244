"""Messages as catalogue keys with parameters, rendered in the language asked for.

A rule, a note or a fix label says *what* to tell the user as `msg("batch.indivisible", B=256, n=5)`; each
language says *how* in its catalogue (`wizard/i18n/messages_en.py`, `messages_zh.py`, which gather the
families of `wizard/i18n/messages/`), a template per key:

    "batch.indivisible": "train_batch_size {B} × n {n} = {responses} responses do not divide by {label}"

Templates are `str.format` templates with three additions, so that each language keeps its own grammar:

- `{n:plural(error|errors)}` is the word for the count n (English needs it; Chinese writes `{n} 个错误`, the
  measure word in the template itself);
- `{items:list}` joins a list ("a, b and c" in English, "a、b 和 c" in Chinese); `{items:comma}` joins with
  the language's enumeration comma (Chinese 、), `{items:semi}` with its semicolon, `{items:plus}` with " + ";
- a parameter that is itself a `Msg` (or a list of them) is rendered in the same language first;
- a parameter's secrets are masked before it is filled in (wizard.core.masking.shown_args): every text that
  renders a message (the CLI, the TUI, RUN.md) shows no secret, and no door masks its serialised output.

Any standard format spec or conversion still applies (`{share:.0%}`, `{gib:.1f}`, `{path!r}`). A key missing
from a language falls back to English; a key missing from English renders as the key itself, and the
catalogue tests fail on both. `spans` splits a rendered message into its text and its parameters, for a
widget that styles the numbers.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wizard.core.masking import shown_args
from wizard.i18n import language

__all__ = ["Msg", "msg", "render", "spans", "template_fields"]


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

    def __format__(self, spec: str) -> str:
        return format(render(self), spec)


def msg(key: str, /, **params: Any) -> Msg:
    """The message `key` with these parameters (lists become tuples, so that a Msg stays hashable)."""
    return Msg(key, tuple((name, _frozen(value)) for name, value in params.items()))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_JOINERS = {
    "en": {"list": (", ", " and "), "comma": (", ", ", "), "semi": ("; ", "; "), "plus": (" + ", " + ")},
    "zh": {"list": ("、", " 和 "), "comma": ("、", "、"), "semi": ("；", "；"), "plus": (" + ", " + ")},
}


_UNFILLED = (KeyError, IndexError, ValueError, AttributeError, TypeError)


class _Formatter(string.Formatter):
    def __init__(self, lang: str, strict: bool = False) -> None:
        self.lang, self.strict = lang, strict

    def _nested(self, value: Msg) -> str:
        return render(value, self.lang, strict=self.strict)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if isinstance(value, Msg) and conversion:
            value = self._nested(value)
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural(") and format_spec.endswith(")"):
            one, _, other = format_spec[7:-1].partition("|")
            return one if value == 1 else other
        if format_spec in ("list", "comma", "semi", "plus"):
            items = [self._text(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
            sep, last = _JOINERS.get(self.lang, _JOINERS["en"])[format_spec]
            if len(items) < 2:
                return "".join(items)
            return sep.join(items[:-1]) + last + items[-1]
        if isinstance(value, Msg):
            return format(self._nested(value), format_spec)
        return super().format_field(value, format_spec)

    def _text(self, value: Any) -> str:
        return self._nested(value) if isinstance(value, Msg) else str(value)

    def pieces(self, template: str, params: Mapping[str, Any]) -> list[tuple[str, str | None]]:
        """(text, None) for each literal run of the template and (text, name) for each parameter it shows."""
        out: list[tuple[str, str | None]] = []
        for literal, field, spec, conversion in self.parse(template):
            if literal:
                out.append((literal, None))
            if field is not None:
                value, _ = self.get_field(field, (), params)
                value = self.convert_field(value, conversion)
                out.append((self.format_field(value, self.vformat(spec or "", (), params)), field.split(".")[0]))
        return out


def _catalogue(lang: str) -> Mapping[str, str]:
    # deferred: the message catalogues (~5 ms) load with the first message, after the TUI's first paint
    from wizard.i18n import messages_en, messages_zh

    return {"en": messages_en.MESSAGES, "zh": messages_zh.MESSAGES}.get(lang, messages_en.MESSAGES)


def _language(lang: str | None) -> str:
    if lang is not None:
        return lang
    return language()


def _templates(key: str, lang: str) -> list[tuple[str, str]]:
    """(language, template) to try for a key: the language's own, then English."""
    found = [(lang, _catalogue(lang).get(key))]
    if lang != "en":
        found.append(("en", _catalogue("en").get(key)))
    return [(lng, tpl) for lng, tpl in found if tpl is not None]


def render(message: Msg | str, lang: str | None = None, strict: bool = False) -> str:
    """The text of `message` in `lang` (default: the current language); a plain str is returned as it is.

    A template that cannot be filled (a parameter the call did not give: the catalogue tests catch it) falls
    back to English, then to the key, so that a screen never fails on a message. `strict` (for the tests)
    uses the language's own template only, nested messages included, and raises instead.
    """
    if not isinstance(message, Msg):
        return message
    lang = _language(lang)
    if strict:
        template = _catalogue(lang).get(message.key)
        if template is None:
            raise KeyError(f"{message.key}: no {lang} template")
        return _Formatter(lang, strict=True).vformat(template, (), shown_args(template, message.args))
    for lng, template in _templates(message.key, lang):
        try:
            return _Formatter(lng).vformat(template, (), shown_args(template, message.args))
        except _UNFILLED:
            continue
    return message.key


def spans(message: Msg | str, lang: str | None = None) -> list[tuple[str, str | None]]:
    """The rendered message cut into (text, None) literal runs and (text, parameter name) values, in order.

    A widget styles the values (bold numbers) and keeps each language's word order: `"{n} 个 mini-batch"`
    gives `[("4", "n"), (" 个 mini-batch", None)]`, `"mini-batches {n}"` the other way round.
    """
    if not isinstance(message, Msg):
        return [(message, None)]
    lang = _language(lang)
    for lng, template in _templates(message.key, lang):
        try:
            return _Formatter(lng).pieces(template, shown_args(template, message.args))
        except _UNFILLED:
            continue
    return [(message.key, None)]


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses (for the catalogue tests), nested format specs included."""
    names = set()
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is not None and field != "":
            names.add(field.split(".")[0].split("[")[0])
        if spec and "{" in spec:
            names |= template_fields(spec)
    return names
