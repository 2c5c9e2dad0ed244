"""The wizard session: answers by layer, the topology, findings, and the files a write would produce.

No Textual here: the TUI's screens call these methods and re-render; Pilot tests and benchmarks drive the
same object. Every edit goes through the same rules engine and emitters as `new` and `check`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.core.findings import Finding, Fix, Severity, has_errors
from wizard.core.layers import LayeredAnswers, build, canonical_address
from wizard.core.rules import RuleContext, context_for, evaluate
from wizard.core.rules.fix_checks import KeptFixChecks
from wizard.detect.facts import gather
from wizard.errors import UsageError

REMOVED = object()  # an edit that deletes a key set by a lower layer


@dataclass
class Session:
    """Mutable state of one wizard run. `layers` are the fixed layers below the user's edits."""

    layers: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    edits: dict[str, Any] = field(default_factory=dict)
    topology: Any = None
    topology_spec: str | None = None
    out_dir: str = "verl-run"
    preset: str | None = None
    mode: str = "cluster"  # "local": data and model paths are read and checked on this machine
    layered: LayeredAnswers = field(init=False)
    facts_cache: dict = field(default_factory=dict, repr=False)  # gather's reads, reused while their inputs hold
    _ctx: RuleContext | None = field(init=False, default=None, repr=False)
    _findings: list[Finding] | None = field(init=False, default=None, repr=False)
    _plan: Any = field(init=False, default=None, repr=False)
    fix_checks: KeptFixChecks = field(init=False, default_factory=KeptFixChecks, repr=False)  # kept across edits
    write_notes: list[str] = field(init=False, default_factory=list, repr=False)  # the last write's word on old files

    def __post_init__(self) -> None:
        self.refresh()

    # -- building ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Rebuild answers from the layers and edits; the rules run again when next asked for (ctx, findings).

        Lazily, so that a start can paint its first screen from the answers and show the findings after it.
        """
        self.layered = self._build(self.edits)
        self.facts_cache.clear()  # a refresh reads data files and model folders again
        self._ctx = self._findings = self._plan = None

    @property
    def ctx(self) -> RuleContext:
        """The rules' context (the plan, gathered facts) for the current answers."""
        if self._ctx is None:
            answers = self.layered.answers
            self._ctx = context_for(
                answers,
                self.layered.flat,
                mode=self.mode,
                topology=self.topology,
                **gather(answers, self.mode, self.facts_cache),
            )
        return self._ctx

    @property
    def plan(self):
        """The plan (pools, batch chains) of the current answers: ctx.plan, without gathering facts for the rules."""
        if self._ctx is not None:
            return self._ctx.plan
        if self._plan is None:
            from wizard.core.plan import build_plan

            self._plan = build_plan(self.layered.answers)  # what context_for puts in ctx.plan
        return self._plan

    @property
    def findings(self) -> list[Finding]:
        """Every rule's findings for the current answers."""
        if self._findings is None:
            self._findings = evaluate(self.ctx, self.fix_checks)
        return self._findings

    @property
    def evaluated(self) -> bool:
        """Whether the findings of the current answers are computed (asking for them computes them)."""
        return self._findings is not None

    def _build(self, edits: dict[str, Any]) -> LayeredAnswers:
        layered = build([*self.layers, ("edited", {k: v for k, v in edits.items() if v is not REMOVED})])
        removed = [k for k, v in edits.items() if v is REMOVED]
        return layered.with_values({k: None for k in removed}, "edited") if removed else layered

    def evaluate(self) -> None:
        """Re-run every rule now."""
        self._ctx = self._findings = self._plan = None
        self.findings  # noqa: B018 - computes them

    # -- edits ---------------------------------------------------------------------------------------
    def value(self, address: str) -> Any:
        address = canonical_address(address)
        return self.layered.flat.get(address, _answer_value(self.layered, address))

    def source_of(self, address: str) -> str:
        return self.layered.source_of(canonical_address(address))

    def set(self, address: str, value: Any) -> None:
        """Set one answer as an edit; None clears the edit (the layer below shows again). UsageError if bad."""
        edits = dict(self.edits)
        address = canonical_address(address)
        if value is None:
            edits.pop(address, None)
        else:
            edits[address] = value
        self._commit(edits)

    def apply_fix(self, fix: Fix) -> None:
        """Apply a fix: its None values remove the key from every layer (verl's default applies)."""
        edits = dict(self.edits)
        for address, value in fix.set.items():
            edits[canonical_address(address)] = REMOVED if value is None else value
        self._commit(edits)

    def _commit(self, edits: dict[str, Any]) -> None:
        layered = self._build(edits)
        self.edits, self.layered = edits, layered
        self.evaluate()

    def load_preset(self, name: str | None) -> None:
        from wizard.core.presets import load_preset

        self.layers = [layer for layer in self.layers if layer[0] != "preset"]
        if name:
            self.layers.insert(0, ("preset", load_preset(name).values))
        self.preset = name
        self.edits = {}
        self.refresh()

    def load_answers(self, path: str) -> None:
        from wizard.detect.answers_file import read_answers_file

        values = read_answers_file(path)
        self.layers = [layer for layer in self.layers if layer[0] != "answers file"] + [("answers file", values)]
        self.edits = {}
        self.refresh()

    def load_script(self, path: str) -> list[str]:
        """Import an old or forked launch script (carried over to verl 0.9.1) as a layer; returns its notes."""
        from wizard.detect.script_import import migrate_script

        flat, notes = migrate_script(path)
        self.layers = [layer for layer in self.layers if layer[0] not in ("launch script", "preset")] + [
            ("launch script", flat)
        ]
        self.edits = {}
        self.refresh()
        return notes

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.evaluate()

    def set_topology(self, spec: str | None) -> None:
        from wizard.detect.topology_source import topology_layer

        topology, detected = topology_layer(spec) if spec else (None, {})
        self.topology, self.topology_spec = topology, spec
        self.layers = [layer for layer in self.layers if layer[0] != "detected"]
        if detected:
            order = [name for name, _ in self.layers]
            at = 1 if order and order[0] == "preset" else 0
            self.layers.insert(at, ("detected", detected))
        self.refresh()

    # -- output ----------------------------------------------------------------------------------------
    @property
    def blocked(self) -> bool:
        return has_errors(self.findings)

    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    def render_files(self) -> dict[str, str]:
        from wizard.emit.artifacts import render_artifacts

        return render_artifacts(self.layered, self.ctx.plan, self.findings)

    def file_states(self) -> dict[str, str]:
        """File name -> "new" | "same" | "changed" against what is in out_dir now."""
        out = Path(self.out_dir)
        states = {}
        for name, text in self.render_files().items():
            path = out / name
            states[name] = (
                "new"
                if not path.exists()
                else ("same" if path.is_file() and path.read_bytes() == text.encode() else "changed")
            )
        return states

    def diff(self, name: str) -> str:
        import difflib

        path = Path(self.out_dir) / name
        old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        new = self.render_files()[name]
        return "".join(
            difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"{name} (on disk)", f"{name} (new)")
        )

    def write(self, force: bool = False) -> list[str]:
        from wizard.emit.writer import write_all

        if self.blocked:
            raise UsageError(f"{len(self.errors())} error(s) block writing")
        result = write_all(self.out_dir, self.render_files(), force=force)
        self.write_notes = result.notes()  # files of an earlier set: removed or kept, said after the write
        return result.written

    def save_answers(self, path: str) -> None:
        from wizard.emit.artifacts import render_answers_file
        from wizard.emit.writer import write_atomic

        write_atomic(Path(path), render_answers_file(self.layered))


def _answer_value(layered: LayeredAnswers, address: str) -> Any:
    """The effective value of an address: its answer field, else verl's default for an extra key."""
    from wizard.core import verl_schema
    from wizard.core.keymap import verl_to_field

    field_name = verl_to_field().get(address, address)
    section, _, attr = field_name.partition(".")
    part = getattr(layered.answers, section, None)
    if part is not None and hasattr(part, attr):
        return getattr(part, attr)
    return layered.answers.extra.get(address, verl_schema.default(address))
