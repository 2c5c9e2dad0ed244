"""Values a launch script leaves unknown, and running the rules around them.

A launch script may set a key from something the wizard cannot know: an environment variable that is
not given, the script's arguments, a command's output. Such a key is kept out of the answers (the layer
below applies) and carried here, beside them, with where its value comes from (`Origin`). The rules
engine then runs each rule on answers, plan and flat values that record what the rule reads; a rule
that reads an unknown key (directly, or through a derived number of the plan that depends on it) has
its findings dropped and is listed as skipped. `notes` says, once per origin, which keys it feeds,
which rules were skipped, and how to give the value. The rule engine's side, the reads of each rule, is in
wizard.core.unknown_reads; this module stays light (the TUI's first paint reads ENV from it, before pydantic).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wizard.i18n.text import Msg, msg

ENV, ARGS, COMMAND = "env", "args", "command"
LIMIT = "limit"  # a value the reader stopped computing; `via` says which of its limits (LIMITS) it met
REFUSED = (
    "refused"  # a value the script gives that verl cannot take (a placeholder): `name` is key=value, `via` its line
)
_LIMIT_WHY = {
    "match": "unknown.limit.match",
    "size": "unknown.limit.size",
    "array": "unknown.limit.array",
    "work": "unknown.limit.work",
    "parse": "unknown.limit.parse",
}


@dataclass(frozen=True, order=True)
class Origin:
    """Where an unknown value comes from: an environment variable, the script's arguments, a command."""

    kind: str  # "env" | "args" | "command" | "limit" | "refused"
    name: str  # the variable's name, the argument ($1, #, @), the command's text, or (limit) the expansion
    via: str = ""  # for a command: the variable the script assigns its output to; for a limit: which one

    def shown(self) -> str:
        if self.kind in (LIMIT, REFUSED):
            return self.name
        return f"$({self.name})" if self.kind == COMMAND else f"${self.name}"


@dataclass
class Unknowns:
    """Unknown addresses (verl keys or answer fields) -> their origins, and the rules skipped for them."""

    keys: dict[str, frozenset] = field(default_factory=dict)
    skipped: dict[str, set] = field(default_factory=dict)  # address -> rule ids skipped because of it
    taints: dict = field(default_factory=dict, repr=False)  # id(plan) -> (plan, its taint function)

    def __bool__(self) -> bool:
        return bool(self.keys)


# --- the notes ----------------------------------------------------------------------------------------


def compact_ids(ids) -> list[str]:
    """Rule ids sorted, consecutive ones of a family as a range: BATCH-001, BATCH-004..007, DEPLOY-001..012."""
    by_family: dict[str, list[int]] = {}
    others = []
    for rid in ids:
        family, _, number = rid.rpartition("-")
        if family and number.isdigit():
            by_family.setdefault(family, []).append(int(number))
        else:
            others.append(rid)
    out = []
    for family in sorted(by_family):
        numbers = sorted(set(by_family[family]))
        start = prev = numbers[0]
        for n in [*numbers[1:], None]:
            if n is not None and n == prev + 1:
                prev = n
                continue
            out.append(f"{family}-{start:03d}" if start == prev else f"{family}-{start:03d}..{prev:03d}")
            if n is not None:
                start = prev = n
    return out + sorted(others)


def notes(unknowns: Unknowns, fed: dict) -> list[Msg]:
    """One note per origin (all script arguments together): the keys it feeds, the rules skipped, how to give it.

    `fed` maps each Origin to the keys whose value it makes unknown (from the reader).
    """
    groups: dict[tuple, list] = {}
    for origin, keys in fed.items():
        group: tuple[str, ...] = ("args",) if origin.kind == ARGS else (origin.kind, origin.name, origin.via)
        groups.setdefault(group, [[], []])
        groups[group][0].append(origin)
        groups[group][1].extend(k for k in keys if k not in groups[group][1])
    out = []
    for group, (origins, keys) in sorted(groups.items()):
        ids = compact_ids({rid for k in keys for rid in unknowns.skipped.get(k, ())})
        skipped = msg("unknown.skipped", n=len(keys), ids=ids) if ids else msg("unknown.none_skipped", n=len(keys))
        common = {"keys": keys, "n": len(keys), "skipped": skipped}
        if group[0] == "args":
            names = sorted({"$" + o.name for o in origins})
            out.append(msg("unknown.args", names=names, **common))
        elif group[0] == LIMIT:
            why = group[2] if group[2] in _LIMIT_WHY else "work"
            out.append(msg("unknown.limit", shown=group[1], why=msg(_LIMIT_WHY[why]), **common))
        elif group[0] == REFUSED:
            out.append(msg("unknown.refused", shown=group[1], line=group[2], **common))
        elif group[0] == COMMAND:
            origin = origins[0]
            if origin.via:
                out.append(msg("unknown.command", shown=origin.shown(), via=origin.via, **common))
            else:
                out.append(msg("unknown.command_no_var", shown=origin.shown(), **common))
        else:
            out.append(msg("unknown.env", name=group[1], **common))
    return out
