"""What became of an old verl key, and the migration of a flat override dict to the target verl.

The facts are data: `verl_data/key_history.json` (written by `scripts/key_history.py` from the released
wheels: for each trainer key the releases that have it, its default per release, and inferred moves)
and `verl_data/renames.yaml` (renames the history cannot infer, written by hand). `fate(key)` says
whether a key is current, moved or renamed (and to what), removed (and when), a typo of a real key,
or unknown to every release. `migrate_flat` turns the overrides of an old script into overrides of
verl 0.9.1 and says what it changed and dropped. Pure: no I/O beyond reading the two data files.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wizard.core import verl_schema
from wizard.core.field_keys import field_to_verl
from wizard.core.layers import ENGINE_GROUP
from wizard.core.masking import shown
from wizard.i18n.text import Msg, msg, render

__all__ = [
    "KeyFate",
    "Migration",
    "fate",
    "history",
    "likely_releases",
    "migrate_flat",
    "releases",
    "renames",
    "sections",
]

TARGET = verl_schema.TARGET_VERSION
# Leaves too common to name a real key from alone (a fork's `enable` is not verl's `enable`).
_GENERIC_LEAVES = frozenset({"enable", "name", "path", "type", "mode", "size", "steps", "freq", "kwargs", "config"})


@lru_cache(maxsize=1)
def history() -> dict[str, Any]:
    """The key-history table: {"versions": [...], "sources": {...}, "keys": {key: entry}}."""
    return json.loads((verl_schema.DATA_DIR / "key_history.json").read_text())


@lru_cache(maxsize=1)
def renames() -> dict[str, dict[str, Any]]:
    """The hand-written renames: {old key: {"to": key or None, "version": str, "reason": message key}}.

    The reason is a key of the message catalogues (wizard/i18n/messages/schema.py), said in each language.
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load((verl_schema.DATA_DIR / "renames.yaml").read_text(), Loader=loader) or {}
    return {str(k): {"to": v.get("to"), "version": str(v["version"]), "reason": v["reason"]} for k, v in data.items()}


def releases() -> list[str]:
    """Every release the history covers, oldest first."""
    return list(history()["versions"])


def _expand(spec: str) -> list[str]:
    """ "0.2.0..0.4.1,0.6.0" -> the releases it names."""
    order = releases()
    out: list[str] = []
    for part in spec.split(","):
        first, _, last = part.partition("..")
        out.extend(order[order.index(first) : order.index(last or first) + 1])
    return out


def releases_having(key: str) -> list[str]:
    """The releases whose trainer config has the key (or a mapping above it that took any sub-key)."""
    entry = _entry(key)
    return _expand(entry[1]["in"]) if entry else []


def default_in(key: str, release: str) -> Any:
    """The key's default in a release (None when it had none there)."""
    entry = history()["keys"].get(key)
    if not entry or release not in _expand(entry["in"]):
        return None
    value = None
    for since, default in entry["default"]:
        if releases().index(since) <= releases().index(release):
            value = default
    return value


def _entry(key: str) -> tuple[str, dict] | None:
    """The history entry of a key, or of the open mapping it sits under (with that mapping's name)."""
    keys = history()["keys"]
    if key in keys:
        return key, keys[key]
    parts = key.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:cut])
        entry = keys.get(head)
        if entry is not None:
            return (head, entry) if any(d == {} for _, d in entry["default"]) else None
    return None


@dataclass(frozen=True)
class KeyFate:
    """What became of a key by the target release.

    kind: "current" (the target has it), "other-engine" (only with the other engine), "moved" or
    "renamed" (`target` replaces it since `version`), "retired" (the target keeps it as a placeholder
    it no longer reads), "removed" (gone since `version`, nothing replaces it), "typo" (no release had
    it; `target` is a genuinely close real key) or "unknown" (no release had it: a fork's or the
    script's own key). `had` lists the releases that had it.
    """

    key: str
    kind: str
    target: str | None = None
    version: str | None = None
    reason: Msg | None = None
    had: tuple[str, ...] = ()

    def describe(self) -> Msg:
        """One sentence for a finding (KEY-001, said of the engine in use)."""
        had = msg("key.fate.had", span=_span(self.had)) if self.had else msg("key.fate.had_none")
        why = msg("key.fate.why", reason=self.reason) if self.reason else ""
        k, target, version = self.key, self.target, self.version
        if self.kind == "moved":
            return msg("key.fate.moved", key=k, target=target, version=version, why=why, had=had)
        if self.kind == "renamed":
            return msg("key.fate.renamed", key=k, target=target, version=version, why=why, had=had)
        if self.kind == "retired":
            return msg("key.fate.retired", key=k, version=version, target_version=TARGET, why=why)
        if self.kind == "removed":
            return msg("key.fate.removed", key=k, version=version, target_version=TARGET, why=why, had=had)
        if self.kind == "typo":
            return msg("key.fate.typo", key=k, target=target)
        if self.kind == "unknown":
            return msg("key.fate.unknown", key=k, first=releases()[0], last=releases()[-1])
        if self.kind == "other-engine":
            return msg("key.fate.other_engine", key=k, engine=target)
        return msg("key.fate.current", key=k, target_version=TARGET)


def _span(had: tuple[str, ...]) -> Msg:
    """The releases that had a key (at least one)."""
    if len(had) == 1:
        return msg("key.fate.span_one", release=had[0])
    return msg("key.fate.span_range", first=had[0], last=had[-1])


def _live(key: str, engine: str) -> bool:
    return verl_schema.key_exists(key, engine) and not _retired(key)


def _retired(key: str) -> bool:
    entry = history()["keys"].get(key)
    return bool(entry and "retired" in entry)


@lru_cache(maxsize=8192)
def fate(key: str, engine: str = "dp") -> KeyFate:
    """What became of `key` by verl 0.9.1 for the engine (dp or megatron); see KeyFate."""
    if _live(key, engine):
        return KeyFate(key, "current")
    other = "megatron" if engine == "dp" else "dp"
    if verl_schema.key_exists(key, other) and not verl_schema.key_exists(key, engine):
        return KeyFate(key, "other-engine", "megatron" if other == "megatron" else "FSDP")
    found = _entry(key)
    had = _live_releases(found[1]) if found else ()
    hand = renames().get(key)
    if hand is not None:
        kind = "renamed" if hand["to"] else "removed"
        return KeyFate(key, kind, hand["to"], hand["version"], msg(hand["reason"]), had)
    if found is None:
        close = closest_real_key(key, engine)
        return KeyFate(key, "typo", close) if close else KeyFate(key, "unknown")
    name, entry = found
    suffix = key[len(name) :]
    target, version, seen = name, None, set()
    while target not in seen:
        seen.add(target)
        step = history()["keys"].get(target, {})
        if "moved" not in step:
            break
        version, target = step["moved"]
        if _live(target + suffix, engine):
            return KeyFate(key, "moved", target + suffix, version, None, had)
    if "retired" in entry:
        return KeyFate(key, "retired", None, entry["retired"], None, had)
    gone = _first_release_without(had)
    return KeyFate(key, "removed", None, gone, None, had)


def _live_releases(entry: dict) -> tuple[str, ...]:
    """The releases that had the key and still read it (a retired placeholder does not count)."""
    had = _expand(entry["in"])
    if "retired" in entry:
        had = had[: had.index(entry["retired"])]
    return tuple(had)


def _first_release_without(had: tuple[str, ...]) -> str:
    order = releases()
    last = order.index(had[-1]) if had else -1
    return order[last + 1] if last + 1 < len(order) else TARGET


@lru_cache(maxsize=4)
def sections(engine: str = "dp") -> frozenset[str]:
    """Every mapping of the target's tree (a dotted prefix of some key), built once per engine."""
    out: set[str] = set()
    for key in verl_schema.defaults(engine):
        parts = key.split(".")
        out.update(".".join(parts[:cut]) for cut in range(1, len(parts)))
    return frozenset(out)


@lru_cache(maxsize=4)
def _key_index(engine: str) -> tuple[dict[str, dict[str, str]], dict[str, list[str]]]:
    """{section: {leaf: key}} and {leaf: [keys]} over the target's keys, built once per engine."""
    siblings: dict[str, dict[str, str]] = {}
    by_leaf: dict[str, list[str]] = {}
    for key in verl_schema.defaults(engine):
        section, _, leaf = key.rpartition(".")
        siblings.setdefault(section, {})[leaf] = key
        by_leaf.setdefault(leaf, []).append(key)
    return siblings, by_leaf


def closest_real_key(key: str, engine: str = "dp") -> str | None:
    """A real key of the target that is genuinely close to `key` (a typo), else None.

    Close means: a sibling whose leaf is a near spelling (ratio >= 0.8), or the same specific leaf
    in a section of a similar name (ratio >= 0.85). A fork's new key that merely starts like a real
    one (`entropy_coeff_schedule`) is not close.
    """
    siblings, by_leaf = _key_index(engine)
    section, _, leaf = key.rpartition(".")
    near = siblings.get(section, {})
    match = difflib.get_close_matches(leaf, list(near), n=1, cutoff=0.8)
    if match:
        return near[match[0]]
    if leaf not in _GENERIC_LEAVES and "_" in leaf:
        sections = {k.rpartition(".")[0]: k for k in by_leaf.get(leaf, [])}
        match = difflib.get_close_matches(section, list(sections), n=1, cutoff=0.85)
        if match:
            return sections[match[0]]
    return None


def likely_releases(keys) -> list[str]:
    """The releases whose trainer config has every key given that any release had (oldest first).

    Keys no release had are left out; when no release has all the others, the releases that have
    the most of them.
    """
    sets = [set(h) for h in (releases_having(k) for k in keys) if h]
    if not sets:
        return []
    counts = {r: sum(r in s for s in sets) for r in releases()}
    best = max(counts.values())
    return [r for r in releases() if counts[r] == best]


@dataclass
class Migration:
    """The overrides carried over to the target, and what was done to get there."""

    flat: dict[str, Any]
    changed: list[str] = field(default_factory=list)  # one line per key moved, renamed or filled in
    dropped: list[str] = field(default_factory=list)  # one line per key left out, with the reason
    releases: list[str] = field(default_factory=list)  # the releases the original keys fit best
    fits_all: bool = False  # whether those releases have every known key
    defaults: list[str] = field(default_factory=list)  # answered keys the script left to a default that changed


def migrate_flat(flat: dict[str, Any], engine: str = "dp") -> Migration:
    """Carry flat verl overrides of any release over to verl 0.9.1.

    Current keys stay; moved and renamed keys go to their new home (a value the overrides also
    give the new key explicitly wins); keys with no 0.9.1 equivalent (removed, ignored placeholders,
    typos, fork or script keys, keys of the other engine) are dropped with the reason. A mandatory
    0.9.1 value the script left to an older default (rollout.name) is filled in from that default.
    """
    out: dict[str, Any] = {}
    known = [k for k in flat if k != ENGINE_GROUP and releases_having(k)]
    result = Migration(out, releases=likely_releases(known))
    result.fits_all = bool(result.releases) and all(result.releases[-1] in releases_having(k) for k in known)
    moved: list[tuple[KeyFate, str, Any]] = []
    for key, value in flat.items():
        if key == ENGINE_GROUP:
            out[key] = value
            continue
        f = fate(key, engine)
        if f.kind == "current" or (f.kind == "retired" and value is None):
            out[key] = value
        elif f.kind in ("moved", "renamed") and f.target:
            moved.append((f, f.target, value))
        else:
            result.dropped.append(f"{key}={_show(value, key)}: {_drop_reason(f)}")
    for f, target, value in moved:
        if target in out and out[target] != value:
            result.dropped.append(
                f"{f.key}={_show(value, f.key)}: the script also sets {target}={_show(out[target], target)}, which wins"
            )
            continue
        out[target] = value
        why = f": {render(f.reason, 'en')}" if f.reason else ""
        result.changed.append(f"{f.key} → {target} ({f.kind} in verl {f.version}{why})")
    _fill_mandatory(out, result, engine)
    if result.releases:
        result.defaults = _changed_defaults(out, result.releases[-1], engine)
    return result


def _same(a: Any, b: Any) -> bool:
    try:
        return a == b or float(a) == float(b)
    except (TypeError, ValueError):
        return False


def _changed_defaults(out: dict[str, Any], release: str, engine: str) -> list[str]:
    """Keys the wizard asks about that the script left to a default that differs in the target."""
    lines = []
    for key in sorted(set(field_to_verl().values())):
        if key in out or not verl_schema.key_exists(key, engine) or release not in releases_having(key):
            continue
        old, new = default_in(key, release), verl_schema.default(key, engine)
        if new == "???" or any(isinstance(v, str) and "${" in v for v in (old, new)) or _same(old, new):
            continue
        lines.append(f"{key}: {_show(old)} in verl {release}, {_show(new)} in {TARGET} (the {TARGET} default applies)")
    return lines


def _drop_reason(f: KeyFate) -> str:
    """The English reason of a dropped key (the import notes and RUN.md are written in English)."""
    had = f" (it was in {render(_span(f.had), 'en')})" if f.had else ""
    why = f": {render(f.reason, 'en')}" if f.reason else ""
    if f.kind == "typo":
        return f"no release has it (did you mean {f.target}? not applied: check it and add it with --set)"
    if f.kind == "other-engine":
        return f"it exists only with the {f.target} engine"
    if f.kind == "retired":
        return f"ignored since verl {f.version}{had}"
    if f.kind == "removed":
        return f"removed in verl {f.version}, nothing replaces it{had}{why}"
    return f"unknown to every released verl ({releases()[0]} to {releases()[-1]}): a fork's or the script's own key"


def _show(value: Any, key: str | None = None) -> str:
    """A value in an import's lines (RUN.md, answers.yaml, the notes): short, and a secret in it masked."""
    value = shown(key, value)
    text = json.dumps(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _fill_mandatory(out: dict[str, Any], result: Migration, engine: str) -> None:
    newest = result.releases[-1] if result.releases else None
    for key, default in verl_schema.defaults(engine).items():
        if default != "???" or out.get(key) not in (None, "???"):
            continue
        if key.startswith("reward.reward_model."):
            if out.get("reward.reward_model.enable") is not True:
                continue
            value, why = out.get("actor_rollout_ref.rollout.name") or "vllm", "the actor's rollout engine"
        else:
            old = [r for r in releases() if default_in(key, r) not in (None, "???")]
            if not old:
                continue
            at = newest if newest in old else old[-1]
            value, why = default_in(key, at), f"verl {at}'s default"
        out[key] = value
        result.changed.append(
            f"{key}={value}: not set by the script; verl {TARGET} has no default, so {why} is written"
        )
