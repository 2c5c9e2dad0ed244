"""Read a Hydra command-line override value (the part after `=`) with hydra-core's own override parser.

Hydra's parser (ANTLR) costs about 0.1 s to import, and most values in a launch script are one plain token: an
int, a float, a bool, null, or a run of letters, digits and `/ . _ - + @ % * ? | :` with no quote, bracket, escape,
blank or interpolation. Those are typed here with Hydra's own token definitions (`OverrideLexer.g4`: the longest
token wins, and a value made of several tokens is a string); tests/detect/test_hydra_values.py checks that reading
against Hydra's parser on random values. Every other value is parsed by Hydra itself, imported on first use:
lists, dicts, quotes, escapes, interpolations, cast functions, and every value it refuses, in its own words.
A sweep (`a,b`, `choice(...)`, `range(...)`, `glob(...)`) parses but is refused on a single run, as Hydra does.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from wizard.i18n.text import Msg, msg

__all__ = ["OVERRIDE_KEY_RE", "hydra_parser", "parse_override_value", "reason_of", "split_override"]

_INT_U = r"(?:0|[1-9](?:_?[0-9])*)"
_DIGITS = r"[0-9](?:_?[0-9])*"
# Hydra's typed tokens (OverrideLexer.g4). FLOAT comes before INT, BOOL and NULL before ID, so a value that one of
# them matches whole is that type: the longest match is the whole value, and ties go to the rule defined first.
_INT = re.compile(rf"[+-]?{_INT_U}")
_FLOAT = re.compile(
    rf"[+-]?(?:{_INT_U}?\.{_DIGITS}(?:[eE][+-]?{_DIGITS})?|{_INT_U}\.(?:[eE][+-]?{_DIGITS})?"
    rf"|{_INT_U}[eE][+-]?{_DIGITS}|[Ii][Nn][Ff]|[Nn][Aa][Nn])"
)
_BOOL = re.compile(r"[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]")
_NULL = re.compile(r"[Nn][Uu][Ll][Ll]")
# Characters that are whole tokens of a primitive on their own or inside ID/INT/FLOAT (ID, UNQUOTED_CHAR, COLON):
# any run of them is a valid primitive, and Hydra returns the run as its text unless one typed token is all of it.
_PLAIN = re.compile(r"[A-Za-z0-9_/.+@%*?|:-]*")

_KEY_SEG = r"(?:[A-Za-z_$][A-Za-z0-9_$-]*|" + _INT_U + r")"
_PACKAGE = r"(?:[A-Za-z_$][A-Za-z0-9_$-]*|" + _KEY_SEG + r"(?:\." + _KEY_SEG + r")+)"
_GROUP = r"[A-Za-z_][A-Za-z0-9_-]*(?:/[A-Za-z_][A-Za-z0-9_-]*)+"
OVERRIDE_KEY_RE = re.compile(rf"(?:{_GROUP}|{_PACKAGE})(?:@{_PACKAGE}?)?")
"""A key Hydra's override grammar accepts: `a.b.c`, `group/sub`, `group@pkg`, `$special`."""

_MAX_VALUE_CHARS = 100_000
# Hydra's parser recurses once per bracket; past a few hundred levels it runs out of Python's stack.
_MAX_DEPTH = 200
_OPENERS, _CLOSERS = frozenset("[{("), frozenset("]})")


def split_override(arg: str) -> tuple[str, str, str | None] | None:
    """Split one command-line argument into (prefix, key, value-text or None).

    The prefix is "", "+", "++" or "~"; the value is None only for a bare `~key`. Returns None
    when the argument is not an override Hydra's key grammar accepts (a flag, a stray word).
    """
    prefix = ""
    for candidate in ("++", "+", "~"):
        if arg.startswith(candidate):
            prefix = candidate
            break
    rest = arg[len(prefix) :]
    key, eq, value = rest.partition("=")
    if not OVERRIDE_KEY_RE.fullmatch(key):
        return None
    if not eq:
        return (prefix, key, None) if prefix == "~" else None
    return prefix, key, value


def _plain_value(text: str) -> Any:
    """The value of a one-token-kind text (_PLAIN), typed as Hydra's lexer types it."""
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    if _BOOL.fullmatch(text):
        return text.lower() == "true"
    if _NULL.fullmatch(text):
        return None
    return text


@cache
def hydra_parser() -> Any:
    """hydra-core's OverridesParser, made once per process."""
    # hydra-core's parser pulls in antlr4 and its generated grammar (~0.1 s): only for values that need it
    from hydra.core.override_parser.overrides_parser import OverridesParser

    return OverridesParser.create()


def _depth(text: str) -> int:
    depth = deepest = 0
    for char in text:
        if char in _OPENERS:
            depth += 1
            deepest = max(deepest, depth)
        elif char in _CLOSERS:
            depth -= 1
    return deepest


def _hydra_words(exc: BaseException) -> str:
    """Hydra's reason on one line (it may list the functions it knows on a second line)."""
    return "; ".join(line.strip() for line in str(exc).splitlines() if line.strip()) or type(exc).__name__


def _hydra_value(text: str) -> Any:
    from hydra.errors import HydraException  # with the parser above: Hydra's own refusal

    if _depth(text) > _MAX_DEPTH:
        raise ValueError(msg("hydra.too_deep"))
    try:
        override = hydra_parser().parse_override("k=" + text)
    except HydraException as exc:
        raise ValueError(msg("hydra.refused", words=_hydra_words(exc))) from None
    except RecursionError:
        raise ValueError(msg("hydra.too_deep")) from None
    if override.is_sweep_override():
        raise ValueError(msg("hydra.sweep"))
    return override.value()


def reason_of(exc: BaseException):
    """Why a value was rejected, as a message: ours are catalogue messages, Python's own casts say it in English."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)


def parse_override_value(text: str) -> Any:
    """Turn the text after `key=` of a Hydra override into the Python value Hydra would set.

    `8` -> 8, `1e-6` -> 1e-06, `True`/`false` -> bool, `null` -> None, `'x'`/`"x"` -> "x",
    `[a,'b']` -> ["a", "b"], `{a:1}` -> {"a": 1}, `Qwen/Qwen3-8B` and `${oc.env:HOME}` -> str,
    and an empty value -> "". Raises ValueError (a short message, Hydra's own words where Hydra
    refuses it) for what Hydra rejects on a single run: an unbalanced bracket, a character its
    grammar lacks (`~`, `#`, non-ASCII letters outside quotes), a `a,b` sweep or a sweep function.
    """
    if len(text) > _MAX_VALUE_CHARS:
        raise ValueError(msg("hydra.too_long", chars=len(text)))
    # Hydra's `=` token swallows the whitespace that follows it.
    text = text.lstrip(" \t")
    if _PLAIN.fullmatch(text):
        return _plain_value(text)
    return _hydra_value(text)
