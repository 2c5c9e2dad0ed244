"""Bash arithmetic (`$((...))`, `((...))`, `let`) over 64-bit integers, with unknown operands carried.

`evaluate(text, scope)` parses the expression (C precedence, `**`, `?:`, assignments, `++`/`--`,
`0x`/`0`/`base#` literals) and returns an int, or an `Opaque` naming the origins of the unknown values
it read. `scope` reads and writes variables by name; a variable's value is itself evaluated as an
expression, as bash does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(
    r"\s*(?:(?P<num>0[xX][0-9a-fA-F]+|\d+#[0-9a-zA-Z@_]+|\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*=|<<=|>>=|\*\*|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[*/%+\-&^|]=|[-+*/%<>=!~&^|?:,()\[\]]))"
)
_BINARY = {
    ",": 1,
    "||": 4,
    "&&": 5,
    "|": 6,
    "^": 7,
    "&": 8,
    "==": 9,
    "!=": 9,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "<<": 11,
    ">>": 11,
    "+": 12,
    "-": 12,
    "*": 13,
    "/": 13,
    "%": 13,
    "**": 15,
}
_ASSIGN = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", "**="}
MAX_DEPTH = 64


class ArithError(Exception):
    """The expression is not valid bash arithmetic (bash prints an error and the command fails)."""


@dataclass(frozen=True)
class Opaque:
    """An arithmetic result that depends on unknown values."""

    origins: frozenset


def _wrap(value: int) -> int:
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def parse_int(literal: str) -> int:
    if "#" in literal:
        base_text, digits = literal.split("#", 1)
        base = int(base_text)
        if not 2 <= base <= 64:
            raise ArithError(f"invalid arithmetic base {base}")
        alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"
        if base <= 36:
            digits = digits.lower()
        value = 0
        for ch in digits:
            d = alphabet.index(ch) if ch in alphabet else 99
            if d >= base:
                raise ArithError(f"value too great for base ({literal})")
            value = value * base + d
        return value
    if literal.lower().startswith("0x"):
        return int(literal, 16)
    if len(literal) > 1 and literal.startswith("0"):
        if not re.fullmatch(r"[0-7]+", literal):
            raise ArithError(f"value too great for base ({literal})")
        return int(literal, 8)
    return int(literal)


class _Parser:
    def __init__(self, text: str, scope, depth: int):
        self.tokens = self._lex(text)
        self.i, self.scope, self.depth = 0, scope, depth

    @staticmethod
    def _lex(text: str) -> list[tuple[str, str]]:
        out, i, text = [], 0, text.rstrip()
        while i < len(text):
            m = _TOKEN.match(text, i)
            if not m or m.end() == i:
                raise ArithError(f"syntax error in expression (error token is {text[i:].strip()!r})")
            kind = m.lastgroup
            assert kind is not None  # the token is one of the named groups
            out.append((kind, m.group(kind)))
            i = m.end()
        return out

    def peek(self) -> str | None:
        return self.tokens[self.i][1] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.i >= len(self.tokens):
            raise ArithError("syntax error: operand expected")
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expect(self, op: str) -> None:
        if self.peek() != op:
            raise ArithError(f"syntax error: {op!r} expected")
        self.i += 1

    # each parse_* returns a thunk-free value: int | Opaque, evaluating as it parses; `live` False skips effects
    def expression(self, live: bool = True, level: int = 1):
        left = self.ternary(live) if level <= 2 else self.unary(live)
        return self._binary_rest(left, live, level)

    def _binary_rest(self, left, live: bool, level: int):
        while True:
            op = self.peek()
            prec = _BINARY.get(op) if op is not None else None
            if op is None or prec is None or prec < level:
                return left
            self.i += 1
            if op in ("&&", "||"):
                decided = isinstance(left, int) and ((op == "&&" and left == 0) or (op == "||" and left != 0))
                right = self._operand(live and not decided, prec + 1)
                left = (1 if op == "||" else 0) if decided else _logic(op, left, right)
                continue
            right = self._operand(live, prec if op == "**" else prec + 1)
            left = _apply(op, left, right)

    def _operand(self, live: bool, level: int):
        return self._binary_rest(self.unary(live), live, level)

    def ternary(self, live: bool):
        cond = self._operand(live, 4)
        if self.peek() != "?":
            return cond
        self.i += 1
        known = isinstance(cond, int)
        yes = self.ternary(live and (not known or cond != 0))
        self.expect(":")
        no = self.ternary(live and (not known or cond == 0))
        if not known:
            return Opaque(cond.origins | _origins(yes) | _origins(no))
        return yes if cond else no

    def unary(self, live: bool):
        op = self.peek()
        if op in ("+", "-", "!", "~"):
            self.i += 1
            value = self.unary(live)
            if not isinstance(value, int):
                return value
            return {"+": value, "-": _wrap(-value), "!": int(not value), "~": ~value}[op]
        if op in ("++", "--"):
            self.i += 1
            kind, name = self.take()
            if kind != "name":
                raise ArithError("syntax error: variable expected after " + op)
            index = self._index(live)
            value = self._read(name, index)
            if isinstance(value, int):
                value = _wrap(value + (1 if op == "++" else -1))
            if live:
                self.scope.set(name, index, value)
            return value
        return self.postfix(live)

    def postfix(self, live: bool):
        kind, token = self.take()
        if kind == "num":
            return _wrap(parse_int(token))
        if token == "(":
            value = self.expression(live)
            self.expect(")")
            return value
        if kind != "name":
            raise ArithError(f"syntax error: operand expected (error token is {token!r})")
        index = self._index(live)
        op = self.peek()
        if op in _ASSIGN:
            self.i += 1
            right = self.expression(live, 2)
            value = right if op == "=" else _apply(op[:-1], self._read(token, index), right)
            if live:
                self.scope.set(token, index, value)
            return value
        value = self._read(token, index)
        if op in ("++", "--"):
            self.i += 1
            if live:
                self.scope.set(
                    token, index, _wrap(value + (1 if op == "++" else -1)) if isinstance(value, int) else value
                )
        return value

    def _index(self, live: bool):
        if self.peek() != "[":
            return None
        self.i += 1
        index = self.expression(live)
        self.expect("]")
        return index

    def _read(self, name: str, index):
        if self.depth > MAX_DEPTH:
            raise ArithError("expression recursion level exceeded")
        raw = self.scope.get(name, index)
        if isinstance(raw, Opaque):
            return raw
        raw = (raw or "").strip()
        if not raw:
            return 0
        if re.fullmatch(r"-?\d+", raw):
            return _wrap(int(raw, 10)) if not raw.lstrip("-").startswith("0") or raw in ("0", "-0") else parse_int(raw)
        return evaluate(raw, self.scope, self.depth + 1)


def _origins(value) -> frozenset:
    return value.origins if isinstance(value, Opaque) else frozenset()


def _logic(op: str, left, right):
    if isinstance(right, int) and isinstance(left, int):
        return int(bool(left) and bool(right)) if op == "&&" else int(bool(left) or bool(right))
    if isinstance(right, int) and ((op == "&&" and right == 0) or (op == "||" and right != 0)):
        return 0 if op == "&&" else 1
    return Opaque(_origins(left) | _origins(right))


def _apply(op: str, left, right):
    if not isinstance(left, int) or not isinstance(right, int):
        return Opaque(_origins(left) | _origins(right))
    if op in ("/", "%") and right == 0:
        raise ArithError("division by 0")
    if op == "/":
        q = abs(left) // abs(right)
        return _wrap(q if (left >= 0) == (right >= 0) else -q)
    if op == "%":
        return _wrap(left - right * int(left / right)) if right else 0
    if op == "**":
        if right < 0:
            raise ArithError("exponent less than 0")
        return _wrap(pow(left, right, 1 << 64))
    return {
        ",": lambda: right,
        "|": lambda: left | right,
        "^": lambda: left ^ right,
        "&": lambda: left & right,
        "==": lambda: int(left == right),
        "!=": lambda: int(left != right),
        "<": lambda: int(left < right),
        "<=": lambda: int(left <= right),
        ">": lambda: int(left > right),
        ">=": lambda: int(left >= right),
        "<<": lambda: _wrap(left << (right & 63)),
        ">>": lambda: left >> (right & 63),
        "+": lambda: _wrap(left + right),
        "-": lambda: _wrap(left - right),
        "*": lambda: _wrap(left * right),
    }[op]()


def evaluate(text: str, scope, depth: int = 0):
    """The value of a bash arithmetic expression: an int, or an Opaque when it reads unknown values."""
    if not text.strip():
        return 0
    parser = _Parser(text, scope, depth)
    value = parser.expression()
    if parser.peek() is not None:
        raise ArithError(f"syntax error in expression (error token is {parser.peek()!r})")
    return value
