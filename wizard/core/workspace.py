"""The workspace: one run's answers as a stack of typed layers in one fixed precedence, and what follows.

Every door builds, edits and renders through a workspace: `new`, `new --from-script`, `check` and the TUI
(wizard.tui.session adds only what a screen needs). Precedence, lowest first, whatever order a door
fills the layers in:

    verl's defaults < preset < detected hardware < answers file < imported launch script < --set < edits

Every value remembers the layer it came from (`source_of`), and answers.yaml records where it first came
from (`origin_of`, wizard.core.answers.document). From the answers follow the plan, the facts the rules need
and the findings, computed when first asked for and again after each change.

Pure, like the rest of core: nothing here reads a file. A door reads files with wizard.detect and hands
over data (a preset's values, an answers file's record, a migrated script, a topology); facts that need the
world (data files, model folders, whether a path exists) come from the `gather` function the door injects.
Rendering and writing are wizard.emit's (`workspace_files`, `write_workspace`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from wizard.core import verl_schema
from wizard.core.answers.document import AnswersRecord, Migration
from wizard.core.field_keys import address_of, spec_of, verl_to_field
from wizard.core.findings import Finding, Fix, Severity, error, has_errors
from wizard.core.layers import LayeredAnswers, build, canonical_address
from wizard.core.plan import Plan, build_plan
from wizard.core.rules import RuleContext, context_for, evaluate
from wizard.core.rules.catalogue import why
from wizard.core.rules.fix_checks import KeptFixChecks
from wizard.core.unknowns import Unknowns, notes
from wizard.core.value_reasons import shown_text
from wizard.i18n.text import Msg, msg

PRESET, DETECTED, ANSWERS_FILE, LAUNCH_SCRIPT, FLAGS, EDITED = (
    "preset",
    "detected",
    "answers file",
    "launch script",
    "--set",
    "edited",
)
PRECEDENCE = (PRESET, DETECTED, ANSWERS_FILE, LAUNCH_SCRIPT, FLAGS, EDITED)  # above verl's defaults
# What answers.yaml records for a value of each layer: a kind of origin, not the door it came through.
RECORDED = {PRESET: "preset", DETECTED: "detected", ANSWERS_FILE: "answers file", LAUNCH_SCRIPT: "launch script"}
RECORDED |= {FLAGS: "set", EDITED: "set"}
DEFAULTS = ("verl default", "wizard default")
# The source shown for a value of the DETECTED layer that came from a named topology (`--topology 8xH100`):
# nothing was detected, the user said what the hardware is.
NAMED_TOPOLOGY = "topology"

REMOVED = object()  # an edit that deletes a key set by a lower layer (a fix that sets it to None)

# (answers, mode, cache) -> RuleContext fields read from the world (wizard.detect.facts.gather).
Gather = Callable[[Any, str, dict], dict[str, Any]]


def no_facts(answers: Any, mode: str, cache: dict) -> dict[str, Any]:
    """The gatherer of a workspace that is told nothing about the world."""
    return {}


@dataclass(frozen=True)
class Layer:
    """The values one layer sets (addresses -> values) and, for an answers file, their recorded origins."""

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)
    origins: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.name not in PRECEDENCE or self.name == EDITED:
            raise ValueError(f"{self.name!r} is not a layer below the edits ({', '.join(PRECEDENCE[:-1])})")


def detected_values(topology: Any) -> dict[str, Any]:
    """What a topology says about the answers: the GPUs per node and the nodes."""
    return {"trainer.n_gpus_per_node": len(topology.gpus), "trainer.nnodes": getattr(topology, "nodes", 1)}


class Workspace:
    """One run's layers, edits, topology and mode; the answers, plan, facts and findings that follow."""

    def __init__(self, gather: Gather = no_facts, mode: str = "cluster", facts: Mapping[str, Any] | None = None):
        """gather: reads the facts the rules need from the world; mode: "local" reads and checks local paths,
        "cluster" does not; facts: RuleContext fields a door read itself (check's launch script, a manifest's
        deployment facts)."""
        self._gather = gather
        self._layers: dict[str, Layer] = {}
        self.edits: dict[str, Any] = {}
        self.mode = mode
        self.given_facts = dict(facts or {})
        self.topology: Any = None
        self.topology_spec: str | None = None
        self.preset: str | None = None
        self._migrations: dict[str, Migration] = {}  # by layer: the script's own, or one an answers file records
        self.facts_cache: dict = {}  # gather's reads, reused while their inputs hold
        self.fix_checks = KeptFixChecks()  # fix checks kept across edits
        self.rejected: dict[str, tuple[str, Any]] = {}  # address -> (the text as typed, the reason): KEY-006/007
        self._script_unknown: dict[str, frozenset] = {}
        self._ctx: RuleContext | None = None
        self._findings: list[Finding] | None = None
        self._plan: Plan | None = None
        self.layered: LayeredAnswers = self._build(self._layers, self.edits)

    # -- the layers ----------------------------------------------------------------------------------
    @property
    def layers(self) -> tuple[Layer, ...]:
        """The layers that hold values, lowest first."""
        return tuple(self._layers[name] for name in PRECEDENCE if name in self._layers)

    def set_layer(self, name: str, values: Mapping[str, Any] | None, origins: Mapping[str, str] | None = None) -> None:
        """Replace one layer (None or empty: remove it). UsageError for a bad value, and nothing changes."""
        layers = dict(self._layers)
        if values:
            layer = Layer(
                name,
                MappingProxyType({canonical_address(k): v for k, v in values.items()}),
                MappingProxyType(dict(origins or {})),
            )
            layers[name] = layer
        else:
            Layer(name)  # the name is checked even when the layer goes
            layers.pop(name, None)
        self.layered = self._build(layers, self.edits)
        self._layers = layers
        self.refresh(rebuild=False)

    def use_preset(self, name: str | None, values: Mapping[str, Any] | None = None) -> None:
        """The preset layer: a preset's name and values (wizard.core.presets), or none."""
        self.set_layer(PRESET, values if name else None)
        self.preset = name

    def use_answers(self, record: AnswersRecord | None) -> None:
        """The answers-file layer: a file's values, the origins it records and the migration it records."""
        self.set_layer(ANSWERS_FILE, record.values if record else None, record.origins if record else None)
        self._set_migration(ANSWERS_FILE, record.migration if record else None)

    def use_script(
        self,
        values: Mapping[str, Any] | None,
        migration: Migration | None = None,
        unknown: Mapping[str, frozenset] | None = None,
    ) -> None:
        """The imported-script layer: a launch script's overrides carried over to verl 0.9.1, and how.

        unknown: the keys the script sets from what it does not say (an unset variable), each with its origins
        (core.unknowns.Origin); until a layer above gives one, the rules that read it are skipped."""
        self._script_unknown = (
            {canonical_address(k): v for k, v in (unknown or {}).items()} if values is not None else {}
        )
        self.set_layer(LAUNCH_SCRIPT, values)
        self._set_migration(LAUNCH_SCRIPT, migration if values is not None else None)

    @property
    def script_unknown(self) -> dict[str, frozenset]:
        """The imported script's unknown keys that no --set or edit has given since: address -> origins."""
        known = (LAUNCH_SCRIPT, FLAGS, EDITED)
        return {k: v for k, v in self._script_unknown.items() if self.layered.source_of(k) not in known}

    def unknown_notes(self) -> list[Msg]:
        """One note per origin of the imported script's unknown keys, as `check` prints them: the keys it feeds,
        the rules skipped, how to give it (`--env NAME=VALUE`)."""
        unknown = self.script_unknown
        if not unknown:
            return []
        self.findings  # noqa: B018 - the rules run first: they record which of them were skipped
        fed: dict = {}
        for key, origins in unknown.items():
            for origin in origins:
                fed.setdefault(origin, []).append(key)
        unknowns = self.ctx.unknowns
        assert unknowns is not None  # the rules ran with the script's unknowns (evaluate puts them in ctx)
        return notes(unknowns, fed)

    def use_flags(self, values: Mapping[str, Any] | None) -> None:
        """The `--set` layer."""
        self.set_layer(FLAGS, values)

    def use_topology(self, topology: Any, spec: str | None = None, counts: bool = True) -> None:
        """The GPUs the run is planned for (None: unknown). counts: the detected layer takes the GPUs per node
        and the nodes from it (`check` leaves them to the config it judges)."""
        # The layer first: if it is refused, the old topology stays. set_layer dropped the rules' context, which is
        # built again, with this topology, when next asked for.
        self.set_layer(DETECTED, detected_values(topology) if topology is not None and counts else None)
        self.topology, self.topology_spec = topology, spec if topology is not None else None

    def _set_migration(self, layer: str, migration: Migration | None) -> None:
        if migration is None:
            self._migrations.pop(layer, None)
        else:
            self._migrations[layer] = migration

    @property
    def migration(self) -> Migration | None:
        """The launch-script migration RUN.md tells about: the imported script's, else the answers file's record."""
        return self._migrations.get(LAUNCH_SCRIPT) or self._migrations.get(ANSWERS_FILE)

    # -- edits ---------------------------------------------------------------------------------------
    def set(self, address: str, value: Any) -> None:
        """Set one answer as an edit; None clears the edit (the layer below shows again). UsageError if bad."""
        edits = dict(self.edits)
        address = canonical_address(address)
        had = self.rejected.pop(address, None)
        if value is None:
            if had is not None and address not in edits:
                self._findings = None  # only the rejected text goes: the rules' answers did not change
                return
            edits.pop(address, None)
        else:
            edits[address] = value
        self._commit(edits)

    def empty(self, address: str) -> None:
        """The user emptied a field: a field verl needs (Spec.required) stays empty and is KEY-007, blocking
        writing; another one clears its edit, so the layer below shows again with its badge."""
        if _required(canonical_address(address)):
            self.reject(address, "", None)
        else:
            self.set(address, None)

    def rejected_at(self, address: str) -> tuple[str, Any] | None:
        """The text typed at a field (name or verl key) that was not taken, with its reason; None: none."""
        return self.rejected.get(canonical_address(address)) if self.rejected else None

    def reject(self, address: str, text: str, reason: Any) -> None:
        """Text typed into a field that cannot be taken (reason: why, a Msg or text; None: a required field
        emptied). It is an error at the field that blocks writing; the value below is not written in its place.
        No rule runs again: the answers did not change (cheap per keystroke)."""
        self.rejected[canonical_address(address)] = (text, reason)
        if self._findings is not None:
            rules = [f for f in self._findings if not _is_rejected(f) and not _about(f, self.rejected)]
            self._findings = _rejected_findings(self.rejected) + rules

    def apply_fix(self, fix: Fix) -> None:
        """Apply a fix as edits: its None values remove the key from every layer (verl's default applies)."""
        edits = dict(self.edits)
        for address, value in fix.set.items():
            self.rejected.pop(canonical_address(address), None)
            edits[canonical_address(address)] = REMOVED if value is None else value
        self._commit(edits)

    def clear_edits(self) -> None:
        self.rejected.clear()
        self._commit({})

    def _commit(self, edits: dict[str, Any]) -> None:
        self.layered = self._build(self._layers, edits)
        self.edits = edits
        self.evaluate()

    @staticmethod
    def _build(layers: Mapping[str, Layer], edits: Mapping[str, Any]) -> LayeredAnswers:
        stack = [(name, layers[name].values) for name in PRECEDENCE if name in layers]
        layered = build([*stack, (EDITED, {k: v for k, v in edits.items() if v is not REMOVED})])
        removed = [k for k, v in edits.items() if v is REMOVED]
        return layered.with_values(dict.fromkeys(removed), EDITED) if removed else layered

    # -- values and where they came from ---------------------------------------------------------------
    def value(self, address: str) -> Any:
        """The effective value at a field name or verl key: set by a layer, else the default."""
        address = canonical_address(address)
        if address in self.layered.flat:
            return self.layered.flat[address]
        section, _, attr = verl_to_field().get(address, address).partition(".")
        part = getattr(self.layered.answers, section, None)
        if part is not None and hasattr(part, attr):
            return getattr(part, attr)
        return self.layered.answers.extra.get(address, verl_schema.default(address))

    def source_of(self, address: str) -> str:
        """The layer the value at this address came from ("preset", "edited", ..., "verl default").

        A value of the hardware layer reads "topology" when the topology was named, not detected.
        """
        layer = self.layered.source_of(canonical_address(address))
        if layer == DETECTED and getattr(self.topology, "source", None) == "fake":
            return NAMED_TOPOLOGY
        return layer

    def origin_of(self, address: str) -> str | None:
        """Where the value first came from, as answers.yaml records it (None: a default)."""
        address = canonical_address(address)
        layer = self.layered.source_of(address)
        if layer in DEFAULTS:
            return None
        recorded = self._layers[layer].origins.get(address) if layer in self._layers else None
        return recorded or RECORDED[layer]

    # -- what follows from the answers -----------------------------------------------------------------
    def refresh(self, rebuild: bool = True) -> None:
        """Answers from the layers and edits again, and the files read again; the rules run when next asked for.

        Lazily, so that a start can paint its first screen from the answers and show the findings after it.
        """
        if rebuild:
            self.layered = self._build(self._layers, self.edits)
        self.facts_cache.clear()
        self._ctx = self._findings = self._plan = None

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.evaluate()

    @property
    def ctx(self) -> RuleContext:
        """The rules' context: the plan, the topology, the facts given and gathered, for the current answers."""
        if self._ctx is None:
            answers = self.layered.answers
            gathered = self._gather(answers, self.mode, self.facts_cache)
            given = dict(self.given_facts)
            if "unknowns" not in given and self.script_unknown:
                given["unknowns"] = Unknowns(dict(self.script_unknown))  # a new one: its skipped rules are this run's
            self._ctx = context_for(
                answers,
                self.layered.flat,
                mode=self.mode,
                topology=self.topology,
                **{**given, **gathered},
            )
        return self._ctx

    @property
    def plan(self) -> Plan:
        """The plan (pools, batch chains): ctx.plan, without gathering facts for the rules when they have not run."""
        if self._ctx is not None:
            return self._ctx.plan
        if self._plan is None:
            self._plan = build_plan(self.layered.answers)  # what context_for puts in ctx.plan
        return self._plan

    @property
    def findings(self) -> list[Finding]:
        """Every rule's findings for the current answers, errors first, each fix checked to work."""
        if self._findings is None:
            rules = [
                f for f in evaluate(self.ctx, self.fix_checks) if not _is_rejected(f) and not _about(f, self.rejected)
            ]
            self._findings = _rejected_findings(self.rejected) + rules
        return self._findings

    @property
    def evaluated(self) -> bool:
        """Whether the findings of the current answers are computed (asking for them computes them)."""
        return self._findings is not None

    def evaluate(self) -> None:
        """Re-run every rule now."""
        self._ctx = self._findings = self._plan = None
        self.findings  # noqa: B018 - computes them

    @property
    def blocked(self) -> bool:
        """Whether an error stops the files from being written."""
        return has_errors(self.findings)

    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


REJECTED_IDS = ("KEY-006", "KEY-007")


def _is_rejected(finding: Finding) -> bool:
    return finding.id in REJECTED_IDS


def _about(finding: Finding, rejected: Mapping[str, Any]) -> bool:
    """Whether a rule's finding is about a field holding rejected text: it would quote the value below, which
    the field no longer shows (after a typed 0, "train_batch_size 64 ..."); it waits for a valid value."""
    return bool(rejected) and any(canonical_address(path) in rejected for path in finding.paths)


def _required(address: str) -> bool:
    spec = spec_of(address)
    return bool(spec and spec.required)


def _rejected_findings(rejected: Mapping[str, tuple[str, Any]]) -> list[Finding]:
    """KEY-006 (text that cannot be taken) and KEY-007 (a required field emptied), at their fields."""
    out = []
    for address, (text, reason) in rejected.items():
        key = address_of(address)  # already the verl key where the field has one
        if reason is None:
            out.append(error("KEY-007", [key], msg("key.required_empty", field=key), why("KEY-007")))
        else:
            out.append(
                error(
                    "KEY-006",
                    [key],
                    msg("key.rejected_edit", field=key, text=shown_text(text), reason=reason),
                    why("KEY-006"),
                )
            )
    return out
