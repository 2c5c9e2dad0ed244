"""Bash glob patterns (case items, `${V#pat}`, `${V/pat/rep}`, `[[ x == pat ]]`) and `=~`, matched in linear time.

A pattern arrives as text in which quoted characters are escaped with a backslash (quoting makes a
pattern character literal in bash). Extended globs `@(a|b)`, `?(...)`, `*(...)`, `+(...)` are read too;
`!(...)` is not (its outcome is unknown). Patterns become nfa trees and are matched by nfa.Matcher,
never by a backtracking engine. Each function returns None when it cannot decide: a construct it does
not read, or the reading's matching budget (`BUDGET_STEPS`) is spent; the caller makes the value unknown.
"""

from __future__ import annotations

from functools import lru_cache

from wizard.detect.script.bash import ere
from wizard.detect.script.bash.nfa import (
    ANY,
    CLASSES,
    Budget,
    CharSet,
    Matcher,
    OverBudget,
    Unsupported,
    literal,
    reverse,
)

BUDGET_STEPS = 1_000_000  # matching steps of one reading (well under a second of Python)
MAX_RESULT = 64 * 1024  # characters of one replacement's result (as expand.MAX_VALUE_CHARS)


class ResultTooLarge(Exception):
    """A replacement's result would be longer than MAX_RESULT (`${X//a/$X}` squares the length)."""


_GLOB_SPECIAL = frozenset("*?[]\\()|@+!")
_ERE_SPECIAL = frozenset("\\.[]()*+?{}|^$")
UNDECIDED = (Unsupported, OverBudget, RecursionError)


def escape(text: str) -> str:
    """Text as a pattern that matches only itself."""
    return "".join("\\" + c if c in _GLOB_SPECIAL else c for c in text)


def escape_ere(text: str) -> str:
    """Text as an extended regular expression that matches only itself (the quoted part of `=~`'s right side)."""
    return "".join("\\" + c if c in _ERE_SPECIAL else c for c in text)


def new_budget() -> Budget:
    return Budget(BUDGET_STEPS)


# --- globs as trees -------------------------------------------------------------------------------------


def glob_tree(pattern: str) -> tuple:
    items, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 < n:
                items.append(literal(pattern[i + 1]))
            else:
                items.append(literal("\\"))
            i += 2
        elif c in "?*+@!" and pattern[i + 1 : i + 2] == "(":
            end, alternatives = _group(pattern, i + 1)
            if end is None:
                items.append(("rep", ("set", ANY), 0, None) if c == "*" else literal(c))
                i += 1
                continue
            if c == "!":
                raise Unsupported("!(...)")
            body = ("alt", [glob_tree(a) for a in alternatives])
            low, high = {"?": (0, 1), "*": (0, None), "+": (1, None), "@": (1, 1)}[c]
            items.append(("rep", body, low, high))
            i = end
        elif c == "*":
            while pattern[i + 1 : i + 2] == "*" and pattern[i + 2 : i + 3] != "(":
                i += 1  # `**` is `*` (and keeps the tree small)
            items.append(("rep", ("set", ANY), 0, None))
            i += 1
        elif c == "?":
            items.append(("set", ANY))
            i += 1
        elif c == "[":
            end, charset = _bracket(pattern, i)
            if end is None:
                items.append(literal("["))
                i += 1
            else:
                items.append(("set", charset))
                i = end
        else:
            items.append(literal(c))
            i += 1
    return ("cat", items)


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
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    classes: list[str] = []
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            return j + 1, CharSet(frozenset(chars), tuple(ranges), tuple(classes), negate)
        first = False
        if c == "[" and pattern[j + 1 : j + 2] == ":":
            end = pattern.find(":]", j + 2)
            if end > 0 and pattern[j + 2 : end] in CLASSES:
                classes.append(pattern[j + 2 : end])
                j = end + 2
                continue
        if c == "\\" and j + 1 < len(pattern):
            j += 1
            c = pattern[j]
        if pattern[j + 1 : j + 2] == "-" and pattern[j + 2 : j + 3] not in ("]", ""):
            hi_at = j + 2
            if pattern[hi_at] == "\\" and hi_at + 1 < len(pattern):
                hi_at += 1
            ranges.append((c, pattern[hi_at]))
            j = hi_at + 1
            continue
        chars.add(c)
        j += 1
    return None, None


@lru_cache(maxsize=128)
def _glob(pattern: str, backwards: bool = False) -> Matcher:
    tree = glob_tree(pattern)
    return Matcher(reverse(tree) if backwards else tree)


@lru_cache(maxsize=128)
def _regex(pattern: str) -> Matcher:
    return Matcher(ere.parse(pattern))


def _has_extglob(pattern: str) -> bool:
    i = 0
    while i < len(pattern) - 1:
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] in "?*+@!" and pattern[i + 1] == "(":
            return True
        i += 1
    return False


def _literal(pattern: str) -> str | None:
    """The text a pattern matches when it has no special character, else None."""
    if not any(c in _GLOB_SPECIAL for c in pattern):
        return pattern
    return None


# --- what the reader asks ---------------------------------------------------------------------------------


def matches(pattern: str, value: str, budget: Budget) -> bool | None:
    """Whether the whole value matches the glob pattern; None when undecided."""
    try:
        return _glob(pattern).fullmatch(value, budget)
    except UNDECIDED:
        return None


def regex_search(pattern: str, value: str, budget: Budget) -> bool | None:
    """`[[ value =~ pattern ]]`: True/False (False also for an expression regcomp refuses); None when undecided."""
    try:
        return _regex(pattern).search(value, budget)
    except ere.BadRegex:
        return False
    except UNDECIDED:
        return None


def strip(value: str, pattern: str, op: str, budget: Budget) -> str | None:
    """`${V#p}` (shortest prefix), `##` (longest), `%` (shortest suffix), `%%` (longest); None when undecided."""
    try:
        if op in ("#", "##"):
            ends = list(_glob(pattern).ends(value, 0, budget)) if op == "##" else _first(_glob(pattern), value, budget)
            return value[ends[-1] :] if ends else value
        backwards = value[::-1]
        matcher = _glob(pattern, True)
        ends = _first(matcher, backwards, budget) if op == "%" else list(matcher.ends(backwards, 0, budget))
        return value[: len(value) - ends[-1]] if ends else value
    except UNDECIDED:
        return None


def _first(matcher: Matcher, value: str, budget: Budget) -> list[int]:
    for end in matcher.ends(value, 0, budget):
        return [end]
    return []


def replace(value: str, pattern: str, replacement: str, op: str, budget: Budget) -> str | None:
    """`${V/p/r}` (first), `//` (all), `/#` (at the start), `/%` (at the end); the longest match wins.

    None when undecided; ResultTooLarge past MAX_RESULT characters. A pattern without special characters is replaced as a plain string (linear);
    otherwise each start is tried in turn, and a start whose character cannot begin a match costs one step.
    """
    if not pattern:
        return {"/#": replacement + value, "/%": value + replacement}.get(op, value)
    if pattern.endswith("\\*") and not pattern.endswith("\\\\*"):
        return None  # bash 5.2 finds no `*\*` in `a*b` here (unlike ${V#*\*}): not guessed
    try:
        if not value:
            # bash 5.2 replaces in an empty value only when its own matcher says the pattern matches, but for
            # some extended globs (`?(b)`, `@(|a)`) it answers unlike `[[ "" == ?(b) ]]`: those stay unknown
            if _has_extglob(pattern):
                return None
            return replacement if _glob(pattern).fullmatch("", budget) else ""
        if op == "/#":
            ends = list(_glob(pattern).ends(value, 0, budget))
            return replacement + value[ends[-1] :] if ends else value
        if op == "/%":
            ends = list(_glob(pattern, True).ends(value[::-1], 0, budget))
            return value[: len(value) - ends[-1]] + replacement if ends else value
        plain = _literal(pattern)
        if plain is not None:
            budget.spend(len(value) // 64 + 1)
            count = min(value.count(plain), 1 if op == "/" else len(value))
            if len(value) + count * (len(replacement) - len(plain)) > MAX_RESULT:
                raise ResultTooLarge
            return value.replace(plain, replacement, -1 if op == "//" else 1)
        return _replace_each(value, _glob(pattern), replacement, op == "/", budget)
    except UNDECIDED:
        return None


def _replace_each(value: str, matcher: Matcher, replacement: str, once: bool, budget: Budget) -> str:
    """As bash's pat_subst: at each position the longest match, an empty one too (then one character is copied
    past it, so the walk goes on); `once` stops after the first."""
    out, i, n, size = [], 0, len(value), len(value)
    while i < n:
        end = None
        if matcher.can_start(value[i]) or matcher.empty:
            found = list(matcher.ends(value, i, budget))
            end = found[-1] if found else None
        else:
            budget.spend(1)
        if end is None:
            out.append(value[i])
            i += 1
            continue
        out.append(replacement)
        size += len(replacement)
        if size > MAX_RESULT:
            raise ResultTooLarge
        if end == i:
            out.append(value[i])
            end += 1
        i = end
        if once:
            out.append(value[i:])
            break
    return "".join(out)
