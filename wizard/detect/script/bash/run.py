"""Walk a bash script's statements the way bash would run them, over a State, without running anything.

`Reader.run(text)` follows assignments, arrays, functions, `if`/`case`/loops (a condition it cannot
decide runs every branch and merges them), subshells, pipelines and `&&`/`||` lists, `source` of files
beside the script, and records each external command as a `Step` in the shared trace. Builtins live in
builtins.py; the words are expanded by expand.py.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from wizard.detect.script.bash import recover, tree
from wizard.detect.script.bash.arith import Opaque
from wizard.detect.script.bash.commands import assign_node, declaration, run_command, unset
from wizard.detect.script.bash.control import (
    HARD_STATEMENTS,
    MAX_STATEMENTS,
    Break,
    Control,
    Exit,
    Return,
    TooComplex,
)
from wizard.detect.script.bash.expand import Expander
from wizard.detect.script.bash.state import ARRAY, ASSOC, SCALAR, Shared, State, Var
from wizard.detect.script.bash.steps import Step
from wizard.detect.script.bash.values import (
    COMMAND,
    Origin,
    Spread,
    Text,
    is_known,
    limited,
    origins_of,
    strip_trailing_newlines,
    text,
    unknown,
)

MAX_CALL_DEPTH = 64


class Reader(Control):
    """One reading of a script: `read_file(path) -> str | None` reads a sourced file beside it."""

    def __init__(self, shared: Shared, read_file: Callable[[str], str | None]) -> None:
        self.shared, self.read_file = shared, read_file
        self.out: list[list] = []  # output buffers of the command substitutions being read
        self.file = shared.script_path
        self.src = b""
        self.running = None  # the statement being read: where a command substitution's text sits in the script

    # --- entry points -----------------------------------------------------------------------------

    def run(self, source: str, state: State) -> None:
        with contextlib.suppress(Exit, TooComplex):  # TooComplex here: past HARD_STATEMENTS, the reading stops
            self.program(source, state)

    def program(self, source: str, state: State, file: str | None = None) -> None:
        saved = (self.src, self.file)
        self.src, self.file = source.encode("utf-8"), file or self.file
        try:
            root = tree.parse(self.src)
            self.block(root, state)
        finally:
            self.src, self.file = saved

    def text_of(self, node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def text_of_group(self, nodes: list) -> str:
        """The text of one word that tree-sitter gave as several touching nodes (tree.touching)."""
        return self.src[nodes[0].start_byte : nodes[-1].end_byte].decode("utf-8", "replace")

    def expander(self, st: State) -> Expander:
        return Expander(st, lambda inner: self.capture(inner, st))

    # --- statements -------------------------------------------------------------------------------

    def block(self, node, st: State) -> None:
        top = node.type == "program"
        for child in tree.statements(node):
            if top and child.has_error:
                self.recover(child, st)
            else:
                self.statement(child, st)

    def recover(self, node, st: State) -> None:
        """A top-level statement tree-sitter could not parse: read the runs of its lines that parse alone (when
        none does, the statement as the grammar recovered it)."""
        found = recover.pieces(self.src, node, self.shared.recovery)
        if all(piece.source is None for piece in found):
            self.statement(node, st)  # nothing parses on its own: read what the grammar made of it
            return
        saved = self.src
        for piece in found:
            if piece.source is None:
                self.shared.notes.append(("skipped", piece.first, str(piece.last)))
                continue
            root = tree.parse(piece.source)
            self.src = piece.source
            try:
                if piece.maybe:
                    because = frozenset(origins_of(limited(f"line {piece.first}", "parse")))
                    self.maybe(st, because, lambda branch, root=root: self.block(root, branch))
                else:
                    self.block(root, st)
            finally:
                self.src = saved

    def statement(self, node, st: State) -> int | None:
        self.shared.statements += 1
        if self.shared.statements > MAX_STATEMENTS and not self.shared.exhausted:
            self.shared.exhausted = True
            self.shared.notes.append(("exhausted", tree.line(node), str(MAX_STATEMENTS)))
            raise TooComplex
        if self.shared.statements > HARD_STATEMENTS:
            raise TooComplex
        kind = node.type
        handler = getattr(self, "s_" + kind, None)
        if handler is None:
            return st.status
        outer, self.running = self.running, node
        try:
            status = handler(node, st)
        finally:
            self.running = outer
        st.status = status
        if status is not None:
            st.status_origins = frozenset()
        return status

    def s_program(self, node, st):
        self.block(node, st)
        return st.status

    def s_compound_statement(self, node, st):
        if node.children and node.children[0].type == "((":
            return self.arith_statement(node, st)
        self.block(node, st)
        return st.status

    s_do_group = s_compound_statement

    def arith_statement(self, node, st):
        inner = self.text_of(node)[2:-2]

        value = self.expander(st).arith(inner)
        if isinstance(value, Opaque):
            st.status_origins = value.origins
            return None
        return 0 if value else 1

    def s_subshell(self, node, st):
        sub = st.fork()
        sub.certain = st.certain
        with contextlib.suppress(Exit, Return):
            self.block(node, sub)
        return sub.status

    def s_negated_command(self, node, st):
        body = tree.statements(node)
        status = self.statement(body[0], st) if body else 0
        return None if status is None else int(status == 0)

    def s_variable_assignment(self, node, st):
        self.assignment(node, st)
        return 0

    def s_variable_assignments(self, node, st):
        for child in node.children:
            if child.type == "variable_assignment":
                self.assignment(child, st)
        return 0

    def s_declaration_command(self, node, st):
        return declaration(self, node, st)

    def s_unset_command(self, node, st):
        return unset(self, node, st)

    def s_function_definition(self, node, st):
        name = next((c for c in node.children if c.type == "word"), None)
        body = node.children[-1] if node.children else None
        if name is not None and body is not None:
            st.functions[self.text_of(name)] = (body, self.src, self.file)
        return 0

    def s_test_command(self, node, st):
        result = self.test(node, st)
        if result.value is None:
            st.status_origins = result.origins
            return None
        return 0 if result.value else 1

    def s_command(self, node, st):
        return self.command(node, st)

    def s_redirected_statement(self, node, st):
        body = next((c for c in node.children if c.is_named and c.type not in _REDIRECTS), None)
        redirects = [c for c in node.children if c.type in _REDIRECTS]
        status = st.status
        if body is not None:
            status = self.command(body, st, redirects) if body.type == "command" else self.statement(body, st)
        # tree-sitter hangs `cmd <<EOF || other` on the here-document: what follows it is a list
        for redirect in redirects:
            rest = [
                c for c in redirect.children if c.type in ("&&", "||", "|") or (c.is_named and c.type in _STATEMENTS)
            ]
            status = self.list_tail(rest, status, st)
        return status

    def s_list(self, node, st):
        children = [c for c in node.children if c.type != "comment"]
        status = self.statement(children[0], st)
        return self.list_tail(children[1:], status, st)

    def list_tail(self, items, status, st):
        k = 0
        while k + 1 < len(items):
            op, right = items[k].type, items[k + 1]
            k += 2
            if op == "|":
                status = self.in_subshell(right, st)
                continue
            runs = status == 0 if op == "&&" else (status is not None and status != 0)
            if status is None:
                because = st.status_origins
                status = self.maybe(st, because, lambda branch, right=right: self.statement(right, branch))
            elif runs:
                status = self.statement(right, st)
        return status

    def s_pipeline(self, node, st):
        parts = [c for c in node.children if c.is_named and c.type != "comment"]
        status = st.status
        for k, part in enumerate(parts):
            if len(parts) == 1:
                return self.statement(part, st)
            if k < len(parts) - 1 and self.out:
                self.out.append([])  # what feeds the next command of the pipe is not output
                try:
                    status = self.in_subshell(part, st)
                finally:
                    self.out.pop()
            else:
                status = self.in_subshell(part, st)
        return status

    def in_subshell(self, node, st):
        sub = st.fork()
        sub.certain = st.certain
        try:
            return self.statement(node, sub)
        except (Exit, Return, Break):
            return sub.status

    # --- simple commands -----------------------------------------------------------------------------

    def assignment(self, node, st) -> str | None:
        """Run one NAME=value / NAME+=value / NAME[i]=value / NAME=(...) node; return the name."""
        return assign_node(self, node, st)

    def command(self, node, st, redirects=()):
        return run_command(self, node, st, redirects)

    def call(self, name: str, args: list, st: State, line: int) -> int | None:
        body, src, file = st.functions[name]
        if st.depth >= MAX_CALL_DEPTH or (self.shared.exhausted and st.depth):
            return None
        return self.bounded(st, name, lambda: self.run_call(body, src, file, args, st))

    def run_call(self, body, src, file, args: list, st: State) -> int | None:
        saved_args, saved_src, saved_file = st.args, self.src, self.file
        st.args = None if any(isinstance(a, Spread) for a in args) else list(args)
        st.frames.append({})
        st.depth += 1
        self.src, self.file = src, file
        status: int | None = 0
        try:
            status = self.statement(body, st)
        except Return as r:
            status = r.status
        finally:
            self.src, self.file = saved_src, saved_file
            st.depth -= 1
            for var_name, old in st.frames.pop().items():
                if old is None:
                    st.vars.pop(var_name, None)
                else:
                    st.vars[var_name] = old
            st.args = saved_args
        return status

    def capture(self, inner: str, st: State) -> Text:
        """The output of `$(inner)`: pieces from echo/printf/pwd and pure commands, unknown for the rest."""
        sub = st.fork()
        sub.certain = st.certain
        self.out.append([])
        try:
            self.program("\n" * self.lines_before(inner) + inner, sub)
        except (Exit, Return, Break):
            pass
        finally:
            output = self.out.pop()
        st.status = sub.status
        value = strip_trailing_newlines(text(*output))
        if is_known(value):
            return value
        # a command's output: named by the whole substitution, as the script writes it
        shown = " ".join(inner.split())[:80]
        origins = {Origin(COMMAND, shown)} if _only_commands(value) else origins_of(value)
        return unknown(origins, f"$({shown})")

    def lines_before(self, inner: str) -> int:
        """The lines of the script above where `inner` (a command substitution's text) starts, so that the commands
        read inside it keep their line in the script; 0 when it is not found in the statement being read."""
        node = self.running
        if node is None:
            return 0
        where = self.src.find(inner.encode("utf-8"), node.start_byte, node.end_byte)
        return self.src.count(b"\n", 0, where) if where >= 0 else 0

    def write(self, value: Text) -> None:
        if self.out:
            self.out[-1].append(value)

    def unknown_output(self, command: str) -> None:
        if self.out:
            shown = " ".join(command.split())
            self.out[-1].append(unknown({Origin(COMMAND, shown[:80])}, f"$({shown[:80]})"))


def _only_commands(value) -> bool:
    """True when every unknown part of a command's output comes from commands (not from a variable)."""
    return all(o.kind == COMMAND for o in origins_of(value))


_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
_STATEMENTS = frozenset(
    {
        "command",
        "list",
        "pipeline",
        "redirected_statement",
        "subshell",
        "compound_statement",
        "negated_command",
        "test_command",
        "if_statement",
        "variable_assignment",
    }
)
__all__ = ["ARRAY", "ASSOC", "SCALAR", "Reader", "Step", "TooComplex", "Var"]
