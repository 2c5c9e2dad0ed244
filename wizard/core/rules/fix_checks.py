"""Fix checks: a fix is offered only if, applied to the answers, it removes its finding and adds no error
of the finding's family.

A check runs the family's rules (the modules that declare it) on the answers after the fix, the rest of
the context as it is. Within one evaluation a fix offered by several findings is checked once. Across
evaluations (the TUI evaluates after every keystroke) KeptFixChecks keeps the results by the answers a fix
gives: a fix that sets the edited key to a valid value gives the same answers whatever was typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from wizard.core.findings import Finding, Severity
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

    def findings_after(self, family: str, fix_set: dict[str, Any]) -> list[Finding] | None:
        from wizard.core.rules import flat_after_fix, run_rules, with_flat

        key = (family, _values_key(fix_set))
        if key in self._by_fix:
            return self._by_fix[key]
        flat = flat_after_fix(self.ctx.flat, fix_set)
        answers_key = (family, _values_key(flat)) if self._kept is not None else None
        if answers_key is not None and answers_key in self._kept:
            result = self._kept[answers_key]
        else:
            try:
                result = run_rules(with_flat(self.ctx, flat), family)
            except UsageError:
                result = None
            if answers_key is not None:
                self._kept[answers_key] = result
        self._by_fix[key] = result
        return result


def with_working_fixes(finding: Finding, findings: list[Finding], checks: FixChecks) -> Finding:
    """The finding with only the fixes that remove it and add no error of its family.

    `findings` are all the findings of the context (the rules are pure, so they are the "before" state).
    """
    family = finding.id.split("-")[0]
    prefix = family + "-"

    def errors(found: list[Finding]) -> set[tuple]:
        return {(f.id, f.paths) for f in found if f.severity is Severity.ERROR and f.id.startswith(prefix)}

    before = errors(findings)
    kept = []
    for fix in finding.fixes:
        after_fix = checks.findings_after(family, fix.set)
        if after_fix is None:
            continue
        after = errors(after_fix)
        if (finding.id, finding.paths) not in after and after <= before:
            kept.append(fix)
    return replace(finding, fixes=tuple(kept))


def _values_key(values: dict[str, Any]) -> tuple:
    return tuple(sorted((key, repr(value)) for key, value in values.items()))
