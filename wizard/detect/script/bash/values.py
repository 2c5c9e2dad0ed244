"""Shell values that may hold unknown parts: text pieces, fields, and where an unknown comes from.

A `Text` is a tuple of pieces, each a `str` or an `Unknown`; adjacent strings are merged, so a known
value is a tuple of at most one string. A `Spread` stands for an unknown number of fields (`"$@"` of
arguments that were not given, an array read from a command's output).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard, overload

# ENV: a variable the script reads but does not set (--env NAME=VALUE gives it); ARGS: the script's
# positional arguments (-- ARG... gives them); COMMAND: a command's output or status (--env NAME=VALUE
# stands in for the variable the script sets from it).
# LIMIT: a value the reader stopped computing (a cap on size, elements, matching or work; `limited`).
from wizard.core.unknowns import ARGS, COMMAND, ENV, LIMIT, Origin

__all__ = ["ARGS", "COMMAND", "ENV", "LIMIT", "Origin", "Spread", "Text", "Unknown"]

EMPTY: tuple = ()


@dataclass(frozen=True)
class Unknown:
    """A piece of a value the reader cannot know; `shown` is how it is written in the script."""

    origins: frozenset
    shown: str


@dataclass(frozen=True)
class Spread:
    """An unknown number of fields (none, one or many)."""

    origins: frozenset
    shown: str


Text = tuple[str | Unknown, ...]
KnownText = tuple[str, ...]  # a Text whose pieces are all known (is_known): known() of it is a str


MAX_PIECES = 64  # a value that copies itself around unknown parts would double its pieces without end
MAX_SHOWN = 160


def text(*pieces) -> Text:
    """A Text from pieces (str, Unknown or Text): adjacent strings merged, adjacent unknowns joined, empties dropped."""
    out: list = []
    for piece in pieces:
        items = piece if isinstance(piece, tuple) else (piece,)
        for item in items:
            if isinstance(item, str):
                if not item:
                    continue
                if out and isinstance(out[-1], str):
                    out[-1] += item
                    continue
            elif out and isinstance(out[-1], Unknown):
                out[-1] = Unknown(out[-1].origins | item.origins, _cap(out[-1].shown + item.shown))
                continue
            out.append(item)
    if len(out) > MAX_PIECES:
        origins = frozenset().union(*(p.origins for p in out if isinstance(p, Unknown)))
        return (Unknown(origins, _cap("".join(p if isinstance(p, str) else p.shown for p in out))),)
    return tuple(out)


def _cap(shown_text: str) -> str:
    return shown_text if len(shown_text) <= MAX_SHOWN else shown_text[: MAX_SHOWN - 3] + "..."


def unknown(origins, shown: str) -> Text:
    return (Unknown(frozenset(origins), shown),)


def limited(shown_as: str, why: str, origins=frozenset()) -> Text:
    """An unknown value the reader stopped computing: `why` is "match", "size", "array" or "work"."""
    return (Unknown(frozenset(origins) | {Origin(LIMIT, _cap(shown_as), why)}, _cap(shown_as)),)


def is_known(value: Text) -> TypeGuard[KnownText]:
    return all(isinstance(piece, str) for piece in value)


@overload
def known(value: KnownText) -> str: ...


@overload
def known(value: Text) -> str | None: ...


def known(value: Text) -> str | None:
    """The text when every piece is known, else None."""
    return "".join(value) if is_known(value) else None


def shown(value: Text) -> str:
    """The text with each unknown piece written as the script wrote it ($VAR, $1, $(cmd))."""
    return "".join(piece if isinstance(piece, str) else piece.shown for piece in value)


def origins_of(value) -> frozenset:
    """Every origin of the unknown pieces in a Text (or of a Spread)."""
    if isinstance(value, Spread):
        return value.origins
    found: set = set()
    for piece in value:
        if isinstance(piece, Unknown):
            found |= piece.origins
    return frozenset(found)


def strip_trailing_newlines(value: Text) -> Text:
    """What command substitution does to its output."""
    if value and isinstance(value[-1], str):
        return text(value[:-1], value[-1].rstrip("\n"))
    return value


def length(value: Text) -> int:
    return sum(len(piece) if isinstance(piece, str) else 1 for piece in value)
