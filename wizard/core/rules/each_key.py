"""Rules that judge keys one at a time, so that a fix check after removing a key re-judges only that key.

Most rules read a few named keys; a rule that goes through every key (every unknown key of a config, every
override of a script) is written as three parts instead of one function:

- `setup(ctx)`: what every key's judgement shares (the key tree, the script's keys), once per context;
- `keys(ctx, shared)`: the (address, item, value) triples to judge, the value being the key's value in the
  answers or ABSENT;
- `judge(shared, item, value)`: the findings for one item, from the shared part, the item and the key's
  value alone (it is never given the context).

`each_key` turns them into an ordinary rule (a function of the context, with the judge's name and docstring)
that also carries the parts, which the fix checks (wizard.core.rules.key_local) use: removing a key leaves
every other key's findings as they were, as long as the setup did not read the removed key.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from wizard.core.findings import Finding


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()  # the value of a key that is not set


@dataclass(frozen=True)
class EachKey:
    """The parts of a rule that judges keys one at a time (see the module's docstring).

    `gone_when_unset`: the items are the keys that are set (the extra keys), so an unset key has no item
    and no findings; otherwise an item stays (a script's override) and is judged again with ABSENT.
    """

    setup: Callable[[Any], Any]
    keys: Callable[[Any, Any], Iterable[tuple[str, Any, Any]]]
    judge: Callable[[Any, Any, Any], Iterable[Finding]]
    gone_when_unset: bool

    def findings_unset(self, shared: Any, item: Any) -> list[Finding]:
        """The item's findings once its key is removed from the answers."""
        return [] if self.gone_when_unset else list(self.judge(shared, item, ABSENT))


def each_key(
    setup: Callable[[Any], Any], keys: Callable[[Any, Any], Iterable[tuple[str, Any, Any]]], *, gone_when_unset: bool
):
    """Decorate a judge `(shared, item, value) -> findings` into a rule `(ctx) -> findings` that carries `EachKey`."""

    def wrap(judge: Callable[[Any, Any, Any], Iterable[Finding]]):
        parts = EachKey(setup, keys, judge, gone_when_unset)

        @functools.wraps(judge)
        def rule(ctx) -> Iterable[Finding]:
            shared = setup(ctx)
            for _address, item, value in keys(ctx, shared):
                yield from judge(shared, item, value)

        rule.each_key = parts  # type: ignore[attr-defined]
        return rule

    return wrap


def extra_keys(ctx, shared) -> Iterable[tuple[str, Any, Any]]:
    """The answers' extra keys (verl keys with no answer field) as (address, key, value)."""
    for key, value in ctx.answers.extra.items():
        yield key, key, value
