"""Read a Hydra command-line override value (the part after `=`) the way Hydra 1.3 does.

This mirrors Hydra's override grammar (`OverrideLexer.g4` / `OverrideParser.g4`) for one run, not a
sweep: the lexer takes the longest token at each position (ties go to the rule defined first, as
ANTLR does), and the parser turns tokens into ints, floats, booleans, None, strings, lists and
dicts. Interpolations such as `${oc.env:HOME}` stay strings, as Hydra passes them on to OmegaConf.
Anything Hydra would reject on a single run (a lexer error, an unbalanced bracket, a `a,b` sweep,
a sweep function) raises ValueError with a short message. Standard library only.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import Any

from wizard.i18n.text import Msg, msg

__all__ = ["OVERRIDE_KEY_RE", "parse_override_value", "split_override"]

_INT_U = r"(?:0|[1-9](?:_?[0-9])*)"
_DIGITS = r"[0-9](?:_?[0-9])*"
_WS = r"[ \t]*"

# Each rule is (name, the characters it can start with, alternatives); the rule's match is its
# longest alternative, like ANTLR's DFA. The first characters only save trying every rule.
_RULES: list[tuple[str, str, list[str]]] = [
    ("POPEN", " \t(", [_WS + r"\(" + _WS]),
    ("COMMA", " \t,", [_WS + "," + _WS]),
    ("PCLOSE", " \t)", [_WS + r"\)"]),
    ("BRACKET_OPEN", "[", [r"\[" + _WS]),
    ("BRACKET_CLOSE", " \t]", [_WS + r"\]"]),
    ("BRACE_OPEN", "{", [r"\{" + _WS]),
    ("BRACE_CLOSE", " \t}", [_WS + r"\}"]),
    ("COLON", " \t:", [_WS + ":" + _WS]),
    ("EQUAL", " \t=", [_WS + "=" + _WS]),
    (
        "FLOAT",
        "+-.0123456789IiNn",
        [
            rf"[+-]?{_INT_U}\.",
            rf"[+-]?{_INT_U}?\.{_DIGITS}",
            rf"[+-]?{_INT_U}[eE][+-]?{_DIGITS}",
            rf"[+-]?{_INT_U}\.[eE][+-]?{_DIGITS}",
            rf"[+-]?{_INT_U}?\.{_DIGITS}[eE][+-]?{_DIGITS}",
            r"[+-]?[Ii][Nn][Ff]",
            r"[+-]?[Nn][Aa][Nn]",
        ],
    ),
    ("INT", "+-0123456789", [rf"[+-]?{_INT_U}"]),
    ("BOOL", "TtFf", [r"[Tt][Rr][Uu][Ee]", r"[Ff][Aa][Ll][Ss][Ee]"]),
    ("NULL", "Nn", [r"[Nn][Uu][Ll][Ll]"]),
    ("UNQUOTED_CHAR", "/-\\+.$%*@?|", [r"[/\-\\+.$%*@?|]"]),
    ("ID", string.ascii_letters + "_", [r"[A-Za-z_][A-Za-z0-9_-]*"]),
    ("ESC", "\\", [r"(?:\\\\|\\[()\[\]{}:=, \t])+"]),
    ("WS", " \t", [r"[ \t]+"]),
    ("QUOTED_VALUE", "\"'", [r'"(?:[^"\\]|\\.)*"', r"'(?:[^'\\]|\\.)*'"]),
    ("INTERPOLATION", "$", [r"\$\{[^}]+\}"]),
]


def _index_rules() -> dict[str, list[tuple[str, list[re.Pattern[str]]]]]:
    by_first: dict[str, list[tuple[str, list[re.Pattern[str]]]]] = {}
    for name, first, alternatives in _RULES:
        compiled = [re.compile(alternative, re.DOTALL) for alternative in alternatives]
        for char in first:
            by_first.setdefault(char, []).append((name, compiled))
    return by_first


_BY_FIRST = _index_rules()

_PRIMITIVE_TOKENS = frozenset(
    {"ID", "NULL", "INT", "FLOAT", "BOOL", "INTERPOLATION", "UNQUOTED_CHAR", "COLON", "ESC", "WS"}
)
_DICT_KEY_TOKENS = _PRIMITIVE_TOKENS - {"COLON", "INTERPOLATION"}
_SWEEP_FUNCTIONS = frozenset({"choice", "range", "interval", "glob", "sort", "shuffle", "tag", "extend_list"})

_KEY_SEG = r"(?:[A-Za-z_$][A-Za-z0-9_$-]*|" + _INT_U + r")"
_PACKAGE = r"(?:[A-Za-z_$][A-Za-z0-9_$-]*|" + _KEY_SEG + r"(?:\." + _KEY_SEG + r")+)"
_GROUP = r"[A-Za-z_][A-Za-z0-9_-]*(?:/[A-Za-z_][A-Za-z0-9_-]*)+"
OVERRIDE_KEY_RE = re.compile(rf"(?:{_GROUP}|{_PACKAGE})(?:@{_PACKAGE}?)?")
"""A key Hydra's override grammar accepts: `a.b.c`, `group/sub`, `group@pkg`, `$special`."""

_MAX_VALUE_CHARS = 100_000
_MAX_DEPTH = 100


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


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        best_name, best_len = "", 0
        for name, patterns in _BY_FIRST.get(text[pos], ()):
            for pattern in patterns:
                m = pattern.match(text, pos)
                if m and len(m.group()) > best_len:
                    best_name, best_len = name, len(m.group())
        if not best_len:
            raise ValueError(msg("hydra.bad_character", char=text[pos], position=pos + 1))
        tokens.append((best_name, text[pos : pos + best_len]))
        pos += best_len
    return tokens


def _unescape_quoted(token: str) -> str:
    quote, body = token[0], token[1:]
    out: list[str] = []
    # A run of backslashes before a quote is halved (the odd one escapes the quote); the closing
    # quote itself is consumed by the last run or dropped at the end.
    pattern = re.compile(r"(\\)+" + re.escape(quote))
    m = pattern.search(body)
    while m is not None:
        start, stop = m.span()
        out.append(body[:start])
        out.append(body[start + 1 : stop : 2])
        body = body[stop:]
        m = pattern.search(body)
    if len(body) > 1:
        out.append(body[:-1])
    return "".join(out)


class _Parser:
    """Recursive descent over the token list, one method per grammar rule."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> str | None:
        index = self.pos + offset
        return self.tokens[index][0] if index < len(self.tokens) else None

    def take(self, kind: str, what: str) -> str:
        if self.peek() != kind:
            found = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
            raise ValueError(msg("hydra.expected", what=what, found=found))
        self.pos += 1
        return self.tokens[self.pos - 1][1]

    def value(self) -> Any:
        if not self.tokens:
            return ""
        first = self.element()
        if self.peek() == "COMMA":
            raise ValueError(msg("hydra.sweep"))
        if self.pos != len(self.tokens):
            raise ValueError(msg("hydra.unexpected", token=self.tokens[self.pos][1]))
        return first

    def element(self) -> Any:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise ValueError(msg("hydra.too_deep"))
        try:
            kind = self.peek()
            if kind == "ID" and self.peek(1) == "POPEN":
                return self.function()
            if kind == "BRACKET_OPEN":
                return self.container("BRACKET_CLOSE", "]", self.element, list)
            if kind == "BRACE_OPEN":
                return self.container("BRACE_CLOSE", "}", self.pair, dict)
            return self.primitive(_PRIMITIVE_TOKENS)
        finally:
            self.depth -= 1

    def container(self, close: str, symbol: str, item: Callable[[], Any], build: type) -> Any:
        self.pos += 1
        items = []
        if self.peek() != close:
            items.append(item())
            while self.peek() == "COMMA":
                self.pos += 1
                items.append(item())
        if self.peek() is None:
            raise ValueError(msg("hydra.unbalanced", symbol=symbol))
        self.take(close, repr(symbol))
        return build(items)

    def pair(self) -> tuple[Any, Any]:
        key = self.primitive(_DICT_KEY_TOKENS)
        self.take("COLON", "':' in a dict")
        return key, self.element()

    def primitive(self, allowed: frozenset[str]) -> Any:
        if self.peek() == "QUOTED_VALUE":
            self.pos += 1
            return _unescape_quoted(self.tokens[self.pos - 1][1])
        start = self.pos
        while self.peek() in allowed:
            self.pos += 1
        run = self.tokens[start : self.pos]
        if not run:
            found = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
            raise ValueError(msg("hydra.unexpected", token=found))
        if run[0][0] == "WS":
            if len(run) == 1:
                raise ValueError(msg("hydra.only_whitespace"))
            run = run[1:]
        if run[-1][0] == "WS":
            run = run[:-1]
        if len(run) > 1:
            return "".join(text[1::2] if kind == "ESC" else text for kind, text in run)
        kind, text = run[0]
        if kind == "INT":
            return int(text)
        if kind == "FLOAT":
            return float(text)
        if kind == "NULL":
            return None
        if kind == "BOOL":
            return text.lower() == "true"
        if kind == "ESC":
            return text[1::2]
        return text

    def function(self) -> Any:
        name = self.take("ID", "a function name")
        self.take("POPEN", "'('")
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        while self.peek() != "PCLOSE":
            if self.peek() is None:
                raise ValueError(msg("hydra.unbalanced", symbol=")"))
            if args or kwargs:
                self.take("COMMA", "',' between arguments")
            if self.peek() == "ID" and self.peek(1) == "EQUAL":
                arg_name = self.take("ID", "an argument name")
                self.pos += 1
                kwargs[arg_name] = self.element()
            elif kwargs:
                raise ValueError(msg("hydra.positional_after_keyword"))
            else:
                args.append(self.element())
        self.pos += 1
        return _call(name, args, kwargs)


def _cast(function: Callable[[Any], Any], value: Any) -> Any:
    if isinstance(value, list):
        return [_cast(function, item) for item in value]
    if isinstance(value, dict):
        return {key: _cast(function, item) for key, item in value.items()}
    return function(value)


def _to_bool(value: Any) -> bool:
    if isinstance(value, str):
        if value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ValueError(msg("hydra.not_bool", value=value))
    return bool(value)


def _to_str(value: Any) -> str:
    if value is None:
        raise ValueError(msg("hydra.null_to_str"))
    return str(value).lower() if isinstance(value, bool) else str(value)


_CASTS: dict[str, Callable[[Any], Any]] = {"int": int, "float": float, "str": _to_str, "bool": _to_bool}


def _call(name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    if name in _SWEEP_FUNCTIONS:
        raise ValueError(msg("hydra.sweep_function", name=name))
    if name not in _CASTS:
        raise ValueError(msg("hydra.unknown_function", name=name))
    if set(kwargs) - {"value"} or (args and kwargs):
        raise ValueError(msg("hydra.one_value", name=name))
    if len(args) > 1:
        raise ValueError(msg("hydra.sweep_arguments", name=name))
    if not args and not kwargs:
        raise ValueError(msg("hydra.needs_value", name=name))
    value = args[0] if args else kwargs["value"]
    try:
        return _cast(_CASTS[name], value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ValueError(msg("hydra.in_function", name=name, error=reason_of(exc))) from None


def reason_of(exc: BaseException):
    """Why a value was rejected, as a message: ours are catalogue messages, Python's own casts say it in English."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Msg) else str(exc)


def parse_override_value(text: str) -> Any:
    """Turn the text after `key=` of a Hydra override into the Python value Hydra would set.

    `8` -> 8, `1e-6` -> 1e-06, `True`/`false` -> bool, `null` -> None, `'x'`/`"x"` -> "x",
    `[a,'b']` -> ["a", "b"], `{a:1}` -> {"a": 1}, `Qwen/Qwen3-8B` and `${oc.env:HOME}` -> str,
    and an empty value -> "". Raises ValueError (short message) for what Hydra rejects on a
    single run: an unbalanced bracket, a character its grammar lacks (`~`, `#`, non-ASCII
    letters outside quotes), a `a,b` sweep or a sweep function.
    """
    if len(text) > _MAX_VALUE_CHARS:
        raise ValueError(msg("hydra.too_long", chars=len(text)))
    # Hydra's `=` token swallows the whitespace that follows it.
    text = text.lstrip(" \t")
    try:
        return _Parser(_tokenize(text)).value()
    except RecursionError:
        raise ValueError(msg("hydra.too_deep")) from None
