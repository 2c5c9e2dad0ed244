"""The builtins a launch script uses, as bash runs them over the reader's state: echo, printf, cd, pwd,
pushd/popd, exit, return, break, continue, shift, set, source/., eval, test/[, let, read/mapfile, getopts,
command, and the ones that change nothing the reader follows (trap, wait, shopt, ...).
"""

from __future__ import annotations

import posixpath

from wizard.detect.bash import tree
from wizard.detect.bash.commands import attach_variable, record_step
from wizard.detect.bash.control import Break, Continue, Exit, Return
from wizard.detect.bash.expand import assign
from wizard.detect.bash.state import ARRAY, SCALAR, Var
from wizard.detect.bash.values import (
    COMMAND,
    Origin,
    Spread,
    Unknown,
    is_known,
    known,
    origins_of,
    shown,
    text,
    unknown,
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
    from wizard.detect.bash.printf import format_printf

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


def _cd(reader, st, fields, node, redirects):
    args = [f for f in fields[1:] if isinstance(f, Spread) or known(f) not in ("-P", "-L", "--")]
    if not args:
        var = st.get("HOME")
        target = var.value if var is not None and var.kind == SCALAR else unknown({Origin("env", "HOME")}, "$HOME")
    elif isinstance(args[0], Spread):
        target = (Unknown(args[0].origins, args[0].shown),)
    else:
        target = args[0]
    if not is_known(target):
        st.cwd = unknown(origins_of(target), "$PWD")
        return None
    path = known(target)
    if path == "-":
        st.cwd = unknown({Origin("env", "OLDPWD")}, "$OLDPWD")
        return 0
    if path.startswith("/"):
        st.cwd = (posixpath.normpath(path),)
    elif is_known(st.cwd):
        st.cwd = (posixpath.normpath(posixpath.join(known(st.cwd), path)),)
    else:
        st.cwd = unknown(origins_of(st.cwd), "$PWD")
    return 0


def _pwd(reader, st, fields, node, redirects):
    reader.write(text(st.cwd, "\n"))
    return 0


def _exit(reader, st, fields, node, redirects):
    status = _int_arg(fields, 0)
    if status and st.certain and not reader.out:
        # A guard of the script that stops it with these values: say so, and read on as if it went on,
        # so that the rules can say what is wrong with what comes after.
        reader.shared.notes.append(("exit", tree.line(node), str(status)))
        return status
    raise Exit(status)


def _return(reader, st, fields, node, redirects):
    raise Return(_int_arg(fields, st.status))


def _break(reader, st, fields, node, redirects):
    raise Break(_int_arg(fields, 1) or 1)


def _continue(reader, st, fields, node, redirects):
    raise Continue(_int_arg(fields, 1) or 1)


def _int_arg(fields, default):
    if len(fields) > 1 and not isinstance(fields[1], Spread) and is_known(fields[1]):
        try:
            return int(known(fields[1]))
        except ValueError:
            return 2
    return default if len(fields) <= 1 else None


def _shift(reader, st, fields, node, redirects):
    n = _int_arg(fields, 1)
    if st.args is None:
        return None
    if n is None or n > len(st.args):
        return 1
    st.args = st.args[n:]
    return 0


def _set(reader, st, fields, node, redirects):
    args, k = fields[1:], 0
    while k < len(args):
        word = known(args[k]) if not isinstance(args[k], Spread) else None
        if word == "--":
            k += 1
            break
        if word is None or not word.startswith(("-", "+")) or word in ("-", "+"):
            break
        k += 2 if "o" in word[1:] else 1  # -o NAME, -euo NAME: the next word names an option
    else:
        return 0
    rest = args[k:]
    if rest or (k > 0 and known(args[k - 1]) == "--"):
        st.args = None if any(isinstance(r, Spread) for r in rest) else list(rest)
    return 0


def _source(reader, st, fields, node, redirects):
    from wizard.detect.bash.run import MAX_SOURCE_DEPTH

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


def _test(reader, st, fields, node, redirects):
    from wizard.detect.bash.conditions import Test

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
    from wizard.detect.bash.arith import Opaque

    status = 1
    for f in fields[1:]:
        if isinstance(f, Spread) or not is_known(f):
            return None
        value = reader.expander(st).arith(known(f))
        if isinstance(value, Opaque):
            return None
        status = 0 if value else 1
    return status


def _read_input(reader, st, fields, node, redirects):
    names = [known(f) for f in fields[1:] if not isinstance(f, Spread) and is_known(f)]
    array_next = False
    source = " ".join(reader.text_of(r) for r in redirects) or reader.text_of(node)
    origin = frozenset({Origin(COMMAND, " ".join(source.split())[:80])})
    is_mapfile = known(fields[0]) in ("mapfile", "readarray")
    targets = []
    skip_next = False
    for n in names:
        if skip_next:
            skip_next = False
            continue
        if n in ("-d", "-n", "-N", "-p", "-t", "-u", "-C", "-c", "-O", "-s", "-i") and n not in ("-t",):
            skip_next = n not in ("-s",)
            continue
        if n == "-a":
            array_next = True
            continue
        if n.startswith("-"):
            continue
        targets.append((n, array_next or is_mapfile))
        array_next = False
    if is_mapfile and not targets:
        targets = [("MAPFILE", True)]
    for n, is_array in targets:
        if n in st.shared.pinned:  # --env NAME=VALUE stands in for what the command would read
            pinned = st.shared.pinned[n]
            st.set(n, Var(ARRAY, items={0: pinned}) if is_array else Var(SCALAR, pinned))
            continue
        if is_array:
            st.set(n, Var(ARRAY, spread=Spread(_via(origin, n), f"${{{n}[@]}}")))
        else:
            st.set(n, Var(SCALAR, unknown(_via(origin, n), f"${n}")))
    st.status_origins = origin
    return None


def _via(origins, name):
    return frozenset(Origin(o.kind, o.name, name) for o in origins)


def _getopts(reader, st, fields, node, redirects):
    if len(fields) < 3 or any(isinstance(f, Spread) or not is_known(f) for f in fields[1:3]):
        return None
    spec, name = known(fields[1]), known(fields[2])
    if st.args is None:
        st.set(name, Var(SCALAR, unknown({Origin("args", "@")}, f"${name}")))
        st.set("OPTARG", Var(SCALAR, unknown({Origin("args", "@")}, "$OPTARG")))
        st.status_origins = frozenset({Origin("args", "@")})
        return None
    index_var = st.get("OPTIND")
    index = (
        int(known(index_var.value))
        if index_var is not None and is_known(index_var.value) and known(index_var.value).isdigit()
        else 1
    )
    args = st.args
    if index > len(args) or not is_known(args[index - 1]):
        return 1
    word = known(args[index - 1])
    if not word.startswith("-") or word in ("-", "--"):
        return 1
    letter = word[1:2]
    pos = spec.find(letter)
    if pos < 0:
        assign(st, name, ("?",))
        assign(st, "OPTIND", (str(index + 1),))
        return 0
    assign(st, name, (letter,))
    if pos + 1 < len(spec) and spec[pos + 1] == ":":
        if len(word) > 2:
            assign(st, "OPTARG", (word[2:],))
            index += 1
        elif index < len(args):
            assign(st, "OPTARG", args[index])
            index += 2
        else:
            index += 1
    else:
        index += 1
    assign(st, "OPTIND", (str(index),))
    return 0


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
    if name in BUILTINS:
        return BUILTINS[name](reader, st, args, node, redirects)
    record_step(reader, st, args, [tree.line(node)] * len(args), [""] * len(args), {}, node)
    reader.unknown_output(reader.text_of(node))
    return None


def _noop(reader, st, fields, node, redirects):
    if fields and known(fields[0]) == "set":
        return _set(reader, st, fields, node, redirects)
    return 0


def _false(reader, st, fields, node, redirects):
    return 1


def _pushd(reader, st, fields, node, redirects):
    st.dir_stack = [*st.dir_stack, st.cwd]
    return _cd(reader, st, fields, node, redirects)


def _popd(reader, st, fields, node, redirects):
    if st.dir_stack:
        st.cwd, st.dir_stack = st.dir_stack[-1], st.dir_stack[:-1]
    return 0


BUILTINS = {
    **{name: _noop for name in _NOOPS},
    "false": _false,
    "echo": _echo,
    "printf": _printf,
    "cd": _cd,
    "pwd": _pwd,
    "pushd": _pushd,
    "popd": _popd,
    "exit": _exit,
    "return": _return,
    "break": _break,
    "continue": _continue,
    "shift": _shift,
    "source": _source,
    ".": _source,
    "eval": _eval,
    "test": _test,
    "[": _test,
    "let": _let,
    "read": _read_input,
    "mapfile": _read_input,
    "readarray": _read_input,
    "getopts": _getopts,
    "command": _command_builtin,
    "builtin": _command_builtin,
    "exec": None,
}
