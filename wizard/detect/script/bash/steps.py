"""What one reading records: a `Step` per external command bash would start, and the variable a command's output
went into (so that `--env NAME=...` can stand in for it). Below the reader and the builtins, which both record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.state import SCALAR
from wizard.detect.script.bash.values import COMMAND, Origin, Text, Unknown, is_known, origins_of


@dataclass
class Step:
    """An external command bash would start: its fields (with the source line of each), environment, place."""

    fields: list
    lines: list
    assigns: dict
    env: dict
    line: int
    end_line: int
    file: str
    certain: bool
    raws: list = field(default_factory=list)  # the word each field came from, as written
    because: frozenset = frozenset()  # when not certain: the origins of the conditions it depends on


def attach_variable(st, name: str, value: Text) -> Text:
    """A command's output assigned to NAME: name the variable (so --env NAME=... can stand in for it)."""
    if is_known(value):
        return value
    if name in st.shared.pinned and any(o.kind == COMMAND for o in origins_of(value)):
        return st.shared.pinned[name]
    out = []
    for piece in value:
        if isinstance(piece, Unknown) and any(o.kind == COMMAND and not o.via for o in piece.origins):
            origins = frozenset(
                Origin(o.kind, o.name, name) if o.kind == COMMAND and not o.via else o for o in piece.origins
            )
            piece = Unknown(origins, piece.shown)
        out.append(piece)
    return tuple(out)


def record_step(reader, st, fields, lines, raws, assigns, node) -> None:
    env = {n: v.value for n, v in st.vars.items() if v.exported and v.kind == SCALAR}
    reader.shared.trace.append(
        Step(
            fields, lines, assigns, env, tree.line(node), tree.end_line(node), reader.file, st.certain, raws, st.because
        )
    )
