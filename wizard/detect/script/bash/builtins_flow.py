"""The builtins of a launch script that decide where the reader goes next, as bash runs them over the
reader's state: exit, return, break, continue, source/. (read and run another file) and eval.
"""

from __future__ import annotations

import posixpath

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.control import MAX_SOURCE_DEPTH, Break, Continue, Exit, Return
from wizard.detect.script.bash.values import (
    Spread,
    is_known,
    known,
    shown,
)


def _exit(reader, st, fields, node, redirects):
    status = int_argument(fields, 0)
    if status and st.certain and not reader.out:
        # A guard of the script that stops it with these values: say so, and read on as if it went on,
        # so that the rules can say what is wrong with what comes after.
        reader.shared.notes.append(("exit", tree.line(node), str(status)))
        return status
    raise Exit(status)


def _return(reader, st, fields, node, redirects):
    raise Return(int_argument(fields, st.status))


def _break(reader, st, fields, node, redirects):
    raise Break(int_argument(fields, 1) or 1)


def _continue(reader, st, fields, node, redirects):
    raise Continue(int_argument(fields, 1) or 1)


def int_argument(fields, default):
    """The builtin's numeric first argument; `default` without one, 2 for a word that is no number, None when unknown."""
    if len(fields) > 1 and not isinstance(fields[1], Spread) and is_known(fields[1]):
        try:
            return int(known(fields[1]))
        except ValueError:
            return 2
    return default if len(fields) <= 1 else None


def _source(reader, st, fields, node, redirects):
    if len(fields) < 2 or isinstance(fields[1], Spread):
        return None
    path = fields[1]
    if not is_known(path):
        reader.shared.notes.append(("source-unknown", tree.line(node), shown(path)))
        return None
    target = known(path)
    if not target.startswith("/"):
        base = known(st.cwd) if is_known(st.cwd) else posixpath.dirname(reader.file)
        target = posixpath.normpath(posixpath.join(base, target))
    if len(st.source_stack) >= MAX_SOURCE_DEPTH or target in st.source_stack:
        return 0
    body = reader.read_file(target)
    if body is None:
        reader.shared.notes.append(("source-missing", tree.line(node), target))
        return None
    reader.shared.sourced.append(target)
    saved_args, saved_stack = st.args, st.source_stack
    if len(fields) > 2:
        st.args = None if any(isinstance(f, Spread) for f in fields[2:]) else list(fields[2:])
    st.source_stack = (*saved_stack, target)
    try:
        reader.program(body, st, target)
    except Return as r:
        return r.status
    finally:
        st.source_stack = saved_stack
        if len(fields) > 2:
            st.args = saved_args
    return st.status


def _eval(reader, st, fields, node, redirects):
    pieces = []
    for k, f in enumerate(fields[1:]):
        if isinstance(f, Spread) or not is_known(f):
            return None
        pieces.append((" " if k else "") + known(f))
    reader.program("".join(pieces), st)
    return st.status


FLOW_BUILTINS = {
    "exit": _exit,
    "return": _return,
    "break": _break,
    "continue": _continue,
    "source": _source,
    ".": _source,
    "eval": _eval,
}
