"""Set up one reading of a launch script: its environment, arguments, folder, and the text bash sees.

`follow` returns the external commands the script would start (bash reader Steps), the reader's
notes (sourced files that were missing) and the files it sourced. `prepare` gives the text the parser
reads: a line whose continuation backslash is followed by blanks (or a Windows line ending) ends the
command there, as in bash, and the stray text after it is dropped (launch_problems reports it).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping

from wizard.detect.script.bash.state import SCALAR, Shared, State, Var
from wizard.detect.script.bash.values import ENV, Origin, unknown

CUT_TAIL = re.compile(r"(?<!\\)\\([ \t\r]+)(#.*)?$")


def prepare(text: str) -> str:
    lines = text.split("\n")
    for k, line in enumerate(lines):
        m = CUT_TAIL.search(line)
        if m:
            lines[k] = line[: m.start()]
        elif line.endswith("\r"):
            lines[k] = line[:-1]
    return "\n".join(lines)


def script_path(source: str) -> str:
    return os.path.abspath(source) if os.path.isfile(source) else source


def follow(
    text: str,
    source: str,
    env: Mapping[str, str],
    args: list[str] | None,
    read_file: Callable[[str], str | None],
    with_history: bool = False,
):
    """(steps, notes, sourced files) of one reading of the script; with_history adds the known values each
    variable was given, in order."""
    path = script_path(source)
    shared = Shared(path, pinned={name: (value,) for name, value in env.items()})
    state = State(shared)
    for name, value in env.items():
        state.vars[name] = Var(SCALAR, (value,) if value else (), exported=True)
    state.cwd = (env["PWD"],) if env.get("PWD") else unknown({Origin(ENV, "PWD")}, "$PWD")
    state.args = None if args is None else [(a,) if a else () for a in args]
    # deferred: the reader's statements, commands and builtins (about 15 modules) load when a script is read, not
    # with every command that only names this module (`check config.yaml`, `verl-wizard --help`)
    from wizard.detect.script.bash.run import Reader

    reader = Reader(shared, lambda p: _read_sourced(p, read_file))
    reader.run(prepare(text), state)
    if with_history:
        return shared.trace, shared.notes, shared.sourced, shared.history
    return shared.trace, shared.notes, shared.sourced


def _read_sourced(path: str, read_file) -> str | None:
    body = read_file(path)
    if body is None:
        return None
    return prepare(body)
