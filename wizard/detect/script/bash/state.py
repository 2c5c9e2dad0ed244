"""What the reader knows at a point of the script: variables, functions, arguments, the folder it is in.

`State.fork` copies it for a branch the reader cannot decide; `merge` joins two such branches again,
making every variable they disagree on unknown (from the origins of the undecided condition). The
steps recorded (`trace`) and the reader's notes are shared by all forks of one reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from wizard.detect.script.bash.nfa import Budget
from wizard.detect.script.bash.patterns import new_budget
from wizard.detect.script.bash.recover import Allowance
from wizard.detect.script.bash.values import ENV, Origin, Spread, Text, origins_of, text, unknown

SCALAR, ARRAY, ASSOC, UNSET = "scalar", "array", "assoc", "unset"


@dataclass
class Var:
    """A shell variable: a scalar Text, or an indexed/associative array of Texts; `spread` when its elements are unknown."""

    kind: str = SCALAR
    value: Text = ()
    items: dict = field(default_factory=dict)
    spread: Spread | None = None
    exported: bool = False
    readonly: bool = False
    integer: bool = False  # declare -i: assignments are arithmetic
    lines: dict = field(default_factory=dict)  # element -> the line that wrote it (for messages)

    def copy(self) -> Var:
        return replace(self, items=dict(self.items), lines=dict(self.lines))

    def elements(self) -> list[Text]:
        if self.kind == SCALAR:
            return [self.value]
        if self.kind == UNSET:
            return []
        return [self.items[k] for k in sorted(self.items)] if self.kind == ARRAY else list(self.items.values())

    def same(self, other: Var) -> bool:
        return (self.kind, self.value, self.items, self.spread) == (other.kind, other.value, other.items, other.spread)


@dataclass
class Shared:
    """What every fork of one reading shares: the steps, the notes, the work budget, the files given."""

    script_path: str
    trace: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    pinned: dict = field(default_factory=dict)  # --env values, which stand in for a command's output too
    work: int = 0  # characters expanded so far
    statements: int = 0  # statements run so far
    exhausted: bool = False  # past control.MAX_STATEMENTS: loops run once at most, nested calls not at all
    sourced: list = field(default_factory=list)
    history: dict = field(default_factory=dict)  # name -> the known values assigned to it, in order
    matching: Budget = field(default_factory=new_budget)  # steps left to glob and =~ matches
    recovery: Allowance = field(default_factory=Allowance)  # parses left to read on past mis-parsed statements


@dataclass
class State:
    shared: Shared
    vars: dict = field(default_factory=dict)
    frames: list = field(default_factory=list)  # per function call: name -> the Var it hid (None: none)
    args: list | None = None  # None: the script's arguments are not known
    functions: dict = field(default_factory=dict)
    cwd: Text = ()
    status: int | None = 0
    status_origins: frozenset = frozenset()
    certain: bool = True  # False inside a branch the reader could not decide
    because: frozenset = frozenset()  # the origins of the undecided conditions around this point
    source_stack: tuple = ()
    depth: int = 0
    dir_stack: list = field(default_factory=list)

    def fork(self) -> State:
        return replace(
            self,
            vars={k: v.copy() for k, v in self.vars.items()},
            frames=[dict(f) for f in self.frames],
            args=None if self.args is None else list(self.args),
            functions=dict(self.functions),
            dir_stack=list(self.dir_stack),
            certain=False,
        )

    def adopt(self, other: State) -> None:
        """Take over another state's values (the branch that was the only one left)."""
        certain = self.certain
        self.__dict__.update(other.__dict__)
        self.certain = certain

    def get(self, name: str) -> Var | None:
        return self.vars.get(name)

    def set(self, name: str, var: Var) -> None:
        old = self.vars.get(name)
        if old is not None and old.exported:
            var.exported = True
        self.vars[name] = var

    def declare_local(self, name: str) -> None:
        if self.frames and name not in self.frames[-1]:
            self.frames[-1][name] = self.vars.get(name)


def merge(a: State, b: State, because: frozenset) -> State:
    """One state for "either branch ran": what the two agree on stays, the rest becomes unknown."""
    out = a
    names = set(a.vars) | set(b.vars)
    merged = {}
    for name in names:
        va, vb = a.vars.get(name), b.vars.get(name)
        if va is not None and vb is not None and va.same(vb):
            merged[name] = va
            continue
        merged[name] = _unknown_var(name, va, vb, because)
    out.vars = merged
    if a.args != b.args:
        out.args = None
    if a.cwd != b.cwd:
        out.cwd = unknown(because | origins_of(a.cwd) | origins_of(b.cwd), "$PWD")
    out.functions = {**b.functions, **a.functions}
    if a.status != b.status:
        out.status, out.status_origins = None, because
    return out


def _unknown_var(name: str, va: Var | None, vb: Var | None, because: frozenset) -> Var:
    present = [v for v in (va, vb) if v is not None]
    origins = set(because)
    if len(present) < 2:
        origins.add(Origin(ENV, name))  # one branch leaves it as the environment has it
    exported = any(v.exported for v in present)
    if va is not None and vb is not None and va.kind == vb.kind == SCALAR:  # both present
        return Var(SCALAR, merge_text(va.value, vb.value, frozenset(origins), f"${name}"), exported=exported)
    if va is not None and vb is not None and va.kind == vb.kind == ARRAY and va.spread is None and vb.spread is None:
        return _merge_arrays(name, va, vb, frozenset(origins), exported)
    for v in present:
        origins |= origins_of(v.value) | (v.spread.origins if v.spread else frozenset())
        for item in v.items.values():
            origins |= origins_of(item)
    if any(v.kind in (ARRAY, ASSOC) for v in present):
        kind = next(v.kind for v in present if v.kind in (ARRAY, ASSOC))
        return Var(kind, spread=Spread(frozenset(origins), f"${{{name}[@]}}"), exported=exported)
    return Var(SCALAR, unknown(origins, f"${name}"), exported=exported)


def merge_text(a: Text, b: Text, because: frozenset, shown_as: str) -> Text:
    """One value for "a or b": what both start and end with stays known, the part between is unknown."""
    if a == b:
        return a
    if (
        isinstance(a, tuple)
        and isinstance(b, tuple)
        and len(a) == len(b) == 1
        and isinstance(a[0], str)
        and isinstance(b[0], str)
    ):
        x, y = a[0], b[0]
        head = 0
        while head < min(len(x), len(y)) and x[head] == y[head]:
            head += 1
        tail = 0
        while tail < min(len(x), len(y)) - head and x[len(x) - 1 - tail] == y[len(y) - 1 - tail]:
            tail += 1
        middle = unknown(because, shown_as)
        return text(x[:head], middle, x[len(x) - tail :] if tail else "")
    if not a or not b:
        # one side is empty: the other side's text may or may not be there
        return unknown(because | origins_of(a) | origins_of(b), shown_as)
    return unknown(because | origins_of(a) | origins_of(b), shown_as)


def _merge_arrays(name: str, va: Var, vb: Var, because: frozenset, exported: bool) -> Var:
    """Element by element; from the first index that only one side has, the rest is an unknown run."""
    keys_a, keys_b = sorted(va.items), sorted(vb.items)
    items, lines = {}, {}
    common = 0
    for ka, kb in zip(keys_a, keys_b, strict=False):
        if ka != kb:
            break
        items[ka] = merge_text(va.items[ka], vb.items[kb], because, f"${{{name}[{ka}]}}")
        lines[ka] = va.lines.get(ka, vb.lines.get(kb))
        common += 1
    spread = None
    if common < max(len(keys_a), len(keys_b)):
        extra: set[Origin] = set()
        for v, keys in ((va, keys_a), (vb, keys_b)):
            for k in keys[common:]:
                extra |= origins_of(v.items[k])
        spread = Spread(frozenset(because | extra), f"${{{name}[@]}}")
    var = Var(ARRAY, items=items, spread=spread, exported=exported)
    var.lines = lines
    return var
