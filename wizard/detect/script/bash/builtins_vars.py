"""The builtins of a launch script that set its positional arguments or variables from them and from input,
as bash runs them over the reader's state: set (its arguments), shift, getopts, read and mapfile/readarray.
"""

from __future__ import annotations

from wizard.detect.script.bash.assignment import assign
from wizard.detect.script.bash.builtins_flow import int_argument
from wizard.detect.script.bash.state import ARRAY, SCALAR, Var
from wizard.detect.script.bash.values import (
    COMMAND,
    Origin,
    Spread,
    is_known,
    known,
    unknown,
)


def _shift(reader, st, fields, node, redirects):
    n = int_argument(fields, 1)
    if st.args is None:
        return None
    if n is None or n > len(st.args):
        return 1
    st.args = st.args[n:]
    return 0


def set_arguments(reader, st, fields, node, redirects):
    """`set`: the options are skipped (they change nothing the reader follows); words after them become the arguments."""
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


VARIABLE_BUILTINS = {
    "shift": _shift,
    "read": _read_input,
    "mapfile": _read_input,
    "readarray": _read_input,
    "getopts": _getopts,
}
