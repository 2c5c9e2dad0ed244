"""Fix checks for removing keys, without running the family's rules again for each fix.

A config with a thousand unknown keys has a thousand KEY-001 findings, each offering to remove its key;
checking each removal by running the family's rules again (wizard.core.rules.fix_checks) is quadratic.
This module checks such a fix from one pass over the family's rules on the answers as they are:

- every rule but those that judge keys one at a time (wizard.core.rules.each_key) is run once on a context
  that records which keys of the answers it reads (a rule that goes through a whole mapping reads every
  key), and so is the plan's construction (`build_plan`);
- a rule that judges keys one at a time has its shared part (`setup`) recorded the same way, and each
  key's findings kept.

Removing keys that no recorded read touched changes only the removed keys' own judgements: a rule runs the
same way on answers that differ in keys it never read, and the plan is the same. The family's errors after
the fix are then those before, less the removed keys' judgements, plus their judgements once unset.
Any other fix (setting a value, a key read by name, a typed answer field) is checked by running the
family's rules again, as before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, cast

from wizard.core.answers.model import Answers
from wizard.core.findings import Finding, Severity
from wizard.core.layers import canonical_address
from wizard.core.plan import build_plan
from wizard.core.rules.running import registered, run_rule


class _Reads:
    """The addresses a run read, or `everything` when it went through a whole mapping."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.everything = False


class _ReadDict(dict):
    """A mapping that records the keys read from it; iterating, sizing or copying it reads every key."""

    def __init__(self, data: dict, reads: _Reads) -> None:
        super().__init__(data)
        self._reads = reads

    def get(self, key, default=None):
        self._reads.keys.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self._reads.keys.add(key)
        return super().__getitem__(key)

    def __contains__(self, key) -> bool:
        self._reads.keys.add(key)
        return super().__contains__(key)

    def _all(self) -> dict:
        self._reads.everything = True
        return dict(super().items())

    def items(self):
        return self._all().items()

    def keys(self):
        return self._all().keys()

    def values(self):
        return self._all().values()

    def copy(self) -> dict:
        return self._all()

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other) -> bool:
        return self._all() == other

    def __ne__(self, other) -> bool:
        return self._all() != other

    def __or__(self, other):
        return self._all() | other

    def __ror__(self, other):
        return other | self._all()

    __hash__ = None


class _ReadAnswers:
    """The answers; `extra` records its reads. The answer fields are not recorded: a removed extra key is
    never one of them (each flat address goes either to a field or to `extra`)."""

    def __init__(self, answers, reads: _Reads) -> None:
        self._answers, self._reads = answers, reads

    @property
    def untracked(self):
        self._reads.everything = True  # a scan of every value (wizard.core.unknowns): it reads them all
        return self._answers

    def __getattr__(self, name: str):
        value = getattr(self._answers, name)
        if name == "extra":
            return _ReadDict(value, self._reads)
        if callable(value):  # model_dump, model_copy...: the whole of the answers
            self._reads.everything = True
        return value


def _recording(ctx, reads: _Reads):
    return replace(ctx, answers=_ReadAnswers(ctx.answers, reads), flat=_ReadDict(ctx.flat, reads))


def errors_of(found, prefix: str) -> Counter:
    """(id, paths) of the family's errors, counted."""
    return Counter((f.id, f.paths) for f in found if f.severity is Severity.ERROR and f.id.startswith(prefix))


def _error_keys(found, prefix: str) -> tuple:
    """(id, paths) of each of the family's errors (a key's own, so usually one or none)."""
    return tuple((f.id, f.paths) for f in found if f.severity is Severity.ERROR and f.id.startswith(prefix))


class KeyLocalChecks:
    """One pass over a family's rules on `ctx`, then `change(fix_set)` for any fix that removes extra keys."""

    def __init__(self, ctx, family: str) -> None:
        self.ctx, self.prefix = ctx, family + "-"
        reads = _Reads()
        build_plan(cast(Answers, _ReadAnswers(ctx.answers, reads)))  # a proxy that records what the plan reads
        recording = _recording(ctx, reads)
        self._judged: dict[str, list[tuple[Any, Any, Any, tuple]]] = {}
        for rule, families in registered():
            if family not in families:
                continue
            parts = getattr(rule, "each_key", None)
            if parts is None:
                for _ in rule(recording):
                    pass
                continue
            shared = parts.setup(recording)
            if ctx.unknowns and not list(run_rule(rule, ctx)):
                continue  # skipped for an unknown key it read (or silent): so it stays once a key is removed
            for address, item, value in parts.keys(ctx, shared):
                judged = _error_keys(parts.judge(shared, item, value), self.prefix)
                self._judged.setdefault(address, []).append((parts, shared, item, judged))
        self._read, self._read_everything = reads.keys, reads.everything

    def applies(self, fix_set: dict[str, Any]) -> bool:
        """Whether no recorded read touched the keys the fix removes (see removes_extra_keys)."""
        return not self._read_everything and not any(canonical_address(key) in self._read for key in fix_set)

    def change(self, fix_set: dict[str, Any]) -> Counter:
        """How the family's errors change once the fix's keys are removed: -1 for each one gone, +1 for each new."""
        delta: Counter = Counter()
        for address in {canonical_address(key) for key in fix_set}:
            for parts, shared, item, judged in self._judged.get(address, ()):
                for gone in judged:
                    delta[gone] -= 1
                for new in _error_keys(parts.findings_unset(shared, item), self.prefix):
                    delta[new] += 1
        return delta


def fix_works(finding: Finding, before: Counter, delta: Counter) -> bool:
    """The finding is gone after the fix and no error of its family is new (`before` counted, `delta` the change)."""
    mine = (finding.id, finding.paths)
    return before[mine] + delta[mine] <= 0 and not any(d > 0 and not before[e] for e, d in delta.items())


def removes_extra_keys(ctx, fix_set: dict[str, Any]) -> bool:
    """Whether the fix only removes keys that are set in the answers' `extra` (no answer field)."""
    if not fix_set:
        return False
    for key, value in fix_set.items():
        address = canonical_address(key)
        if value is not None or address not in ctx.flat or address not in ctx.answers.extra:
            return False
    return True
