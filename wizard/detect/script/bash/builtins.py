"""The builtins a launch script uses, by name (BUILTINS), and the ones that print or test, as bash runs them
over the reader's state: echo, printf, test/[, let, command/builtin, and the ones that change nothing the
reader follows (trap, wait, shopt, ...). The others: the working directory (builtins_dirs), where the
reader goes next (builtins_flow), the positional arguments and variables read from input (builtins_vars).
"""

from __future__ import annotations

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.arith import Opaque
from wizard.detect.script.bash.assignment import assign
from wizard.detect.script.bash.builtins_dirs import DIRECTORY_BUILTINS
from wizard.detect.script.bash.builtins_flow import FLOW_BUILTINS
from wizard.detect.script.bash.builtins_vars import VARIABLE_BUILTINS, set_arguments
from wizard.detect.script.bash.conditions import Test
from wizard.detect.script.bash.control import Exit
from wizard.detect.script.bash.printf import format_printf
from wizard.detect.script.bash.steps import attach_variable, record_step
from wizard.detect.script.bash.values import (
    COMMAND,
    Origin,
    Spread,
    Unknown,
    is_known,
    known,
    shown,
    text,
)

_NOOPS = frozenset(
    [
        "set",
        "shopt",
        "trap",
        "wait",
        "ulimit",
        "umask",
        "alias",
        "unalias",
        "hash",
        "true",
        ":",
        "enable",
        "disown",
        "suspend",
        "history",
        "times",
    ]
)


def _echo(reader, st, fields, node, redirects):
    args = fields[1:]
    newline = True
    while args and not isinstance(args[0], Spread) and known(args[0]) in ("-n", "-e", "-E", "-ne", "-en"):
        newline = newline and "n" not in known(args[0])
        args = args[1:]
    pieces: list = []
    for k, a in enumerate(args):
        if k:
            pieces.append(" ")
        pieces.append(a if not isinstance(a, Spread) else (Unknown(a.origins, a.shown),))
    reader.write(text(*pieces, "\n" if newline else ""))
    return 0


def _printf(reader, st, fields, node, redirects):
    args = fields[1:]
    target = None
    if args and not isinstance(args[0], Spread) and known(args[0]) == "-v" and len(args) > 1:
        target, args = known(args[1]), args[2:]
    if not args:
        return 1
    value = format_printf(args)
    if target:
        assign(st, target, attach_variable(st, target, value))
    else:
        reader.write(value)
    return 0


def _test(reader, st, fields, node, redirects):
    operands = fields[1:]
    closing = operands and not isinstance(operands[-1], Spread) and known(operands[-1]) == "]"
    if fields and known(fields[0]) == "[" and closing:
        operands = operands[:-1]
    result = Test(operands, False, reader.is_set(st)).run()
    if result.value is None:
        st.status_origins = result.origins
        return None
    return 0 if result.value else 1


def _let(reader, st, fields, node, redirects):
    status = 1
    for f in fields[1:]:
        if isinstance(f, Spread) or not is_known(f):
            return None
        value = reader.expander(st).arith(known(f))
        if isinstance(value, Opaque):
            return None
        status = 0 if value else 1
    return status


def _command_builtin(reader, st, fields, node, redirects):
    args = fields[1:]
    while args and not isinstance(args[0], Spread) and known(args[0]) in ("-p", "--"):
        args = args[1:]
    if args and not isinstance(args[0], Spread) and known(args[0]) in ("-v", "-V"):
        st.status_origins = frozenset(
            {
                Origin(
                    COMMAND,
                    "command -v " + (shown(args[1]) if len(args) > 1 and not isinstance(args[1], Spread) else ""),
                )
            }
        )
        reader.unknown_output("command -v")
        return None
    if not args:
        return 0
    name = known(args[0]) if not isinstance(args[0], Spread) else None
    if name == "exec":  # `command exec CMD` is `exec CMD`: CMD runs in the script's place, and the script ends
        args = args[1:]
        if not args:
            return 0
        record_step(reader, st, args, [tree.line(node)] * len(args), [""] * len(args), {}, node)
        reader.unknown_output(reader.text_of(node))
        raise Exit(None)
    handler = BUILTINS.get(name) if name is not None else None
    if handler is not None:
        return handler(reader, st, args, node, redirects)
    record_step(reader, st, args, [tree.line(node)] * len(args), [""] * len(args), {}, node)
    reader.unknown_output(reader.text_of(node))
    return None


def _noop(reader, st, fields, node, redirects):
    if fields and known(fields[0]) == "set":
        return set_arguments(reader, st, fields, node, redirects)
    return 0


def _false(reader, st, fields, node, redirects):
    return 1


BUILTINS = {
    **{name: _noop for name in _NOOPS},
    "false": _false,
    "echo": _echo,
    "printf": _printf,
    **DIRECTORY_BUILTINS,
    **FLOW_BUILTINS,
    "test": _test,
    "[": _test,
    "let": _let,
    **VARIABLE_BUILTINS,
    "command": _command_builtin,
    "builtin": _command_builtin,
    "exec": None,
}
