"""Simple commands: assignments, declarations, function calls, and the external commands a script starts.

An external command is not run: it is recorded as a Step (its fields, prefix assignments and the
exported environment) and its exit status is unknown. A few commands whose output is a pure function
of their arguments (`dirname`, `basename`, `realpath`, `readlink -f`, `seq`) are computed, because
scripts use them to find their own folder. The builtins are in builtins.py.
"""

from __future__ import annotations

import os
import posixpath
import re

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.arith import Opaque
from wizard.detect.script.bash.assignment import assign
from wizard.detect.script.bash.builtins import BUILTINS
from wizard.detect.script.bash.control import Exit
from wizard.detect.script.bash.expand import MAX_FIELDS
from wizard.detect.script.bash.state import ARRAY, ASSOC, SCALAR, UNSET, Var
from wizard.detect.script.bash.steps import attach_variable, record_step
from wizard.detect.script.bash.values import (
    COMMAND,
    Origin,
    Spread,
    is_known,
    known,
    limited,
    origins_of,
    shown,
    unknown,
)

_PURE = frozenset({"dirname", "basename", "realpath", "readlink", "seq"})


def _name_of(reader, node) -> tuple[str, str | None]:
    target = node.children[0]
    raw = reader.text_of(target)
    if target.type == "subscript":
        name, _, rest = raw.partition("[")
        return name, rest[:-1]
    return raw, None


def _value_node(node):
    seen_op = False
    for c in node.children:
        if seen_op:
            return c
        if c.type in ("=", "+="):
            seen_op = True
    return None


def assign_node(reader, node, st, attrs: str = "", end: int | None = None) -> str:
    """Assign one `NAME=value` node; `end`: where its value really ends, when tree-sitter split it (tree.touching)."""
    name, sub = _name_of(reader, node)
    append = any(c.type == "+=" for c in node.children)
    value_node = _value_node(node)
    x = reader.expander(st)
    if (value_node is not None and value_node.type == "array") or "a" in attrs or "A" in attrs:
        if value_node is None or value_node.type != "array":
            if value_node is None:
                var = st.get(name)
                if var is None or var.kind != ("assoc" if "A" in attrs else ARRAY):
                    st.set(name, Var(ASSOC if "A" in attrs else ARRAY))
                return name
        else:
            _assign_array(reader, value_node, st, name, append, "A" in attrs)
            return name
    stop = node.end_byte if end is None else end
    raw = reader.src[value_node.start_byte : stop].decode("utf-8", "replace") if value_node is not None else ""
    value = attach_variable(st, name, x.one(raw, assignment=True))
    old = st.get(name)
    integer = "i" in attrs or (old is not None and old.integer)
    if integer and is_known(value) and sub is None:
        expression = known(value) or "0"
        if append and old is not None and old.kind == SCALAR and is_known(old.value):
            expression = f"({known(old.value) or 0}) + ({expression})"
        value, append = x.arith_text(expression), False
    if sub is not None:
        var = st.get(name)
        if var is not None and var.kind == ASSOC:
            key = x.one(sub)
            if is_known(key):
                var.items[known(key)] = value
            else:
                var.spread = Spread(origins_of(key), f"${{{name}[@]}}")
            return name

        index = x.arith(sub)
        if isinstance(index, Opaque):
            st.set(name, Var(ARRAY, spread=Spread(index.origins, f"${{{name}[@]}}")))
            return name
        assign(st, name, value, index, append)
        return name
    assign(st, name, value, None, append)
    if integer:
        st.get(name).integer = True
    return name


def _assign_array(reader, array_node, st, name: str, append: bool, assoc: bool) -> None:
    x = reader.expander(st)
    old = st.get(name)
    kind = ASSOC if assoc or (old is not None and old.kind == ASSOC) else ARRAY
    var = old.copy() if append and old is not None and old.kind in (ARRAY, ASSOC) else Var(kind)
    var.kind = kind
    if old is not None:
        var.exported = old.exported
    lines = dict(old.lines) if append and old is not None else {}
    next_index = (max(var.items) + 1) if var.kind == ARRAY and var.items else 0
    for group in tree.touching(c for c in array_node.children if c.is_named and c.type != "comment"):
        element = group[0]
        raw = reader.text_of_group(group)
        keyed = re.match(r"\[([^\]]*)\](\+?)=", raw)
        if keyed:
            key_text, value = keyed.group(1), x.one(raw[keyed.end() :], assignment=True)
            if kind == ASSOC:
                key = x.one(key_text)
                if is_known(key):
                    var.items[known(key)] = value
                continue
            index = x.arith(key_text)
            if isinstance(index, int):
                var.items[index] = value
                lines[index] = tree.line(element)
                next_index = index + 1
            continue
        for item in x.fields(raw):
            if isinstance(item, Spread):
                var.spread = item
                continue
            if kind == ASSOC:
                continue
            var.items[next_index] = item
            lines[next_index] = tree.line(element)
            next_index += 1
    if len(var.items) > MAX_FIELDS:
        var = Var(kind, spread=Spread(origins_of(limited(f"${{{name}[@]}}", "array")), f"${{{name}[@]}}"))
    var.lines = lines
    st.set(name, var)


def declaration(reader, node, st) -> int:
    keyword = node.children[0].type
    attrs = ""
    x = reader.expander(st)
    for child in node.children[1:]:
        raw = reader.text_of(child)
        if child.type == "word" and raw.startswith(("-", "+")):
            attrs += raw[1:] if raw.startswith("-") else ""
            continue
        if child.type == "variable_assignment":
            if keyword == "local" or (keyword in ("declare", "typeset") and st.frames and "g" not in attrs):
                st.declare_local(_name_of(reader, child)[0])
            name: str | None = assign_node(reader, child, st, attrs)
        else:
            fields = [f for f in x.fields(raw) if not isinstance(f, Spread)]
            name = known(fields[0]) if fields and is_known(fields[0]) else None
            if not name or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                if name and "=" in name:
                    var_name, _, value = name.partition("=")
                    assign(st, var_name, (value,))
                    name = var_name
                else:
                    continue
            if keyword == "local" or (keyword in ("declare", "typeset") and st.frames and "g" not in attrs):
                st.declare_local(name)
                st.vars.pop(name, None) if keyword == "local" else None
                if keyword == "local":
                    st.set(name, Var(UNSET))
            if ("a" in attrs or "A" in attrs) and (st.get(name) is None or st.get(name).kind in (SCALAR, UNSET)):
                st.set(name, Var(ASSOC if "A" in attrs else ARRAY))
        var = st.get(name)
        if var is not None:
            if keyword == "export" or "x" in attrs:
                var.exported = True
            if keyword == "readonly" or "r" in attrs:
                var.readonly = True
        elif keyword == "export" or "x" in attrs:
            pass  # exporting a variable the script never set: the environment's, passed on as it is
    return 0


def unset(reader, node, st) -> int:
    functions = False
    x = reader.expander(st)
    for child in node.children[1:]:
        raw = reader.text_of(child)
        if raw == "-f":
            functions = True
            continue
        if raw.startswith("-"):
            continue
        for f in x.fields(raw):
            name = known(f) if not isinstance(f, Spread) else None
            if not name:
                continue
            if functions:
                st.functions.pop(name, None)
                continue
            base, _, sub = name.partition("[")
            var = st.get(base)
            if sub and var is not None and var.kind in (ARRAY, ASSOC):
                key = sub[:-1]
                var.items.pop(int(key) if var.kind == ARRAY and key.lstrip("-").isdigit() else key, None)
                continue
            if st.frames and base not in st.frames[-1] and var is not None:
                pass
            st.set(base, Var(UNSET, exported=False))
    return 0


def run_command(reader, node, st, redirects=()) -> int | None:
    prefix_nodes = [c for c in node.children if c.type == "variable_assignment"]
    name_node = next((c for c in node.children if c.type == "command_name"), None)
    words = []
    if name_node is not None:
        words = [name_node] + [
            c for c in node.children[node.children.index(name_node) + 1 :] if c.is_named and c.type not in _NOT_ARGS
        ]
    groups = tree.touching([*prefix_nodes[-1:], *words])
    assignment_ends = {}
    if prefix_nodes and len(groups[0]) > 1:
        # `X=$A/$B/c`: what tree-sitter made the command name is the rest of the assignment's value
        assignment_ends[prefix_nodes[-1].id] = groups[0][-1].end_byte
    groups = groups[1:] if prefix_nodes else groups
    if not groups:
        for c in prefix_nodes:
            assign_node(reader, c, st, end=assignment_ends.get(c.id))
        return 0
    x = reader.expander(st)
    fields, lines, raws = [], [], []
    for group in groups:
        raw = reader.text_of_group(group)
        element_lines = _array_lines(raw, st)
        got = x.fields(raw)
        for k, f in enumerate(got):
            fields.append(f)
            lines.append(element_lines[k] if element_lines and k < len(element_lines) else tree.line(group[0]))
            raws.append(raw)
    if not fields:
        for c in prefix_nodes:
            assign_node(reader, c, st)
        return st.status
    head = fields[0]
    name = known(head) if not isinstance(head, Spread) else None
    if name is not None and name in st.functions and not prefix_nodes:
        return reader.call(name, fields[1:], st, tree.line(node))
    if name is not None and name in builtin_table() and name not in ("exec",):
        saved = {}
        for c in prefix_nodes:
            n = _name_of(reader, c)[0]
            saved[n] = st.vars.get(n)
            assign_node(reader, c, st, end=assignment_ends.get(c.id))
        try:
            return builtin_table()[name](reader, st, fields, node, redirects)
        finally:
            for n, old in saved.items():
                if old is None:
                    st.vars.pop(n, None)
                else:
                    st.vars[n] = old
    assigns = {}
    for c in prefix_nodes:
        n, _ = _name_of(reader, c)
        value_node = _value_node(c)
        stop = assignment_ends.get(c.id, c.end_byte)
        raw = reader.src[value_node.start_byte : stop].decode() if value_node is not None else ""
        assigns[n] = x.one(raw, assignment=True)
    if name == "exec":
        fields, lines, raws = fields[1:], lines[1:], raws[1:]
        if not fields:
            return 0
    record_step(reader, st, fields, lines, raws, assigns, node)
    name = known(fields[0]) if not isinstance(fields[0], Spread) else None
    if name is not None and posixpath.basename(name) in _PURE:
        return _pure(reader, st, posixpath.basename(name), fields[1:])
    if name is not None and name in st.functions:
        return reader.call(name, fields[1:], st, tree.line(node))
    reader.unknown_output(reader.text_of(node))
    st.status_origins = frozenset({Origin(COMMAND, _command_words(fields))})
    if known(head) == "exec" if not isinstance(head, Spread) else False:
        raise Exit(None)
    return None


def _array_lines(raw: str, st) -> list | None:
    m = re.fullmatch(r'"?\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?', raw)
    if not m:
        return None
    var = st.get(m.group(1))
    lines = var.lines if var is not None else None
    return [lines.get(k) for k in sorted(var.items)] if lines else None


def _command_words(fields) -> str:
    words = [shown(f) if not isinstance(f, Spread) else f.shown for f in fields[:4]]
    return " ".join(words)[:80]


def _pure(reader, st, name, args) -> int | None:
    if any(isinstance(a, Spread) or not is_known(a) for a in args):
        origins = frozenset().union(*(origins_of(a) for a in args))
        reader.write(unknown(origins, f"$({name} ...)"))
        return 0
    words = [known(a) for a in args]
    options = [w for w in words if w.startswith("-") and len(w) > 1]
    operands = [w for w in words if not (w.startswith("-") and len(w) > 1)]
    out = None
    if name == "dirname" and operands:
        out = "\n".join(posixpath.dirname(p.rstrip("/")) or ("/" if p.startswith("/") else ".") for p in operands)
    elif name == "basename" and operands:
        base = posixpath.basename(operands[0].rstrip("/")) or "/"
        if len(operands) > 1 and base.endswith(operands[1]) and base != operands[1]:
            base = base[: -len(operands[1])]
        out = base
    elif name in ("realpath", "readlink") and operands and (name == "realpath" or options):
        cwd = known(st.cwd) if is_known(st.cwd) else None
        path = operands[0] if operands[0].startswith("/") or cwd is None else posixpath.join(cwd, operands[0])
        if not path.startswith("/"):
            reader.write(unknown({Origin(COMMAND, f"{name} {operands[0]}")}, f"$({name} {operands[0]})"))
            return 0
        out = os.path.realpath(path) if os.path.exists(path) else posixpath.normpath(path)
    elif name == "seq" and 1 <= len(operands) <= 3 and all(re.fullmatch(r"-?\d+", w) for w in operands):
        nums = [int(w) for w in operands]
        first, step, last = (1, 1, nums[0]) if len(nums) == 1 else (nums[0], 1, nums[1]) if len(nums) == 2 else nums
        if step and abs((last - first) // step) < 10000:
            out = "\n".join(str(v) for v in range(first, last + (1 if step > 0 else -1), step))
    if out is None:
        reader.write(unknown({Origin(COMMAND, name)}, f"$({name} ...)"))
        return None
    reader.write((out + "\n",))
    return 0


_NOT_ARGS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "comment"})


def builtin_table() -> dict:
    return BUILTINS
