"""Matching without backtracking: an NFA over pattern trees, simulated a character at a time.

Bash's glob patterns and `=~`'s extended regular expressions are parsed (globs.py, ere.py) into small
trees, and a tree becomes a Thompson NFA here. A match walks the text once, holding the set of states
it may be in; the sets met are remembered with their successors (a lazy DFA), so a text costs one
dictionary look-up per character once the sets repeat. Python's `re` would backtrack instead, and
`(a|a)*b` or `*a*a*a*a*b` on a long value would never end.

Every step is paid from a `Budget`; when it runs out the match raises `OverBudget`, and the reader
makes the value unknown instead of going on. Trees (tuples):
  ("set", CharSet) one character   ("cat", [t...])   ("alt", [t...])   ("rep", t, min, max|None)
  ("bol",) / ("eol",) the start / end of the text (regular expressions only)
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_STATES = 4000  # NFA states of one pattern (a{1000}{1000} would otherwise be a million)
MAX_CACHE = 4096  # remembered (state set, character) steps of one pattern


class Unsupported(Exception):
    """A construct this matcher does not decide (a back-reference, `!(...)`): the outcome is unknown."""


class OverBudget(Exception):
    """The reading spent its matching budget: the outcome is unknown."""


class Budget:
    """Steps of matching one reading may still take (shared by every match in it)."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise OverBudget


@dataclass(frozen=True)
class CharSet:
    """One character out of a set: single characters, (low, high) ranges, named classes; negated or not."""

    chars: frozenset = frozenset()
    ranges: tuple = ()
    classes: tuple = ()
    negate: bool = False
    any: bool = False

    def test(self, c: str) -> bool:
        if self.any:
            return True
        hit = c in self.chars or any(lo <= c <= hi for lo, hi in self.ranges) or any(_CLASS[k](c) for k in self.classes)
        return hit != self.negate


ANY = CharSet(any=True)


def literal(c: str) -> tuple:
    return ("set", CharSet(chars=frozenset(c)))


def _punct(c: str) -> bool:
    return c.isascii() and c.isprintable() and not c.isalnum() and c != " "


_CLASS = {
    "alnum": str.isalnum,
    "alpha": str.isalpha,
    "digit": lambda c: "0" <= c <= "9",
    "lower": str.islower,
    "upper": str.isupper,
    "space": str.isspace,
    "blank": lambda c: c in " \t",
    "punct": _punct,
    "xdigit": lambda c: c in "0123456789abcdefABCDEF",
    "print": str.isprintable,
    "graph": lambda c: c.isprintable() and c != " ",
    "cntrl": lambda c: ord(c) < 32 or ord(c) == 127,
    "word": lambda c: c.isalnum() or c == "_",
}
CLASSES = frozenset(_CLASS)


def reverse(tree: tuple) -> tuple:
    """The tree of the reversed language (to find suffixes by walking the text backwards)."""
    kind = tree[0]
    if kind == "cat":
        return ("cat", [reverse(t) for t in reversed(tree[1])])
    if kind == "alt":
        return ("alt", [reverse(t) for t in tree[1]])
    if kind == "rep":
        return ("rep", reverse(tree[1]), tree[2], tree[3])
    if kind == "bol":
        return ("eol",)
    if kind == "eol":
        return ("bol",)
    return tree


# NFA state kinds
_SET, _SPLIT, _BOL, _EOL, _MATCH = range(5)


class Matcher:
    """A compiled pattern tree: full matches, prefix ends and searches, each in one pass over the text."""

    def __init__(self, tree: tuple) -> None:
        self.kind: list[int] = []
        self.arg: list = []
        self.out: list = []
        self.anchors = False
        match = self._new(_MATCH, None, ())
        self.start = self._build(tree, match)
        self.match = match
        self.cache: dict = {}
        self.begin = self._closure({self.start}, True, False)
        self.empty = self._accepts(self._closure({self.start}, False, False), False)  # matches the empty text

    # --- construction (backwards: each piece is built knowing the state that follows it) ---------------

    def _new(self, kind: int, arg, out) -> int:
        if len(self.kind) >= MAX_STATES:
            raise Unsupported("pattern too large")
        self.kind.append(kind)
        self.arg.append(arg)
        self.out.append(out)
        return len(self.kind) - 1

    def _build(self, tree: tuple, nxt: int) -> int:
        kind = tree[0]
        if kind == "set":
            return self._new(_SET, tree[1], (nxt,))
        if kind == "cat":
            for part in reversed(tree[1]):
                nxt = self._build(part, nxt)
            return nxt
        if kind == "alt":
            return self._new(_SPLIT, None, tuple(self._build(t, nxt) for t in tree[1]))
        if kind in ("bol", "eol"):
            self.anchors = True
            return self._new(_BOL if kind == "bol" else _EOL, None, (nxt,))
        if kind == "rep":
            body, low, high = tree[1], tree[2], tree[3]
            if high is None:
                loop = self._new(_SPLIT, None, ())
                self.out[loop] = (self._build(body, loop), nxt)
                tail = loop
            else:
                tail = nxt
                for _ in range(high - low):
                    tail = self._new(_SPLIT, None, (self._build(body, tail), nxt))
            for _ in range(low):
                tail = self._build(body, tail)
            return tail
        raise Unsupported(kind)

    # --- simulation ----------------------------------------------------------------------------------

    def _closure(self, states, at_start: bool, at_end: bool) -> frozenset:
        seen, stack = set(), list(states)
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            k = self.kind[s]
            if k == _SPLIT or (k == _BOL and at_start) or (k == _EOL and at_end):
                stack.extend(self.out[s])
        return frozenset(seen)

    def _step(self, states: frozenset, c: str, budget: Budget, search: bool) -> frozenset:
        key = (states, c, search)
        nxt = self.cache.get(key)
        if nxt is not None:
            budget.spend(1)
            return nxt
        budget.spend(len(states) + 8)  # a step computed (and remembered) costs more than one looked up
        moved = [self.out[s][0] for s in states if self.kind[s] == _SET and self.arg[s].test(c)]
        if search:
            moved.append(self.start)
        nxt = self._closure(moved, False, False)
        if len(self.cache) >= MAX_CACHE:
            self.cache.clear()
        self.cache[key] = nxt
        return nxt

    def _accepts(self, states: frozenset, at_end: bool, at_start: bool = False) -> bool:
        if self.match in states:
            return True
        if not self.anchors or not at_end:
            return False
        return self.match in self._closure(states, at_start, True)

    def fullmatch(self, text: str, budget: Budget) -> bool:
        states = self.begin
        for c in text:
            states = self._step(states, c, budget, False)
            if not states:
                return False
        return self._accepts(states, True, not text)

    def ends(self, text: str, start: int, budget: Budget):
        """Every j (in increasing order) where text[start:j] matches the whole pattern."""
        states = self.begin if start == 0 else self._closure({self.start}, False, False)
        n = len(text)
        if self._accepts(states, start == n, start == 0):
            yield start
        for j in range(start, n):
            states = self._step(states, text[j], budget, False)
            if not states:
                return
            if self._accepts(states, j + 1 == n):
                yield j + 1

    def search(self, text: str, budget: Budget) -> bool:
        """True when some part of the text matches (as regexec does for `=~`)."""
        states = self.begin
        n = len(text)
        if self._accepts(states, n == 0, True):
            return True
        for j, c in enumerate(text):
            states = self._step(states, c, budget, True)
            if self._accepts(states, j + 1 == n):
                return True
        return False

    def can_start(self, c: str) -> bool:
        """False when no match that starts at a character c can be longer than empty."""
        states = self.begin if not self.anchors else self._closure({self.start}, False, False)
        return any(self.kind[s] == _SET and self.arg[s].test(c) for s in states)
