"""A variable set in a reading's state (`NAME=value`, `NAME[i]=value`, `NAME+=value`), and ABSENT, the value of one the
script never set. Below the expander and the parameter forms (`${V:=d}` assigns), which both use them.
"""

from __future__ import annotations

from wizard.detect.script.bash.state import ARRAY, SCALAR, UNSET, State, Var
from wizard.detect.script.bash.values import Text, is_known, known, limited, text

MAX_VALUE_CHARS = 64 * 1024  # a longer variable is kept as unknown: values that copy themselves grow without end


class _Absent:
    """A variable the script never set: its value is the environment's, unknown unless given."""


ABSENT = _Absent()


def assign(state: State, name: str, value: Text, index=None, append: bool = False) -> None:
    """NAME=value (or NAME[index]=value, NAME+=value) in the state, as bash does it."""
    var = state.get(name)
    if index is None and (var is None or var.kind in (SCALAR, UNSET)):
        old = var.value if var is not None and var.kind == SCALAR and append else ()
        new = text(old, value)
        if sum(len(p) for p in new if isinstance(p, str)) > MAX_VALUE_CHARS:
            new = limited(f"${name}", "size")
        state.set(name, Var(SCALAR, new, exported=bool(var and var.exported)))
        if is_known(new) and len(state.shared.history.get(name, ())) < 16:
            state.shared.history.setdefault(name, []).append(known(new))
        return
    if var is None or var.kind in (SCALAR, UNSET):
        items = {0: var.value} if var is not None and var.kind == SCALAR else {}
        var = Var(ARRAY, items=items, exported=bool(var and var.exported))
        state.set(name, var)
    if index is None:
        index = 0 if var.kind == ARRAY else "0"
    if var.kind == ARRAY and not isinstance(index, int):
        return
    old = var.items.get(index, ()) if append else ()
    var.items[index] = text(old, value)
