"""Bash's quoting inside one word: literal text, parameter, command and arithmetic expansions.

`parts(raw)` turns a word as written (`data.path="$ROOT/x"'y'`) into parts in bash's terms, each
marked quoted or not (quoted text is neither split nor globbed). `brace_expand` does bash's first
expansion (`a{1,2}` -> `a1 a2`, `{1..3}`); `split_raw` splits text at unquoted blanks into words, for
the operands of `[ ... ]`, `[[ ... ]]` and `${V:-word}`. Nothing is expanded here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LIT, PARAM, CMD, ARITH, TILDE, PROC = "lit", "param", "cmd", "arith", "tilde", "proc"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!\-]")
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v"}
MAX_BRACE_WORDS = 10_000  # as expand.MAX_FIELDS


class TooManyWords(Exception):
    """A brace expansion makes more than MAX_BRACE_WORDS words (bash makes them all; the reader does not)."""


@dataclass(frozen=True)
class Part:
    kind: str
    text: str
    quoted: bool


def matching(raw: str, i: int, open_: str, close: str) -> int:
    """Index just past the `close` that balances the `open_` at raw[i], skipping quotes; len(raw) if none."""
    depth, j, n = 0, i, len(raw)
    while j < n:
        c = raw[j]
        if c == "\\":
            j += 2
            continue
        if c == "'" and open_ == "(":
            end = raw.find("'", j + 1)
            j = n if end < 0 else end + 1
            continue
        if c == '"':
            j = _end_of_double(raw, j)
            continue
        if c == "$" and raw[j + 1 : j + 2] in ("(", "{") and raw[j + 1] != open_:
            j = matching(raw, j + 1, raw[j + 1], ")" if raw[j + 1] == "(" else "}")
            continue
        if c == open_:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def _end_of_double(raw: str, i: int) -> int:
    j, n = i + 1, len(raw)
    while j < n and raw[j] != '"':
        if raw[j] == "\\":
            j += 2
        elif raw[j] == "$" and raw[j + 1 : j + 2] in ("(", "{"):
            j = matching(raw, j + 1, raw[j + 1], ")" if raw[j + 1] == "(" else "}")
        elif raw[j] == "`":
            end = raw.find("`", j + 1)
            j = n if end < 0 else end + 1
        else:
            j += 1
    return j + 1


def _dollar(raw: str, i: int, quoted: bool, out: list[Part]) -> int:
    """Read the expansion that starts with `$` at raw[i]; return the index after it."""
    nxt = raw[i + 1 : i + 2]
    if raw.startswith("$((", i):
        end = matching(raw, i + 1, "(", ")")
        inner = raw[i + 3 : end - 2]
        if raw[end - 2 : end] == "))" and inner.count("(") == inner.count(")"):
            out.append(Part(ARITH, inner, quoted))
            return end
    if nxt == "(":
        end = matching(raw, i + 1, "(", ")")
        out.append(Part(CMD, raw[i + 2 : end - 1], quoted))
        return end
    if nxt == "{":
        end = matching(raw, i + 1, "{", "}")
        out.append(Part(PARAM, raw[i + 2 : end - 1], quoted))
        return end
    if nxt == "'" and not quoted:
        return _ansi_c(raw, i + 2, out)
    if nxt == '"' and not quoted:
        return i + 1  # $"..." is "..." (no translation catalogue here)
    m = _NAME.match(raw, i + 1)
    if m:
        name = m.group()
        out.append(Part(PARAM, name, quoted))
        return m.end()
    out.append(Part(LIT, "$", quoted))
    return i + 1


def _ansi_c(raw: str, i: int, out: list[Part]) -> int:
    buf, n = [], len(raw)
    while i < n and raw[i] != "'":
        c = raw[i]
        if c == "\\" and i + 1 < n:
            e = raw[i + 1]
            if e in _ANSI:
                buf.append(_ANSI[e])
                i += 2
                continue
            if e == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", raw[i + 2 :])
                if m:
                    buf.append(chr(int(m.group(), 16)))
                    i += 2 + m.end()
                    continue
            if e in "01234567":
                m = re.match(r"[0-7]{1,3}", raw[i + 1 :])
                assert m is not None  # e, the first character, is an octal digit
                buf.append(chr(int(m.group(), 8)))
                i += 1 + m.end()
                continue
            buf.append(e if e in "\\'\"?" else "\\" + e)
            i += 2
            continue
        buf.append(c)
        i += 1
    out.append(Part(LIT, "".join(buf), True))
    return i + 1


def parts(raw: str, tilde: bool = True, assignment: bool = False) -> list[Part]:
    """The parts of one word as written. `assignment`: a tilde after `=` or `:` expands too."""
    out: list[Part] = []
    buf: list[str] = []
    i, n = 0, len(raw)

    def flush() -> None:
        if buf:
            out.append(Part(LIT, "".join(buf), False))
            buf.clear()

    if tilde and raw.startswith("~"):
        m = re.match(r"~(?=/|$)", raw)  # ~user is left as written: as bash does when there is no such user
        if m:
            out.append(Part(TILDE, "", False))
            i = m.end()
    while i < n:
        c = raw[i]
        if c == "\\":
            if i + 1 < n and raw[i + 1] == "\n":
                i += 2
                continue
            flush()
            out.append(Part(LIT, raw[i + 1 : i + 2], True))
            i += 2
        elif c == "'":
            flush()
            end = raw.find("'", i + 1)
            end = n if end < 0 else end
            out.append(Part(LIT, raw[i + 1 : end], True))
            i = end + 1
        elif c == '"':
            flush()
            i = _double(raw, i + 1, out)
        elif c == "$":
            flush()
            i = _dollar(raw, i, False, out)
        elif c == "`":
            flush()
            end = raw.find("`", i + 1)
            end = n if end < 0 else end
            out.append(Part(CMD, raw[i + 1 : end].replace("\\`", "`"), False))
            i = end + 1
        elif c in "<>" and raw[i + 1 : i + 2] == "(":
            flush()
            end = matching(raw, i + 1, "(", ")")
            out.append(Part(PROC, raw[i + 2 : end - 1], False))
            i = end
        else:
            buf.append(c)
            i += 1
            if assignment and c in "=:" and raw.startswith("~", i):
                m = re.match(r"~(?=/|:|$)", raw[i:])
                if m:
                    flush()
                    out.append(Part(TILDE, "", False))
                    i += m.end()
    flush()
    return out


def _double(raw: str, i: int, out: list[Part]) -> int:
    n, buf, start = len(raw), [], len(out)
    while i < n and raw[i] != '"':
        c = raw[i]
        if c == "\\" and i + 1 < n and raw[i + 1] in '$`"\\\n':
            if raw[i + 1] != "\n":
                buf.append(raw[i + 1])
            i += 2
        elif c == "$" and i + 1 < n and (raw[i + 1] in "({" or _NAME.match(raw, i + 1)):
            if buf:
                out.append(Part(LIT, "".join(buf), True))
                buf = []
            i = _dollar(raw, i, True, out)
        elif c == "`":
            if buf:
                out.append(Part(LIT, "".join(buf), True))
                buf = []
            end = raw.find("`", i + 1)
            end = n if end < 0 else end
            out.append(Part(CMD, raw[i + 1 : end], True))
            i = end + 1
        else:
            buf.append(c)
            i += 1
    if buf or len(out) == start:
        out.append(Part(LIT, "".join(buf), True))
    return i + 1


def split_raw(raw: str) -> list[str]:
    """Split text at unquoted blanks into words as written (quotes and expansions kept whole)."""
    words, i, n, start = [], 0, len(raw), None
    while i < n:
        c = raw[i]
        if c in " \t\n":
            if start is not None:
                words.append(raw[start:i])
                start = None
            i += 1
            continue
        if start is None:
            start = i
        if c == "\\":
            i += 2
        elif c == "'":
            end = raw.find("'", i + 1)
            i = n if end < 0 else end + 1
        elif c == '"':
            i = _end_of_double(raw, i)
        elif c == "$" and raw[i + 1 : i + 2] in ("(", "{"):
            i = matching(raw, i + 1, raw[i + 1], ")" if raw[i + 1] == "(" else "}")
        elif c == "`":
            end = raw.find("`", i + 1)
            i = n if end < 0 else end + 1
        else:
            i += 1
    if start is not None:
        words.append(raw[start:])
    return words


def brace_expand(raw: str) -> list[str]:
    """Bash's brace expansion of one word as written: `a{b,c}d` -> `abd acd`, `x{1..3}` -> `x1 x2 x3`.

    TooManyWords past MAX_BRACE_WORDS words."""
    if "{" not in raw:
        return [raw]
    found = _brace_group(raw)
    if found is None:
        return [raw]
    start, end, items = found
    out: list[str] = []
    for item in items:
        out.extend(brace_expand(raw[:start] + item + raw[end:]))
        if len(out) > MAX_BRACE_WORDS:
            raise TooManyWords
    return out


def past_quoted(raw: str, i: int) -> int | None:
    """Where the escape, quote or $(...)/${...} that starts at raw[i] ends (braces inside it do not expand);
    None when raw[i] starts none of them."""
    c = raw[i]
    if c == "\\":
        return i + 2
    if c == "'":
        end = raw.find("'", i + 1)
        return len(raw) if end < 0 else end + 1
    if c == '"':
        return _end_of_double(raw, i)
    if c == "$" and raw[i + 1 : i + 2] in ("(", "{"):
        return matching(raw, i + 1, raw[i + 1], ")" if raw[i + 1] == "(" else "}")
    return None


def _brace_group(raw: str):
    """(start, end, alternatives) of the first unquoted brace group that expands, or None."""
    i, n = 0, len(raw)
    while i < n:
        skipped = past_quoted(raw, i)
        if skipped is not None:
            i = skipped
            continue
        if raw[i] == "{":
            items = _alternatives(raw, i)
            if items is not None:
                return i, items[0], items[1]
        i += 1
    return None


def _alternatives(raw: str, i: int):
    cuts: list[int] = []
    depth, j, n = 0, i, len(raw)
    while j < n:
        skipped = past_quoted(raw, j)
        if skipped is not None:
            j = skipped
            continue
        c = raw[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                body = raw[i + 1 : j]
                if cuts:
                    starts, ends = [i + 1, *cuts], [c - 1 for c in cuts] + [j]
                    return j + 1, [raw[a:b] for a, b in zip(starts, ends, strict=True)]
                return _sequence(body, j + 1)
        elif c == "," and depth == 1:
            cuts.append(j + 1)
        j += 1
    return None


def _sequence(body: str, end: int):
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", body)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        if abs(b - a) // step > MAX_BRACE_WORDS:
            raise TooManyWords
        width = len(m.group(1)) if m.group(1).lstrip("-").startswith("0") and len(m.group(1)) > 1 else 0
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return end, [str(v).zfill(width) for v in values]
    m = re.fullmatch(r"([A-Za-z])\.\.([A-Za-z])", body)
    if m:
        a, b = ord(m.group(1)), ord(m.group(2))
        return end, [chr(v) for v in (range(a, b + 1) if a <= b else range(a, b - 1, -1))]
    return None
