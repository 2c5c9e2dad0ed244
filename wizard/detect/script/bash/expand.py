"""Bash's expansions of one word over a State: parameters, arithmetic, command output, splitting.

`Expander.fields(raw)` gives the fields bash passes to a command for one word as written (brace
expansion, tilde, `$V` and `${V...}` in all their forms, `$((...))`, `$(...)`, field splitting, quote
removal; globs stay literal, as in an empty folder). `one(raw)` expands without splitting (assignment
values, `case` words). Unknown values stay `Unknown` pieces; `"$@"` of unknown arguments is a `Spread`.
Command substitution is handed to the `capture` callback (the interpreter runs the inner text).
"""

from __future__ import annotations

import re

from wizard.detect.script.bash import patterns
from wizard.detect.script.bash.arith import ArithError, Opaque, evaluate
from wizard.detect.script.bash.assignment import ABSENT, assign
from wizard.detect.script.bash.params import expand_param
from wizard.detect.script.bash.scan import (
    ARITH,
    CMD,
    LIT,
    PARAM,
    PROC,
    TILDE,
    TooManyWords,
    brace_expand,
    parts,
    split_raw,
)
from wizard.detect.script.bash.state import ARRAY, ASSOC, SCALAR, UNSET, State, Var
from wizard.detect.script.bash.values import (
    ARGS,
    COMMAND,
    ENV,
    Origin,
    Spread,
    Text,
    Unknown,
    is_known,
    known,
    limited,
    origins_of,
    text,
    unknown,
)
from wizard.detect.script.bash.values import shown as shown_of

MAX_EXPANDED_CHARS = 4 * 1024 * 1024
MAX_NESTING = 48
MAX_FIELDS = 10_000  # fields of one word, and elements of one array (commands.py)
_VOLATILE = frozenset({"RANDOM", "SRANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "BASHPID", "LINENO"})


class ExpansionTooLarge(Exception):
    """Kept for callers that still catch it: past MAX_EXPANDED_CHARS, expansions are now unknown instead."""


class Expander:
    def __init__(self, state: State, capture) -> None:
        self.state, self.capture = state, capture
        self.nesting = 0

    # --- words -----------------------------------------------------------------------------------

    def fields(self, raw: str) -> list:
        """The fields of one word (Text items, or a Spread for an unknown number of fields)."""
        out: list = []
        try:
            words = brace_expand(raw)
        except TooManyWords:
            return [Spread(origins_of(limited(raw, "array")), raw)]
        for word in words:
            word_parts = parts(word)
            fields = self._assemble(self._chunks(word_parts))
            if (
                len(word_parts) == 1
                and word_parts[0].kind in (PARAM, CMD)
                and not word_parts[0].quoted
                and len(fields) == 1
                and not isinstance(fields[0], Spread)
                and fields[0]
                and not any(isinstance(p, str) for p in fields[0])
            ):
                # an unquoted unknown value is split by bash: it may be no word, one, or several
                fields = [Spread(origins_of(fields[0]), shown_of(fields[0]))]
            out.extend(fields)
            if len(out) > MAX_FIELDS:
                return [Spread(origins_of(limited(raw, "array")), raw)]
        return out

    def one(self, raw: str, assignment: bool = False) -> Text:
        """The word expanded without field splitting (an assignment's value, a case word)."""
        pieces: list = []
        for kind, value, _quoted in self._chunks(parts(raw, assignment=assignment)):
            if kind == "fields":
                pieces.append(
                    text(*_joined([v if not isinstance(v, Spread) else (_unknown_of(v),) for v in value], " "))
                )
            elif kind == "spread":
                pieces.append(text((_unknown_of(value),)))
            else:
                pieces.append(value)
        return text(*pieces)

    def pattern(self, raw: str, escape=patterns.escape) -> Text:
        """The word as a glob pattern (or, with escape_ere, a regular expression): quoted characters escaped,
        unknown pieces kept."""
        pieces: list = []
        for part in parts(raw, tilde=False):
            if part.kind == LIT:
                pieces.append(escape(part.text) if part.quoted else part.text)
                continue
            for kind, value, quoted in self._chunks([part]):
                if kind == "fields":
                    value = text(*_joined([v if not isinstance(v, Spread) else (_unknown_of(v),) for v in value], " "))
                if kind == "spread":
                    value = (_unknown_of(value),)
                pieces.append(text(*(escape(p) if quoted and isinstance(p, str) else p for p in value)))
        return text(*pieces)

    def words(self, raw: str) -> list:
        """Fields of a run of words (the inside of `[ ... ]`, a `for` list written as text)."""
        return [f for word in split_raw(raw) for f in self.fields(word)]

    def _chunks(self, word_parts) -> list:
        chunks: list[tuple] = []  # (kind, value, quoted)
        for part in word_parts:
            if part.kind == LIT:
                chunks.append(("lit", (part.text,) if part.text else (), part.quoted))
            elif part.kind == TILDE:
                chunks.append(("lit", self._home(part.text), True))
            elif part.kind == PARAM:
                chunks.append(self.param(part.text, part.quoted))
            elif part.kind == ARITH:
                chunks.append(("text", self.arith_text(part.text), part.quoted))
            elif part.kind == CMD:
                chunks.append(("text", self.capture(part.text), part.quoted))
            elif part.kind == PROC:
                chunks.append(("lit", unknown({Origin(COMMAND, part.text.strip())}, f"<({part.text})"), True))
        self.state.shared.work += sum(_cost(kind, value) for kind, value, _ in chunks)
        if self.state.shared.work > MAX_EXPANDED_CHARS:
            # past the reading's budget every expansion is unknown (cheap), so the reading still ends
            return [
                chunk if part.kind in (LIT, TILDE) else ("text", limited(_written(part), "work"), part.quoted)
                for part, chunk in zip(word_parts, chunks, strict=True)
            ]
        return chunks

    def _assemble(self, chunks) -> list:
        out: list = []
        cur: list = []
        has = False
        ifs = self.ifs()
        for kind, value, quoted in chunks:
            if kind == "spread":
                if cur or has:
                    out.append(text(*cur))
                cur, has = [], False
                out.append(value)
            elif kind == "fields":
                if not value:
                    continue
                if any(isinstance(v, Spread) for v in value):
                    known_part = [v for v in value if not isinstance(v, Spread)]
                    spreads = [v for v in value if isinstance(v, Spread)]
                    for k, sub in enumerate(self._assemble([("fields", known_part, quoted)]) if known_part else []):
                        if k == 0 and (cur or has):
                            out.append(text(*cur, sub))
                            cur, has = [], False
                        else:
                            out.append(sub)
                    if cur or has:
                        out.append(text(*cur))
                    cur, has = [], False
                    out.extend(spreads)
                    continue
                if not quoted:
                    pieces = [p for item in value for p in _split(item, ifs)]
                    value = [text(*p) for p in pieces] if pieces else []
                    if not value:
                        continue
                cur.append(value[0])
                if len(value) > 1:
                    out.append(text(*cur))
                    out.extend(value[1:-1])
                    cur = [value[-1]]
                has = True
            elif quoted or kind == "lit":
                cur.append(value)
                has = has or quoted or bool(value)
            else:
                pieces = _split(value, ifs)
                if not pieces:
                    continue
                if _starts_with_blank(value, ifs) and (cur or has):
                    out.append(text(*cur))
                    cur, has = [], False
                cur.append(text(*pieces[0]))
                for piece in pieces[1:]:
                    out.append(text(*cur))
                    cur = [text(*piece)]
                has = True
                if _ends_with_blank(value, ifs):
                    out.append(text(*cur))
                    cur, has = [], False
        if cur or has:
            out.append(text(*cur))
        return out

    def ifs(self) -> str:
        var = self.state.get("IFS")
        if var is None or var.kind != SCALAR:
            return " \t\n"
        return known(var.value) if is_known(var.value) else " \t\n"

    def _home(self, user: str) -> Text:
        if user:
            return unknown({Origin(ENV, "HOME")}, f"~{user}")
        var = self.state.get("HOME")
        if var is None:
            return unknown({Origin(ENV, "HOME")}, "$HOME")
        return var.value if var.kind == SCALAR else ()

    # --- arithmetic ------------------------------------------------------------------------------

    def arith(self, expression: str):
        """An int, or an Opaque with the origins of what it could not know."""
        expanded = self.one(expression)
        if not is_known(expanded):
            return Opaque(origins_of(expanded))
        try:
            return evaluate(known(expanded), _Scope(self))
        except (ArithError, RecursionError, ValueError):
            return Opaque(frozenset({Origin(COMMAND, f"(( {expression.strip()} ))")}))

    def arith_text(self, expression: str) -> Text:
        value = self.arith(expression)
        if isinstance(value, Opaque):
            return unknown(value.origins, f"$(({expression}))")
        return (str(value),)

    # --- parameters ------------------------------------------------------------------------------

    def lookup(self, name: str, sub: str | None):
        """The value of a name (with subscript): ABSENT, a Text, a list of Texts (for [@] and [*]), or a Spread."""
        st = self.state
        if name.isdigit():
            if name == "0":
                return (st.shared.script_path,)
            if st.args is None:
                return unknown({Origin(ARGS, name)}, f"${name}")
            index = int(name) - 1
            return st.args[index] if index < len(st.args) else ()
        if name in ("@", "*"):
            if st.args is None:
                return Spread(frozenset({Origin(ARGS, "@")}), f"${name}")
            return list(st.args)
        if name == "#":
            return unknown({Origin(ARGS, "#")}, "$#") if st.args is None else (str(len(st.args)),)
        if name == "?":
            return (str(st.status),) if st.status is not None else unknown(st.status_origins, "$?")
        if name in ("$", "!", "-") or name in _VOLATILE:
            return unknown({Origin(COMMAND, "$" + name)}, "$" + name)
        if name == "PWD":
            return st.cwd
        if name == "BASH_SOURCE":
            var: Var | None = Var(
                ARRAY, items={0: (st.source_stack[-1] if st.source_stack else st.shared.script_path,)}
            )
        else:
            var = st.get(name)
        if var is None:
            return ABSENT
        if var.kind == UNSET:
            return ()
        if sub is None:
            if var.kind == SCALAR:
                return var.value
            if var.spread is not None:
                return unknown(var.spread.origins, f"${name}")
            return var.items.get(0 if var.kind == ARRAY else "0", ())
        if sub in ("@", "*"):
            if var.spread is not None:
                return [*var.elements(), var.spread] if var.items else var.spread
            return var.elements()
        if var.spread is not None and not var.items:
            return unknown(var.spread.origins, f"${{{name}[{sub}]}}")
        if var.kind == ASSOC:
            key = self.one(sub)
            return var.items.get(known(key), ()) if is_known(key) else unknown(origins_of(key), f"${{{name}[{sub}]}}")
        index = self.arith(sub)
        if isinstance(index, Opaque):
            return unknown(index.origins, f"${{{name}[{sub}]}}")
        if var.kind == SCALAR:
            return var.value if index in (0, -1) else ()
        at: int | None = index
        if index < 0:
            keys = sorted(var.items)
            at = keys[index] if -index <= len(keys) else None
        return var.items.get(at, ())

    def param(self, inner: str, quoted: bool):
        """One `${...}` (or `$NAME`) as a chunk: ("text", Text), ("fields", [Text]) or ("spread", Spread)."""
        if self.nesting > MAX_NESTING:
            return ("text", unknown({Origin(COMMAND, "${...} nested too deeply")}, "${" + inner[:20] + "...}"), quoted)
        self.nesting += 1
        try:
            return expand_param(self, inner, quoted)
        finally:
            self.nesting -= 1


class _Scope:
    """Variables as bash arithmetic reads and writes them."""

    def __init__(self, expander: Expander) -> None:
        self.x = expander

    def get(self, name: str, index):
        if isinstance(index, Opaque):
            return index
        value = self.x.lookup(name, None if index is None else str(index))
        if value is ABSENT:
            return Opaque(frozenset({Origin(ENV, name)}))
        if isinstance(value, (list, Spread)):
            return Opaque(frozenset())
        return known(value) if is_known(value) else Opaque(origins_of(value))

    def set(self, name: str, index, value) -> None:
        shown = unknown(value.origins, f"${name}") if isinstance(value, Opaque) else (str(value),)
        assign(self.x.state, name, shown, None if index is None or isinstance(index, Opaque) else index)


def _unknown_of(spread: Spread):
    return Unknown(spread.origins, spread.shown)


def _joined(items: list, sep: str) -> list:
    out: list = []
    for k, item in enumerate(items):
        if k:
            out.append(sep)
        out.append(item)
    return out


def _split(value: Text, ifs: str) -> list[list]:
    """Field splitting of an unquoted expansion: known text splits at IFS, unknown pieces stay whole."""
    if not ifs:
        return [list(value)] if value else []
    blanks = "".join(c for c in ifs if c in " \t\n")
    others = "".join(c for c in ifs if c not in " \t\n")
    rx = re.compile(
        (f"[{re.escape(blanks)}]*[{re.escape(others)}][{re.escape(blanks)}]*" if others else "")
        + ("|" if others and blanks else "")
        + (f"[{re.escape(blanks)}]+" if blanks else "")
    )
    fields: list[list] = [[]]
    for piece in value:
        if not isinstance(piece, str):
            fields[-1].append(piece)
            continue
        chunks = rx.split(piece)
        fields[-1].append(chunks[0])
        fields.extend([c] for c in chunks[1:])
    return [f for f in fields if any(p for p in f)]


def _starts_with_blank(value: Text, ifs: str) -> bool:
    return bool(value) and isinstance(value[0], str) and value[0][:1] in ifs and value[0][:1] != ""


def _ends_with_blank(value: Text, ifs: str) -> bool:
    return bool(value) and isinstance(value[-1], str) and value[-1][-1:] in ifs and value[-1][-1:] != ""


def _cost(kind: str, value) -> int:
    """Characters (and fields) one expanded chunk adds to the reading's work."""
    if kind in ("text", "lit"):
        return sum(len(p) for p in value if isinstance(p, str))
    if kind == "fields":
        return len(value) + sum(len(p) for v in value if not isinstance(v, Spread) for p in v if isinstance(p, str))
    return 1


def _written(part) -> str:
    """A part of a word roughly as the script writes it (for the note of a value past the work budget)."""
    if part.kind == PARAM:
        return "${" + part.text + "}"
    if part.kind in (CMD, PROC):
        return "$(" + part.text + ")"
    if part.kind == ARITH:
        return "$((" + part.text + "))"
    return part.text
