"""The rules engine: every rule over answers + plan, with fixes checked before they are offered.

One engine serves the TUI, `new` and `check`. A rule is a function `(ctx) -> iterable of Finding`, declared
with `@rule` (wizard.core.rules.declare) in the family modules beside this one. `evaluate` runs them all; for
each error it keeps only the fixes that, applied to the answers, make that finding go away without adding an
error of the same family (so a one-key fix never trades one mistake for another).
"""

from __future__ import annotations

from wizard.core.findings import Finding, Severity
from wizard.core.rule_context import Rule, RuleContext, apply_fix, context_for, flat_after_fix, with_flat
from wizard.core.rules.fix_checks import FixChecks, KeptFixChecks, with_working_fixes
from wizard.core.rules.running import registered, run_rules

__all__ = [
    "KeptFixChecks",
    "Rule",
    "RuleContext",
    "apply_fix",
    "context_for",
    "evaluate",
    "flat_after_fix",
    "registered",
    "run_rules",
    "with_flat",
]


def evaluate(ctx: RuleContext, kept: KeptFixChecks | None = None) -> list[Finding]:
    """All findings, errors first, each error and warning carrying only fixes that were checked to work.

    `kept` (held by a caller that evaluates again after each edit, as the TUI's session does) keeps the fix
    checks' results across evaluations: see KeptFixChecks.
    """
    findings = run_rules(ctx)
    checks = FixChecks(ctx, kept)
    checked = [
        with_working_fixes(f, findings, checks) if f.severity is not Severity.INFO and f.fixes else f for f in findings
    ]
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted(checked, key=lambda f: (order[f.severity], f.id))
