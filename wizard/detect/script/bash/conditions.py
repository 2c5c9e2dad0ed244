"""`test`, `[ ... ]` and `[[ ... ]]` over expanded operands: true, false, or unknown with its origins.

File tests (`-f`, `-d`, ...) are unknown: the files are where the script runs, not here.
"""

from __future__ import annotations

import re

from wizard.detect.script.bash import patterns
from wizard.detect.script.bash.values import COMMAND, Origin, Spread, is_known, known, limited, origins_of

UNARY = frozenset(
    [
        "-a",
        "-b",
        "-c",
        "-d",
        "-e",
        "-f",
        "-g",
        "-h",
        "-k",
        "-p",
        "-r",
        "-s",
        "-t",
        "-u",
        "-w",
        "-x",
        "-G",
        "-L",
        "-N",
        "-O",
        "-S",
        "-z",
        "-n",
        "-v",
        "-o",
    ]
)
BINARY = frozenset(["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "=~"])
_INT = re.compile(r"\s*[-+]?\d+\s*")


class Tri:
    """A test's outcome: value True/False, or None with the origins of what it could not know."""

    __slots__ = ("origins", "value")

    def __init__(self, value: bool | None, origins: frozenset = frozenset()) -> None:
        self.value, self.origins = value, origins

    def __invert__(self) -> Tri:
        return Tri(None if self.value is None else not self.value, self.origins)


def _and(a: Tri, b: Tri) -> Tri:
    if a.value is False or b.value is False:
        return Tri(False)
    if a.value and b.value:
        return Tri(True)
    return Tri(None, a.origins | b.origins)


def _or(a: Tri, b: Tri) -> Tri:
    if a.value or b.value:
        return Tri(True)
    if a.value is False and b.value is False:
        return Tri(False)
    return Tri(None, a.origins | b.origins)


class Test:
    """One test expression over operands: each operand a Text (or a Spread), operators as plain strings."""

    def __init__(self, operands: list, double: bool, is_set=None, pattern_of=None, regex_of=None, budget=None) -> None:
        self.ops, self.i, self.double = operands, 0, double
        self.is_set = is_set  # name -> Tri, for -v
        self.pattern_of = pattern_of  # index -> the pattern Text of a [[ == ]] right-hand side
        self.regex_of = regex_of  # index -> the expression Text of a [[ =~ ]] right-hand side
        self.budget = budget if budget is not None else patterns.new_budget()

    def run(self) -> Tri:
        if not self.ops:
            return Tri(False)
        if any(isinstance(op, Spread) for op in self.ops):
            return Tri(None, frozenset().union(*(op.origins for op in self.ops if isinstance(op, Spread))))
        if not self.double and len(self.ops) <= 4:
            short = self._posix_short()
            if short is not None:
                return short
        result = self._or()
        return result

    def _posix_short(self) -> Tri | None:
        """test's rules by argument count (1-3 arguments), which differ from the grammar for odd words."""
        n = len(self.ops)
        if n == 1:
            return self._nonempty(self.ops[0])
        if n == 2 and self._is(0, "!"):
            return ~self._nonempty(self.ops[1])
        if n == 2 and (first := self._word(0)) is not None and first in UNARY:
            return self._unary(first, self.ops[1])
        if n == 3 and (second := self._word(1)) is not None and second in BINARY | {"-a", "-o"}:
            if second == "-a":
                return _and(self._nonempty(self.ops[0]), self._nonempty(self.ops[2]))
            if second == "-o":
                return _or(self._nonempty(self.ops[0]), self._nonempty(self.ops[2]))
            return self._binary(self.ops[0], second, self.ops[2], 2)
        return None

    def _word(self, k: int) -> str | None:
        return known(self.ops[k]) if k < len(self.ops) and not isinstance(self.ops[k], Spread) else None

    def _is(self, k: int, word: str) -> bool:
        return self._word(k) == word

    def _or(self) -> Tri:
        left = self._and()
        while self.i < len(self.ops) and self._word(self.i) in ("-o", "||"):
            self.i += 1
            left = _or(left, self._and())
        return left

    def _and(self) -> Tri:
        left = self._not()
        while self.i < len(self.ops) and self._word(self.i) in ("-a", "&&"):
            self.i += 1
            left = _and(left, self._not())
        return left

    def _not(self) -> Tri:
        if self._is(self.i, "!"):
            self.i += 1
            return ~self._not()
        return self._primary()

    def _primary(self) -> Tri:
        if self.i >= len(self.ops):
            return Tri(False)
        if self._is(self.i, "("):
            self.i += 1
            inner = self._or()
            if self._is(self.i, ")"):
                self.i += 1
            return inner
        word = self._word(self.i)
        if word in UNARY and self.i + 1 < len(self.ops) and self._word(self.i + 1) not in BINARY:
            self.i += 2
            return self._unary(word, self.ops[self.i - 1])
        if self.i + 2 < len(self.ops) + 0 and (op := self._word(self.i + 1)) is not None and op in BINARY:
            left, right = self.ops[self.i], self.ops[self.i + 2]
            index = self.i + 2
            self.i += 3
            return self._binary(left, op, right, index)
        self.i += 1
        return self._nonempty(self.ops[self.i - 1])

    @staticmethod
    def _nonempty(value) -> Tri:
        if value and any(isinstance(p, str) and p for p in value):
            return Tri(True)
        if is_known(value):
            return Tri(bool(known(value)))
        return Tri(None, origins_of(value))

    def _unary(self, op: str, value) -> Tri:
        if op == "-z":
            return ~self._nonempty(value)
        if op == "-n":
            return self._nonempty(value)
        if op == "-v" and self.is_set is not None and is_known(value):
            return self.is_set(known(value))
        shown = known(value) if is_known(value) else "..."
        return Tri(None, frozenset({Origin(COMMAND, f"test {op} {shown}")}))

    def _binary(self, left, op: str, right, right_index: int) -> Tri:
        if self.double and op in ("==", "=", "!=") and self.pattern_of is not None:
            right = self.pattern_of(right_index) or right
            if not is_known(left) or not is_known(right):
                return Tri(None, origins_of(left) | origins_of(right))
            same = patterns.matches(known(right), known(left), self.budget)
            if same is None:
                return Tri(None, _undecided(right))
            return Tri(same if op != "!=" else not same)
        if self.double and op == "=~" and self.regex_of is not None:
            right = self.regex_of(right_index) or right
            if not is_known(left) or not is_known(right):
                return Tri(None, origins_of(left) | origins_of(right))
            found = patterns.regex_search(known(right), known(left), self.budget)
            return Tri(None, _undecided(right)) if found is None else Tri(found)
        if not is_known(left) or not is_known(right):
            return Tri(None, origins_of(left) | origins_of(right))
        a, b = known(left), known(right)
        if op in ("=", "=="):
            return Tri(a == b)
        if op == "!=":
            return Tri(a != b)
        if op == "<":
            return Tri(a < b)
        if op == ">":
            return Tri(a > b)
        if op == "=~":
            found = patterns.regex_search(b, a, self.budget)
            return Tri(None, _undecided(right)) if found is None else Tri(found)
        if op in ("-nt", "-ot", "-ef"):
            return Tri(None, frozenset({Origin(COMMAND, f"test {a} {op} {b}")}))
        if not _INT.fullmatch(a) or not _INT.fullmatch(b):
            return Tri(False)  # bash: "integer expression expected", status 2
        x, y = int(a), int(b)
        return Tri({"-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y}[op])


def _undecided(pattern) -> frozenset:
    """The origins of a test whose pattern match the reader did not decide."""
    return origins_of(limited(known(pattern) or "...", "match"))
