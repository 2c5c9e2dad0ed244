"""An answers file as data: the answers, where each came from, and the launch script a run was migrated from.

answers.yaml is what every door writes and `new --answers` replays, so it holds everything the other files
are rendered from besides verl's defaults:

    algorithm: {adv_estimator: grpo}          # the answers that differ from the defaults (sections, extra)
    batch: {train_batch_size: 256}
    provenance:                               # where each of those values came from
      algorithm.adv_estimator: preset
      batch.train_batch_size: set
    migrated:                                 # present after a launch-script import: RUN.md's section
      {source: old.sh, changed: [...], dropped: [...], notes: [...]}
    topology: 1xH100                          # the topology the run was planned for (--topology's spec), if any

Provenance names a kind of origin, not a door: an edit in the TUI and a `--set` flag are both "set", so the
same answers give the same file whichever door wrote it. A replay keeps the recorded origins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wizard.core.layers import canonical_address, flatten_answers_doc, to_answers_doc
from wizard.errors import UsageError

PROVENANCE = "provenance"
MIGRATED = "migrated"
TOPOLOGY = "topology"
# The origins answers.yaml records (wizard.core.workspace maps each layer onto one).
ORIGINS = ("preset", "detected", "answers file", "launch script", "set")


@dataclass(frozen=True)
class Migration:
    """A launch script carried over to verl 0.9.1: what changed and what was dropped on the way, and why."""

    source: str
    changed: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "changed": list(self.changed),
            "dropped": list(self.dropped),
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class AnswersRecord:
    """An answers file read: layer values (addresses), their recorded origins, the migration it records."""

    values: dict[str, Any]
    origins: dict[str, str] = field(default_factory=dict)
    migration: Migration | None = None
    topology: str | None = None  # the topology spec the answers were planned for (a fake name, a file, detect)


def parse_answers_doc(doc: Any, origin: str) -> AnswersRecord:
    """A loaded answers file (or preset) -> its record; UsageError naming `origin` for anything malformed."""
    values = flatten_answers_doc(doc, origin)
    topology = doc.get(TOPOLOGY)
    if topology is not None and (not isinstance(topology, str) or not topology.strip()):
        raise UsageError(f"{origin}: {TOPOLOGY} must be a topology spec such as 8xH100 (see --topology)")
    return AnswersRecord(
        values, _origins(doc.get(PROVENANCE), values, origin), _migration(doc.get(MIGRATED), origin), topology
    )


def _origins(raw: Any, values: dict[str, Any], origin: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise UsageError(f"{origin}: {PROVENANCE} must map answers to where they came from")
    origins = {}
    for name, kind in raw.items():
        if kind not in ORIGINS:
            raise UsageError(f"{origin}: {PROVENANCE} of {name}: {kind!r} is not one of {', '.join(ORIGINS)}")
        address = canonical_address(str(name))
        if address in values:  # a value removed by hand takes its record with it
            origins[address] = kind
    return origins


def _migration(raw: Any, origin: str) -> Migration | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("source"), str):
        raise UsageError(f"{origin}: {MIGRATED} must be a mapping with the source script's path")
    lists = {}
    for part in ("changed", "dropped", "notes"):
        items = raw.get(part) or []
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise UsageError(f"{origin}: {MIGRATED}.{part} must be a list of lines")
        lists[part] = tuple(items)
    unknown = set(raw) - {"source", *lists}
    if unknown:
        raise UsageError(f"{origin}: {MIGRATED} has no {sorted(unknown)[0]!r} (source, changed, dropped, notes)")
    return Migration(raw["source"], **lists)


def answers_doc(answers, origin_of, migration: Migration | None = None, topology: str | None = None) -> dict[str, Any]:
    """The document of answers.yaml: the answers that differ from the defaults, their origins, the migration,
    the topology spec.

    origin_of(address) -> the recorded origin of the value at that address (None: not set by any layer).
    """
    doc = to_answers_doc(answers)
    provenance = {}
    for section, entries in doc.items():
        for name in entries:
            where = name if section == "extra" else f"{section}.{name}"
            kind = origin_of(canonical_address(where))
            if kind is not None:
                provenance[where] = kind
    if provenance:
        doc[PROVENANCE] = provenance
    if migration is not None:
        doc[MIGRATED] = migration.as_dict()
    if topology is not None:
        doc[TOPOLOGY] = topology
    return doc
