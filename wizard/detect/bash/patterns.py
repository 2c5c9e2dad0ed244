"""Bash glob patterns (case items, `${V#pat}`, `${V/pat/rep}`, `[[ x == pat ]]`) as Python regular expressions.

A pattern arrives as text in which quoted characters are escaped with a backslash (quoting makes a
pattern character literal in bash). Extended globs `@(a|b)`, `?(...)`, `*(...)`, `+(...)` are read too.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "space": r"\s",
    "blank": r" \t",
    "punct": r"!-/:-@\[-`{-~",
    "xdigit": "0-9a-fA-F",
    "word": r"\w",
}


def escape(text: str) -> str:
    """Text as a pattern that matches only itself."""
    return re.sub(r"([*?\[\]\\()|@+!])", r"\\\1", text)


@lru_cache(maxsize=512)
def to_regex(pattern: str) -> str:
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(re.escape(pattern[i + 1 : i + 2]))
            i += 2
        elif c in "?*+@!" and pattern[i + 1 : i + 2] == "(":
            end, alternatives = _group(pattern, i + 1)
            if end is None or c == "!":
                out.append(re.escape(c) if c != "*" else ".*")
                i += 1
                continue
            body = "|".join(to_regex(a) for a in alternatives)
            out.append({"?": f"(?:{body})?", "*": f"(?:{body})*", "+": f"(?:{body})+", "@": f"(?:{body})"}[c])
            i = end
        elif c == "*":
            out.append(".*")
            i += 1
        elif c == "?":
            out.append(".")
            i += 1
        elif c == "[":
            end, cls = _bracket(pattern, i)
            if end is None:
                out.append(r"\[")
                i += 1
            else:
                out.append(cls)
                i = end
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def _group(pattern: str, i: int):
    depth, j, start, items = 0, i, i + 1, []
    while j < len(pattern):
        c = pattern[j]
        if c == "\\":
            j += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                items.append(pattern[start:j])
                return j + 1, items
        elif c == "|" and depth == 1:
            items.append(pattern[start:j])
            start = j + 1
        j += 1
    return None, []


def _bracket(pattern: str, i: int):
    j = i + 1
    negate = pattern[j : j + 1] in ("!", "^")
    j += negate
    body = []
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            return j + 1, "[" + ("^" if negate else "") + "".join(body) + "]"
        first = False
        if c == "[" and pattern[j + 1 : j + 2] == ":":
            end = pattern.find(":]", j + 2)
            if end > 0 and pattern[j + 2 : end] in _CLASSES:
                body.append(_CLASSES[pattern[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\":
            body.append(re.escape(pattern[j + 1 : j + 2]))
            j += 2
            continue
        body.append("\\" + c if c in "\\^[]" else c)
        j += 1
    return None, ""


def matches(pattern: str, value: str) -> bool:
    return re.fullmatch(to_regex(pattern), value, re.DOTALL) is not None


def strip(value: str, pattern: str, op: str) -> str:
    """`${V#p}` (shortest prefix), `##` (longest), `%` (shortest suffix), `%%` (longest)."""
    rx = re.compile(to_regex(pattern), re.DOTALL)
    n = len(value)
    if op in ("#", "##"):
        cuts = range(0, n + 1) if op == "#" else range(n, -1, -1)
        for k in cuts:
            if rx.fullmatch(value, 0, k):
                return value[k:]
        return value
    cuts = range(n, -1, -1) if op == "%" else range(0, n + 1)
    for k in cuts:
        if rx.fullmatch(value, k, n):
            return value[:k]
    return value


def replace(value: str, pattern: str, replacement: str, op: str) -> str:
    """`${V/p/r}` (first), `//` (all), `/#` (at the start), `/%` (at the end); the longest match wins."""
    if not pattern:
        return {"/#": replacement + value, "/%": value + replacement}.get(op, value)
    rx = to_regex(pattern)
    if op == "/#":
        m = re.match(f"(?:{rx})", value, re.DOTALL)
        return replacement + value[_longest(value, rx, 0, True) :] if m else value
    if op == "/%":
        for k in range(0, len(value) + 1):
            if re.fullmatch(rx, value[k:], re.DOTALL):
                return value[:k] + replacement
        return value
    out, i, n, done = [], 0, len(value), False
    while i <= n:
        end = None if done else _longest(value, rx, i, False)
        if end is not None and end > i:
            out.append(replacement)
            i = end
            done = op == "/"
            continue
        if i < n:
            out.append(value[i])
        i += 1
    return "".join(out)


def _longest(value: str, rx: str, start: int, must: bool):
    for k in range(len(value), start - 1, -1):
        if re.fullmatch(rx, value[start:k], re.DOTALL):
            return k
    return start if must else None
