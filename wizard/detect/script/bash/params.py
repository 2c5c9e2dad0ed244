"""The forms of `${...}`: defaults, assignment, alternatives, errors, length, prefix/suffix removal,
replacement, case conversion, substrings, indirection and array forms, over known and unknown values.

A variable the script never set is ABSENT: `${V:-d}` and friends take the author's default (the
script is read as if started in an environment without it), while a bare `$V` or `${V:?}` is unknown
(`--env V=...` gives it).
"""

from __future__ import annotations

import re

from wizard.detect.script.bash import patterns
from wizard.detect.script.bash.arith import Opaque
from wizard.detect.script.bash.assignment import ABSENT, assign
from wizard.detect.script.bash.state import ARRAY, ASSOC
from wizard.detect.script.bash.values import ENV, Origin, Spread, is_known, known, limited, origins_of, text, unknown

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!\-]")
_OP = re.compile(r":?[-=?+]|##?|%%?|/#|/%|//?|\^\^?|,,?|:|@[QEPAKaUuLk]")


def expand_param(x, inner: str, quoted: bool):
    if inner in ("#",):
        return ("text", x.lookup("#", None), quoted)
    length = inner.startswith("#") and len(inner) > 1
    indirect = inner.startswith("!") and len(inner) > 1
    body = inner[1:] if length or indirect else inner
    m = _NAME.match(body)
    if not m:
        return ("text", unknown({Origin(ENV, inner)}, "${" + inner + "}"), quoted)
    name, rest = m.group(), body[m.end() :]
    sub = None
    if rest.startswith("["):
        end = _bracket_end(rest)
        sub, rest = rest[1 : end - 1], rest[end:]
    if indirect:
        if rest in ("*", "@") and sub is None:
            names = sorted(n for n in x.state.vars if n.startswith(name))
            return (
                "fields" if rest == "@" and quoted else "text",
                [(n,) for n in names] if rest == "@" and quoted else (" ".join(names),),
                quoted,
            )
        if sub in ("@", "*"):
            var = x.state.get(name)
            keys = (
                [] if var is None or var.kind not in (ARRAY, ASSOC) else [(str(k),) for k in sorted(var.items, key=str)]
            )
            return ("fields", keys, quoted) if sub == "@" else ("text", text(" ".join(k[0] for k in keys)), quoted)
        target = x.lookup(name, sub)
        if target is ABSENT or isinstance(target, (list, Spread)) or not is_known(target):
            return ("text", unknown(_origins(target, name), "${" + inner + "}"), quoted)
        target_name = known(target)
        if not _NAME.fullmatch(target_name.split("[")[0] or "-"):
            return ("text", (), quoted)
        name, sub = (
            (target_name.split("[", 1)[0], target_name.split("[", 1)[1][:-1])
            if "[" in target_name
            else (target_name, None)
        )
    value = x.lookup(name, sub)
    many = sub in ("@", "*") or name in ("@", "*")
    if length:
        if isinstance(value, Spread) or (value is ABSENT and not many):
            return ("text", unknown(_origins(value, name), "${" + inner + "}"), quoted)
        if isinstance(value, list):
            if any(isinstance(v, Spread) for v in value):
                return ("text", unknown(_origins(value, name), "${" + inner + "}"), quoted)
            return ("text", (str(len(value)),), quoted)
        if not is_known(value):
            return ("text", unknown(origins_of(value), "${" + inner + "}"), quoted)
        return ("text", (str(len(known(value))),), quoted)
    if not rest:
        return _result(value, name, inner, quoted, sub, x.ifs()[:1])
    op_match = _OP.match(rest)
    if not op_match:
        return ("text", unknown({Origin(ENV, name)}, "${" + inner + "}"), quoted)
    op, arg = op_match.group(), rest[op_match.end() :]
    if op in (":-", "-", ":=", "=", ":?", "?", ":+", "+"):
        return _default_forms(x, value, name, inner, quoted, sub, op, arg)
    if isinstance(value, Spread) or value is ABSENT:
        return ("text", unknown(_origins(value, name), "${" + inner + "}"), quoted)
    values = value if isinstance(value, list) else [value]
    if any(isinstance(v, Spread) for v in values):
        return ("text", unknown(_origins(value, name), "${" + inner + "}"), quoted)
    if op == ":":
        return _substring(x, values, isinstance(value, list), inner, quoted, arg, positional=name in ("@", "*"))
    if op in ("#", "##", "%", "%%", "/", "//", "/#", "/%"):
        if op.startswith("/"):
            pat_raw, _, rep_raw = _split_replacement(arg)
            pat, rep = x.pattern(pat_raw), x.one(rep_raw)
        else:
            pat, rep = x.pattern(arg), ()
        if not is_known(pat) or not is_known(rep):
            return (
                "text",
                unknown(origins_of(pat) | origins_of(rep) | _all_origins(values), "${" + inner + "}"),
                quoted,
            )
        out = []
        budget = x.state.shared.matching
        for v in values:
            if not is_known(v):
                out.append(unknown(origins_of(v), "${" + inner + "}"))
                continue
            try:
                if op.startswith("/"):
                    done = patterns.replace(known(v), known(pat), known(rep), op, budget)
                else:
                    done = patterns.strip(known(v), known(pat), op, budget)
            except patterns.ResultTooLarge:
                out.append(limited("${" + inner + "}", "size"))
                continue
            out.append(limited("${" + inner + "}", "match") if done is None else text(done))
        return _result(out if isinstance(value, list) else out[0], name, inner, quoted, sub)
    if op in ("^^", "^", ",,", ","):
        out = []
        for v in values:
            s = known(v)
            if s is None:
                out.append(unknown(origins_of(v), "${" + inner + "}"))
                continue
            if op == "^^":
                s = s.upper()
            elif op == ",,":
                s = s.lower()
            elif s:
                s = (s[0].upper() if op == "^" else s[0].lower()) + s[1:]
            out.append(text(s))
        return _result(out if isinstance(value, list) else out[0], name, inner, quoted, sub)
    if op == "@Q":
        out = [text("'" + known(v).replace("'", "'\\''") + "'") if is_known(v) else v for v in values]
        return _result(out if isinstance(value, list) else out[0], name, inner, quoted, sub)
    return ("text", unknown(_all_origins(values) or {Origin(ENV, name)}, "${" + inner + "}"), quoted)


def _result(value, name, inner, quoted, sub, sep=" "):
    if value is ABSENT:
        return ("text", unknown({Origin(ENV, name)}, "$" + name if inner == name else "${" + inner + "}"), quoted)
    if isinstance(value, Spread):
        return ("spread", value, quoted)
    if isinstance(value, list):
        star = sub == "*" or name == "*"
        if quoted and star:
            parts = [v if not isinstance(v, Spread) else unknown(v.origins, v.shown) for v in value]
            return ("text", text(*_joined(parts, sep)), quoted)
        return ("fields", value, quoted)
    return ("text", value, quoted)


def _default_forms(x, value, name, inner, quoted, sub, op, arg):
    colon = op.startswith(":")
    if isinstance(value, Spread):
        return ("spread", value, quoted)
    if isinstance(value, list):
        is_set = bool(value)
        empty = not value or all(v == () for v in value)
    elif value is ABSENT:
        is_set, empty = False, True
    else:
        is_set = True
        empty = value == ()
        if not is_known(value) and colon:
            if op[-1] == "+":
                return ("text", unknown(origins_of(value), "${" + inner + "}"), quoted)
            return _result(value, name, inner, quoted, sub)
    use_word = (not is_set) or (colon and empty)
    kind = op[-1]
    if kind == "+":
        return ("text", () if use_word else x.one(arg), quoted)
    if not use_word:
        return _result(value, name, inner, quoted, sub)
    if kind == "?":
        return ("text", unknown({Origin(ENV, name)}, "${" + inner + "}"), quoted)
    word = x.one(arg)
    if kind == "=" and not name.isdigit():
        assign(x.state, name, word)
    return ("text", word, quoted)


def _substring(x, values, many, inner, quoted, arg, positional: bool = False):
    offset_text, _, length_text = arg.partition(":")
    offset = x.arith(offset_text) if offset_text.strip() else 0
    length = x.arith(length_text) if length_text.strip() else None
    if isinstance(offset, Opaque) or isinstance(length, Opaque):
        origins = (offset.origins if isinstance(offset, Opaque) else frozenset()) | (
            length.origins if isinstance(length, Opaque) else frozenset()
        )
        return ("text", unknown(origins | _all_origins(values), "${" + inner + "}"), quoted)
    if many:
        if positional and offset > 0:
            offset -= 1  # ${@:n} counts from $1 (${@:0} would start with $0)
        start = offset if offset >= 0 else max(len(values) + offset, 0)
        chosen = values[start:] if length is None else values[start : start + max(length, 0)]
        return ("fields", chosen, quoted) if quoted else ("fields", chosen, False)
    v = values[0]
    if not is_known(v):
        return ("text", unknown(origins_of(v), "${" + inner + "}"), quoted)
    s = known(v)
    start = offset if offset >= 0 else max(len(s) + offset, 0)
    if length is None:
        return ("text", text(s[start:]), quoted)
    end = start + length if length >= 0 else len(s) + length
    return ("text", text(s[start:end]), quoted)


def _split_replacement(arg: str) -> tuple[str, str, str]:
    i = 0
    while i < len(arg):
        if arg[i] == "\\":
            i += 2
            continue
        if arg[i] == "/":
            return arg[:i], "/", arg[i + 1 :]
        i += 1
    return arg, "", ""


def _bracket_end(rest: str) -> int:
    depth = 0
    for i, c in enumerate(rest):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(rest)


def _joined(items, sep=" "):
    out = []
    for k, item in enumerate(items):
        if k:
            out.append(sep)
        out.append(item)
    return out


def _origins(value, name) -> set:
    if value is ABSENT:
        return {Origin(ENV, name)}
    if isinstance(value, Spread):
        return set(value.origins)
    if isinstance(value, list):
        return set(_all_origins(value))
    return set(origins_of(value))


def _all_origins(values) -> frozenset:
    found: set = set()
    for v in values:
        found |= v.origins if isinstance(v, Spread) else origins_of(v)
    return frozenset(found)
