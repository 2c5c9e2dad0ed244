"""Values a launch script leaves unknown, and running the rules around them.

A launch script may set a key from something the wizard cannot know: an environment variable that is
not given, the script's arguments, a command's output. Such a key is kept out of the answers (the layer
below applies) and carried here, beside them, with where its value comes from (`Origin`). The rules
engine then runs each rule on answers, plan and flat values that record what the rule reads; a rule
that reads an unknown key (directly, or through a derived number of the plan that depends on it) has
its findings dropped and is listed as skipped. `notes` says, once per origin, which keys it feeds,
which rules were skipped, and how to give the value.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from wizard.core import verl_schema
from wizard.core.answers.model import SECTIONS
from wizard.core.field_keys import address_of, verl_to_field
from wizard.core.layers import answers_from_flat
from wizard.core.plan import build_plan
from wizard.errors import UsageError
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


class _Reads:
    """The unknown addresses one rule read."""

    def __init__(self, unknown: dict) -> None:
        self.unknown, self.hit = unknown, set[str]()

    def read(self, address: str) -> None:
        if address in self.unknown:
            self.hit.add(address)


class _TrackedDict(dict):
    def __init__(self, data: dict, reads: _Reads) -> None:
        super().__init__(data)
        self._reads = reads

    def get(self, key, default=None):
        self._reads.read(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self._reads.read(key)
        return super().__getitem__(key)

    def __contains__(self, key) -> bool:
        self._reads.read(key)
        return super().__contains__(key)


class _TrackedSection:
    def __init__(self, section: str, model, reads: _Reads) -> None:
        self._section, self._model, self._reads = section, model, reads

    def __getattr__(self, name: str):
        self._reads.read(address_of(f"{self._section}.{name}"))
        return getattr(self._model, name)


class _TrackedAnswers:
    def __init__(self, answers, reads: _Reads) -> None:
        self._answers, self._reads = answers, reads

    @property
    def untracked(self):
        """The answers themselves, for a rule that scans every value for what it holds (a secret written out),
        not for what it means: an unknown value is not in the answers, so such a scan never depends on it."""
        return self._answers

    def __getattr__(self, name: str):
        value = getattr(self._answers, name)
        if name == "extra":
            return _TrackedDict(value, self._reads)
        if name in SECTIONS:
            return _TrackedSection(name, value, self._reads)
        if callable(value):  # model_dump, model_copy...: the whole of the answers
            for address in self._reads.unknown:
                self._reads.read(address)
        return value


class _TrackedPlan:
    """The plan; reading a derived number that moves with an unknown key counts as reading that key.

    Its parts (the batch chains, the pools) are handed out as they are (rules copy them with
    dataclasses.replace), so reading a part counts as reading everything in it.
    """

    def __init__(self, plan, taint, reads: _Reads) -> None:
        self._plan, self._taint, self._reads = plan, taint, reads

    def __getattr__(self, name: str):
        value = getattr(self._plan, name)
        for address in self._taint(name):
            self._reads.read(address)
        return value


def run_tracked(rule, ctx) -> tuple[list, set]:
    """(findings, unknown addresses the rule read) of one rule over a context that records its reads."""
    from dataclasses import replace

    unknowns: Unknowns = ctx.unknowns
    reads = _Reads(unknowns.keys)
    taint = _taint_of(ctx)
    tracked = replace(
        ctx,
        answers=_TrackedAnswers(ctx.answers, reads),
        plan=_TrackedPlan(ctx.plan, taint, reads),
        flat=_TrackedDict(ctx.flat, reads),
    )
    findings = list(rule(tracked))
    return findings, reads.hit


def rule_ids(rule) -> tuple[str, ...]:
    """The rule ids a rule function can emit (the ids written in its source), for the notes."""
    return _ids_in(rule)


@lru_cache(maxsize=256)
def _ids_in(rule, depth: int = 0) -> tuple[str, ...]:
    """Ids written in the function, and in the module's functions (or tuples of them) it names, 3 levels deep."""
    try:
        source = inspect.getsource(rule)
    except (OSError, TypeError):
        return ()
    ids = re.findall(r"\b[A-Z]{3,6}-\d{3}\b", source)
    if depth < 3:
        module = inspect.getmodule(rule)
        for name in getattr(getattr(rule, "__code__", None), "co_names", ()):
            value = getattr(module, name, None)
            for item in value if isinstance(value, tuple) else (value,):
                if inspect.isfunction(item) and inspect.getmodule(item) is module and item is not rule:
                    ids.extend(_ids_in(item, depth + 1))
    return tuple(dict.fromkeys(ids))


# --- how derived numbers move with an unknown key ---------------------------------------------------


def _taint_of(ctx):
    """path of a plan attribute -> the unknown addresses it depends on (by changing each one and looking)."""
    unknowns: Unknowns = ctx.unknowns
    cache_key = id(ctx.plan)
    if cache_key in unknowns.taints:
        return unknowns.taints[cache_key][1]
    probes = {address: _probe_plans(ctx, address) for address in unknowns.keys}
    memo: dict[str, tuple] = {}

    def taint(path: str) -> tuple:
        if path not in memo:
            base = _at(ctx.plan, path)
            memo[path] = tuple(a for a, plans in probes.items() if any(_at(p, path) != base for p in plans))
        return memo[path]

    unknowns.taints[cache_key] = (ctx.plan, taint)  # the plan is kept so that its id is not reused
    return taint


def _at(plan, path: str) -> Any:
    value = plan
    for part in path.split("."):
        value = getattr(value, part, None)
    return value


def _probe_plans(ctx, address: str) -> list:
    plans = []
    for value in _probe_values(ctx, address):
        try:
            plans.append(build_plan(answers_from_flat({**ctx.flat, address: value})))
        except (UsageError, ValueError, TypeError, ZeroDivisionError):
            continue
    return plans


def _probe_values(ctx, address: str) -> list:
    name = verl_to_field().get(address, address)
    section, _, attr = name.partition(".")
    current = getattr(getattr(ctx.answers, section, None), attr, None) if attr else ctx.flat.get(address)
    allowed = verl_schema.allowed_values(address) or ()
    out: list = [v for v in allowed if v != current][:4]
    if isinstance(current, bool):
        out.append(not current)
    elif isinstance(current, int):
        out.extend({current + 1, current * 2 + 1, 3, 7, 12} - {current})
    elif isinstance(current, float):
        out.extend([current * 2 + 0.5, 0.1])
    elif current is None:
        out.extend([2, 7, True, "probe"])
    elif isinstance(current, str) and not allowed:
        out.append(current + "-probe")
    if address == "model_engine" or name == "engine.strategy":
        out.extend(["megatron", "dp", "fsdp"])
    return out


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
