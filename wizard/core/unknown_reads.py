"""Running one rule on answers, plan and flat values that record what it reads (wizard.core.unknowns says why).

A rule that reads an unknown key, directly or through a derived number of the plan that depends on it, is listed
as skipped by the engine (wizard.core.rules.running) and its findings dropped.
"""

from __future__ import annotations

import inspect
import re
from functools import lru_cache
from typing import Any

from wizard.core import verl_schema
from wizard.core.answers.model import SECTIONS
from wizard.core.field_keys import address_of, verl_to_field
from wizard.core.layers import answers_from_flat
from wizard.core.plan import build_plan
from wizard.core.unknowns import Unknowns
from wizard.errors import UsageError


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
