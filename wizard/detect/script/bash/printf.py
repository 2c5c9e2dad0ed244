"""bash's printf over known arguments (%s %d %i %u %x %o %f %e %g %c %q %b %%, widths, backslash escapes)."""

from __future__ import annotations

import re

from wizard.detect.script.bash.values import Spread, Text, Unknown, is_known, known, limited, text

MAX_WIDTH = 64 * 1024  # and of the whole output: as expand.MAX_VALUE_CHARS

_SPEC = re.compile(r"%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([sdiuxXofeEgGcqb%])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}


def _escapes(s: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), "\\" + m.group(1)), s)


def format_printf(args: list) -> Text:
    """The output of `printf FORMAT ARGS...`; unknown when the format or a used argument is unknown."""
    if any(isinstance(a, Spread) for a in args) or not is_known(args[0]):
        origins = frozenset().union(*(a.origins if isinstance(a, Spread) else _origins(a) for a in args))
        return (Unknown(origins, "$(printf ...)"),)
    fmt, rest = _escapes(known(args[0])), list(args[1:])
    out: list = []
    size = 0
    while True:
        used = 0
        pos = 0
        for m in _SPEC.finditer(fmt):
            out.append(fmt[pos : m.start()])
            pos = m.end()
            flags, width, precision, conv = m.groups()
            if conv == "%":
                out.append("%")
                continue
            value = rest[used] if used < len(rest) else ("",)
            used += 1
            if not is_known(value):
                out.append(value)
                continue
            if max(int(w) if w and w.isdigit() else 0 for w in (width, precision)) > MAX_WIDTH:
                out.append(limited("$(printf " + m.group() + " ...)", "size"))  # `%999999999d` would take a GB
                continue
            out.append(_one(flags, width, precision, conv, known(value)))
            size += len(out[-1])
            if size > MAX_WIDTH:
                return limited("$(printf ...)", "size")
        out.append(fmt[pos:])
        rest = rest[used:]
        if not rest or used == 0:
            break
    return text(*out)


def _one(flags: str, width, precision, conv: str, value: str) -> str:
    spec = (
        "%"
        + flags
        + (width if width and width != "*" else "")
        + (f".{precision}" if precision and precision != "*" else "")
    )
    try:
        if conv in "diu":
            return (spec + "d") % int(value or "0", 0)
        if conv in "xXo":
            return (spec + conv) % int(value or "0", 0)
        if conv in "feEgG":
            return (spec + conv) % float(value or "0")
        if conv == "c":
            return value[:1]
        if conv == "b":
            return _escapes(value)
        if conv == "q":
            return value if re.fullmatch(r"[A-Za-z0-9_./=:,+-]+", value) else "'" + value.replace("'", "'\\''") + "'"
        return (spec + "s") % value
    except (ValueError, TypeError):
        return value


def _origins(value) -> frozenset:
    return frozenset().union(*(p.origins for p in value if isinstance(p, Unknown)))
