"""Fix checks: a fix is offered only if, applied to the answers, it removes its finding and adds no error
of the finding's family.

A check runs the family's rules (the modules that declare it) on the answers after the fix, the rest of
the context as it is. Within one evaluation a fix offered by several findings is checked once. Across
evaluations (the TUI evaluates after every keystroke) KeptFixChecks keeps the results by the answers a fix
gives: a fix that sets the edited key to a valid value gives the same answers whatever was typed.

A fix that only removes extra keys no rule reads by name (a thousand unknown keys' removals) is checked
without running the rules again: wizard.core.rules.key_local, from one pass over the family.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from wizard.core.findings import Finding
from wizard.core.rule_context import flat_after_fix, with_flat
from wizard.core.rules.key_local import KeyLocalChecks, errors_of, fix_works, removes_extra_keys
from wizard.core.rules.running import run_rules
from wizard.errors import UsageError


class KeptFixChecks:
    """Fix checks' results (the family's findings after the fix; None: the fix does not apply) by family and
    the answers after the fix, for one context: mode, topology, model and data facts, deployment and script.

    They are kept while those stay the same (the same objects, as the session reuses the facts it gathered
    while their inputs hold, or equal ones); any other context starts afresh.
    """

    LIMIT = 512

    def __init__(self) -> None:
        self._context: tuple = ()
        self._results: dict[tuple, list[Finding] | None] = {}

    def results_for(self, ctx) -> dict[tuple, list[Finding] | None]:
        context = (ctx.mode, ctx.topology, ctx.models, ctx.data, ctx.deploy, ctx.script)
        same = bool(self._context) and all(a is b or a == b for a, b in zip(context, self._context, strict=False))
        if not same or len(self._results) > self.LIMIT:
            self._context, self._results = context, {}
        return self._results


class FixChecks:
    """The family's findings after a fix, for one evaluation of `ctx` (optionally backed by KeptFixChecks)."""

    def __init__(self, ctx, kept: KeptFixChecks | None = None) -> None:
        self.ctx = ctx
        self._by_fix: dict[tuple, list[Finding] | None] = {}
        self._kept = kept.results_for(ctx) if kept is not None else None
        self._before: dict[str, tuple[list[Finding], Counter]] = {}
        self._local: dict[str, KeyLocalChecks] = {}

    def errors_before(self, family: str, findings: list[Finding]) -> Counter:
        """The family's errors among `findings` (the context's), counted once per family."""
        held = self._before.get(family)
        if held is None or held[0] is not findings:
            held = self._before[family] = (findings, errors_of(findings, family + "-"))
        return held[1]

    def key_local(self, family: str) -> KeyLocalChecks:
        """The family's checks of fixes that remove keys (one pass over its rules, made when first needed)."""
        if family not in self._local:
            self._local[family] = KeyLocalChecks(self.ctx, family)
        return self._local[family]

    def findings_after(self, family: str, fix_set: dict[str, Any]) -> list[Finding] | None:
        key = (family, _values_key(fix_set))
        if key in self._by_fix:
            return self._by_fix[key]
        flat = flat_after_fix(self.ctx.flat, fix_set)
        kept = self._kept
        answers_key = (family, _values_key(flat)) if kept is not None else None
        if kept is not None and answers_key is not None and answers_key in kept:
            result = kept[answers_key]
        else:
            try:
                result = run_rules(with_flat(self.ctx, flat), family)
            except UsageError:
                result = None
            if kept is not None and answers_key is not None:
                kept[answers_key] = result
        self._by_fix[key] = result
        return result


def with_working_fixes(finding: Finding, findings: list[Finding], checks: FixChecks) -> Finding:
    """The finding with only the fixes that remove it and add no error of its family.

    `findings` are all the findings of the context (the rules are pure, so they are the "before" state).
    """
    family = finding.id.split("-")[0]
    before = checks.errors_before(family, findings)
    mine = (finding.id, finding.paths)
    kept = []
    for fix in finding.fixes:
        if removes_extra_keys(checks.ctx, fix.set) and checks.key_local(family).applies(fix.set):
            works = fix_works(finding, before, checks.key_local(family).change(fix.set))
        else:
            after_fix = checks.findings_after(family, fix.set)
            after = errors_of(after_fix, family + "-") if after_fix is not None else None
            works = after is not None and mine not in after and after.keys() <= before.keys()
        if works:
            kept.append(fix)
    return replace(finding, fixes=tuple(kept))


def _values_key(values: dict[str, Any]) -> tuple:
    return tuple(sorted((key, repr(value)) for key, value in values.items()))
