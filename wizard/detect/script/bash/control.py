"""Conditionals and loops of the bash reader: if/elif/else, case, for, C-style for, while/until.

A condition the reader cannot decide runs every branch that may run, each on a fork of the state, and
merges the forks (state.merge); a branch that exits is dropped. A loop whose condition is unknown runs its
body once on a fork and merges it with not running it. `Reader` (run.py) takes these methods in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.arith import Opaque
from wizard.detect.script.bash.assignment import assign
from wizard.detect.script.bash.conditions import Test, Tri
from wizard.detect.script.bash.patterns import escape_ere, matches
from wizard.detect.script.bash.scan import past_quoted, split_raw
from wizard.detect.script.bash.state import merge
from wizard.detect.script.bash.values import ENV, Origin, Spread, Text, is_known, known, limited, origins_of, unknown

if TYPE_CHECKING:
    from wizard.detect.script.bash.expand import Expander
    from wizard.detect.script.bash.state import Shared, State

MAX_ITERATIONS = 2000
MAX_STATEMENTS = 20_000  # statements one reading runs before loops and calls stop (about half a CPU second)
HARD_STATEMENTS = 4 * MAX_STATEMENTS  # then the reading stops where it is
MAX_SOURCE_DEPTH = 8


class Exit(Exception):
    def __init__(self, status: int | None = 0) -> None:
        self.status = status


class Return(Exception):
    def __init__(self, status: int | None) -> None:
        self.status = status


class Break(Exception):
    def __init__(self, n: int = 1) -> None:
        self.n = n


class Continue(Break):
    pass


class TooComplex(Exception):
    """The reading ran out of statements (an endless loop, deep recursion): see Control.bounded."""


_TEST_OPS = frozenset({"&&", "||", "!", "(", ")"})


class Control:
    """The compound statements; mixed into Reader, which gives statement(), block(), expander(), text_of(), text_of_group()."""

    if TYPE_CHECKING:  # what Reader (run.py) gives; mypy holds Reader's own definitions to these
        src: bytes
        shared: Shared

        def statement(self, node, st: State) -> int | None: ...

        def block(self, node, st: State) -> None: ...

        def expander(self, st: State) -> Expander: ...

        def text_of(self, node) -> str: ...

        def text_of_group(self, nodes: list) -> str: ...

    def condition(self, nodes, st) -> Tri:
        status = st.status
        for node in nodes:
            status = self.statement(node, st)
        if status is None:
            return Tri(None, st.status_origins)
        return Tri(status == 0)

    def s_if_statement(self, node, st):
        arms: list[tuple[list | None, list]] = []
        cond: list | None = []  # None: the else arm, which has no condition
        body: list = []
        mode = "cond"
        for child in node.children:
            t = child.type
            if t == "then":
                mode = "body"
            elif t in ("elif_clause", "else_clause"):
                arms.append((cond, body))
                cond, body = ([], []) if t == "elif_clause" else (None, [])
                sub_mode = "cond" if t == "elif_clause" else "body"
                for c in child.children:
                    if c.type == "then":
                        sub_mode = "body"
                    elif c.is_named and c.type not in tree.SKIP:
                        # sub_mode is "cond" in an elif only, whose cond is a list (None is the else arm's)
                        (cond if sub_mode == "cond" else body).append(c)  # type: ignore[union-attr]
                mode = "done"
            elif child.is_named and t not in tree.SKIP and mode in ("cond", "body"):
                (cond if mode == "cond" else body).append(child)  # type: ignore[union-attr]  # the if's own cond
        arms.append((cond, body))
        return self.choose(st, [(c, lambda b, body=body: self.run_all(body, b)) for c, body in arms])

    def run_all(self, nodes, st):
        status: int | None = 0
        for n in nodes:
            status = self.statement(n, st)
        return status

    def choose(self, st, arms) -> int | None:
        """Run the first arm whose condition holds; arms whose condition is unknown may run too, then merge."""
        possible: list = []
        because: set[Origin] = set()
        for cond, body in arms:
            if cond is None:
                possible.append(body)
                break
            result = self.condition(cond, st) if isinstance(cond, list) else cond(st)
            if result.value is True:
                possible.append(body)
                break
            if result.value is None:
                because |= result.origins
                possible.append(body)
        else:
            possible.append(None)  # no arm runs
        return self.branches(st, possible, frozenset(because))

    def branches(self, st, bodies, because) -> int | None:
        if len(bodies) == 1:
            return bodies[0](st) if bodies[0] is not None else 0
        alive, statuses = [], []
        for body in bodies:
            branch = st.fork()
            branch.because = st.because | because
            try:
                statuses.append(body(branch) if body is not None else 0)
                alive.append(branch)
            except Exit:
                continue
            except (Return, Break):
                alive.append(branch)
        if not alive:
            raise Exit(None)
        result = alive[0]
        for other in alive[1:]:
            result = merge(result, other, because)
        st.adopt(result)
        return statuses[0] if len(set(statuses)) == 1 else None

    def maybe(self, st, because, body) -> int | None:
        return self.branches(st, [body, None], frozenset(because))

    def test(self, node, st) -> Tri:
        raw = self.text_of(node).strip()
        double = raw.startswith("[[")
        inner = raw[2:-2] if double else raw[1:-1]
        return self.test_words(inner, double, st)

    def test_words(self, inner: str, double: bool, st) -> Tri:
        x = self.expander(st)
        raws = split_raw(inner)
        operands = [(w,) if w in _TEST_OPS else x.one(w) for w in raws] if double else x.words(inner)
        return Test(
            operands,
            double,
            self.is_set(st),
            (lambda k: x.pattern(raws[k])) if double else None,
            (lambda k: x.pattern(raws[k], escape_ere)) if double else None,
            st.shared.matching,
        ).run()

    @staticmethod
    def is_set(st):
        def check(name: str) -> Tri:
            var = st.get(name)
            if var is None:
                return Tri(None, frozenset({Origin(ENV, name)}))
            return Tri(var.kind != "unset")

        return check

    def s_case_statement(self, node, st):
        subject_node = next((c for c in node.children if c.is_named and c.type != "case_item"), None)
        x = self.expander(st)
        subject = x.one(self.text_of(subject_node)) if subject_node is not None else ()
        arms = []
        broken = None  # the grammar may leave the start of a pattern (`*.@` of `*.@(gz|bz2)`) in an ERROR before it
        for item in node.children:
            if item.type != "case_item":
                broken = item.start_byte if item.type == "ERROR" else None
                continue
            # the patterns are cut from the text: the grammar splits `@(a|b)` at its `|`
            first, broken = (broken if broken is not None else item.start_byte), None
            written = self.src[first : item.end_byte].decode("utf-8", "replace")
            pats, close = case_patterns(written)
            start = first + len(written[:close].encode("utf-8"))
            body = [c for c in item.children if c.start_byte >= start and c.is_named and c.type not in tree.SKIP]
            arms.append(
                (lambda s, pats=pats: self.case_match(subject, pats, s), lambda b, body=body: self.run_all(body, b))
            )
        return self.choose(st, arms)

    def case_match(self, subject: Text, pats, st) -> Tri:
        x, origins = self.expander(st), set[Origin]()
        for raw in pats:
            pattern = x.pattern(raw)
            if is_known(subject) and is_known(pattern):
                found = matches(known(pattern), known(subject), st.shared.matching)
                if found:
                    return Tri(True)
                if found is None:
                    origins |= origins_of(limited(known(pattern), "match"))
                continue
            if is_known(pattern) and known(pattern) == "*":
                return Tri(True)
            origins |= origins_of(subject) | origins_of(pattern)
        return Tri(None, frozenset(origins)) if origins else Tri(False)

    def s_for_statement(self, node, st):
        var = next((c for c in node.children if c.type == "variable_name"), None)
        body = next((c for c in node.children if c.type == "do_group"), None)
        if var is None or body is None:
            return 0
        has_in = any(c.type == "in" for c in node.children)
        x = self.expander(st)
        if has_in:
            items = []
            after_in = False
            listed = []
            for c in node.children:
                if c.type == "in":
                    after_in = True
                elif after_in and c.is_named and c.type not in ("do_group", "comment"):
                    listed.append(c)
            for group in tree.touching(listed):
                items.extend(x.fields(self.text_of_group(group)))
        else:
            items = [Spread(frozenset({Origin("args", "@")}), "$@")] if st.args is None else list(st.args)
        name = self.text_of(var)
        return self.bounded(st, self.first_line(node), lambda: self.for_items(st, name, items, body))

    def for_items(self, st, name, items, body):
        status: int | None = 0
        for count, item in enumerate(items):
            if count >= MAX_ITERATIONS:
                raise TooComplex  # bounded() makes what the loop changed unknown
            self.next_iteration(count)
            if isinstance(item, Spread):
                status = self.maybe(
                    st,
                    item.origins,
                    lambda b, item=item: self.for_body(name, unknown(item.origins, "$" + name), body, b),
                )
                continue
            try:
                status = self.for_body(name, item, body, st)
            except Continue as c:
                if c.n > 1:
                    c.n -= 1
                    raise
            except Break as b:
                if b.n > 1:
                    b.n -= 1
                    raise
                break
        return status

    def for_body(self, name, value, body, st):
        assign(st, name, value)
        self.block(body, st)
        return st.status

    def s_c_style_for_statement(self, node, st):
        exprs, body = [], None
        current: list[str] = []
        for c in node.children:
            if c.type in (";", "))"):
                exprs.append(" ".join(current))
                current = []
            elif c.type == "do_group" or c.type == "compound_statement":
                body = c
            elif c.type not in ("for", "(("):
                current.append(self.text_of(c))
        init, cond, step = (exprs + ["", "", ""])[:3]
        x = self.expander(st)
        x.arith(init) if init.strip() else None
        return self.bounded(
            st,
            self.first_line(node),
            lambda: self.loop(
                st,
                lambda s: self.arith_tri(cond, s),
                body,
                lambda s: self.expander(s).arith(step) if step.strip() else None,
            ),
        )

    def arith_tri(self, expression, st) -> Tri:
        if not expression.strip():
            return Tri(True)
        value = self.expander(st).arith(expression)
        return Tri(None, value.origins) if isinstance(value, Opaque) else Tri(value != 0)

    def s_while_statement(self, node, st):
        until = node.children[0].type == "until"
        cond = [c for c in node.children[1:] if c.is_named and c.type not in ("do_group", "comment")]
        body = next((c for c in node.children if c.type == "do_group"), None)

        def test(s):
            result = self.condition(cond, s)
            return ~result if until else result

        return self.bounded(st, self.first_line(node), lambda: self.loop(st, test, body, None))

    def bounded(self, st, written: str, run):
        """Run a loop (or a function call); when the reading's statements run out inside it, it stops there and
        what it changed becomes unknown, and the reading goes on (from then on a loop runs once at most)."""
        before = st.fork()
        try:
            return run()
        except TooComplex:
            if self.shared.statements > HARD_STATEMENTS:
                raise
        st.adopt(merge(before, st, frozenset(origins_of(limited(written, "work")))))
        st.status_origins = frozenset(origins_of(limited(written, "work")))
        return None

    def first_line(self, node) -> str:
        return self.text_of(node).split("\n", 1)[0]

    def next_iteration(self, count: int) -> None:
        if count and self.shared.exhausted:
            raise TooComplex

    def loop(self, st, test, body, step):
        status = 0
        for count in range(MAX_ITERATIONS):
            self.next_iteration(count)
            result = test(st)
            if result.value is False:
                return status
            if result.value is None:
                return self.maybe(st, result.origins, lambda b: self.loop_body(body, b, step))
            try:
                status = self.loop_body(body, st, step)
            except Break as b:
                if b.n > 1:
                    b.n -= 1
                    raise
                return status
        raise TooComplex  # a loop that does not end: bounded() makes what it changed unknown

    def loop_body(self, body, st, step):
        try:
            if body is not None:
                self.block(body, st)
        except Continue as c:
            if c.n > 1:
                c.n -= 1
                raise
        if step is not None:
            step(st)
        return st.status


def case_patterns(raw: str) -> tuple[list[str], int]:
    """The patterns of one case item as written (`a|@(b|c)`), and the index just past the `)` that ends them."""
    i, n, depth, start, pats = 0, len(raw), 0, 0, []
    while i < n and raw[i] in " \t\n":
        i += 1
    if i < n and raw[i] == "(":
        i += 1
    start = i
    while i < n:
        skipped = past_quoted(raw, i)
        if skipped is not None:
            i = skipped
            continue
        c = raw[i]
        if c == "(":
            depth += 1
        elif c == ")" and depth:
            depth -= 1
        elif c == ")" or (c == "|" and not depth):
            pats.append(raw[start:i].strip())
            if c == ")":
                return pats, i + 1
            start = i + 1
        i += 1
    return pats + [raw[start:].strip()], n
