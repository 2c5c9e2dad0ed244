"""Chinese finding messages: each English message a rule writes, matched by pattern, re-said in Chinese
with the same numbers, keys, names and paths. A message no pattern matches is shown in English (never dropped).

The patterns live in one module per rule family (zh_messages_config: KEY/ROLE/BATCH/PLACE,
zh_messages_data: DATA and the data-driven BATCH-013/ROLE-005, zh_messages_deploy: DEPLOY,
zh_messages_script: SCRIPT). Each exports:

- `PATTERNS`: (rule id, regular expression over the whole English message, Chinese template);
- `FRAGMENTS`: name -> how to say an English piece of a message in Chinese (see `translate_fragment`).

A template names the pattern's groups as `{group}` (copied verbatim: numbers, keys, paths, values) or
`{group|fragment}` (the group's text said in Chinese by the named fragment table; text the table does
not know stays English, so nothing is lost). A group that did not take part in the match is empty.
"""

from __future__ import annotations

import re
from functools import lru_cache

_FAMILIES = ("zh_messages_config", "zh_messages_data", "zh_messages_deploy", "zh_messages_script")
_FIELD = re.compile(r"\{(\w+)(?:\|(\w+))?\}")


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, list[tuple[re.Pattern, str]]], dict[str, object]]:
    import importlib

    patterns: dict[str, list[tuple[re.Pattern, str]]] = {}
    fragments: dict[str, object] = {}
    for name in _FAMILIES:
        module = importlib.import_module(f"wizard.i18n.{name}")
        for rule_id, pattern, template in module.PATTERNS:
            patterns.setdefault(rule_id, []).append((re.compile(pattern, re.DOTALL), template))
        for key, table in module.FRAGMENTS.items():
            if key in fragments:
                raise ValueError(f"fragment table {key!r} is defined twice")
            fragments[key] = _compile_fragment(table)
    return patterns, fragments


def _compile_fragment(table):
    """A list of (pattern, template) pairs, or ("split", separator pattern, joiner, table name)."""
    if isinstance(table, tuple):
        kind, separator, joiner, name = table
        if kind != "split":
            raise ValueError(f"unknown fragment kind {kind!r}")
        return ("split", re.compile(separator), joiner, name)
    return [(re.compile(pattern, re.DOTALL), template) for pattern, template in table]


def _fill(template: str, match: re.Match, used: set | None) -> str:
    groups = match.groupdict()

    def one(field: re.Match) -> str:
        text = groups[field.group(1)] or ""
        return translate_fragment(field.group(2), text, used) if field.group(2) else text

    return _FIELD.sub(one, template)


def translate_fragment(name: str, text: str, used: set | None = None) -> str:
    """`text` (a piece of an English message) said in Chinese by the fragment table `name`; unknown text stays as is.

    A list table tries its patterns in order against the whole text. A split table cuts the text at
    its separator, says each piece with another table and joins the pieces with its joiner. `used`,
    when given, collects (table name, index) of every entry that matched.
    """
    table = _tables()[1][name]
    if isinstance(table, tuple):
        _, separator, joiner, inner = table
        return joiner.join(translate_fragment(inner, piece, used) for piece in separator.split(text))
    for index, (pattern, template) in enumerate(table):
        match = pattern.fullmatch(text)
        if match:
            if used is not None:
                used.add((name, index))
            return _fill(template, match, used)
    return text


def zh_message(rule_id: str, message: str, used: set | None = None) -> str | None:
    """The Chinese message for an English one, or None when no pattern of that rule matches.

    `used`, when given, collects (rule id, index) of the pattern that matched and the fragment entries
    it used (the coverage tests compare them with `all_entries()`).
    """
    for index, (pattern, template) in enumerate(_tables()[0].get(rule_id, ())):
        match = pattern.fullmatch(message)
        if match:
            if used is not None:
                used.add((rule_id, index))
            return _fill(template, match, used)
    return None


def all_entries() -> set[tuple[str, int]]:
    """(rule id, index) of every message pattern and (table name, index) of every fragment entry."""
    patterns, fragments = _tables()
    entries = {(rule_id, i) for rule_id, found in patterns.items() for i in range(len(found))}
    return entries | {
        (name, i) for name, table in fragments.items() if isinstance(table, list) for i in range(len(table))
    }


def describe_entry(entry: tuple[str, int]) -> str:
    """The regular expression of an entry of `all_entries()`, for test failure messages."""
    name, index = entry
    patterns, fragments = _tables()
    table = patterns.get(name) or fragments[name]
    return f"{name}[{index}]: {table[index][0].pattern}"
