"""The rules engine: every rule over answers + plan, with fixes checked before they are offered.

One engine serves the TUI, `new` and `check`. A rule is a function `(ctx) -> iterable of Finding`,
registered per family in the modules beside this one. `evaluate` runs them all; for each error it keeps
only the fixes that, applied to the answers, make that finding go away without adding an error of the
same family (so a one-key fix never trades one mistake for another).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from wizard.core.answers.model import Answers
from wizard.core.findings import Finding, Severity
from wizard.core.plan import Plan, build_plan

if TYPE_CHECKING:
    from wizard.core.rules.fix_checks import KeptFixChecks

Rule = Callable[["RuleContext"], Iterable[Finding]]


@dataclass(frozen=True)
class RuleContext:
    """What the rules see. `topology`, `models`, `data` and `paths` are filled in when detected, pasted or read."""

    answers: Answers
    plan: Plan
    flat: dict[str, Any] = field(default_factory=dict)
    mode: str = "local"  # "local": paths are checked on this machine; "cluster": they are not
    topology: Any = None
    models: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, Any] = field(default_factory=dict)  # path -> wizard.core.paths.LocalPath (this machine's)
    deploy: Any = None
    env: Any = None  # frozenset of the run's secret variables set in this machine's environment; None: not known
    script: Any = None  # the LaunchScript `check` read (overrides with their +/~ prefixes, shell problems)
    unknowns: Any = None  # core.unknowns.Unknowns: keys a script leaves unknown; rules that read them are skipped
    # False where `check` read a verl config or a launch script: nothing says where it runs (the rules that judge
    # the target the answers name, such as DEPLOY-017's one-node local Ray, say nothing then).
    target_known: bool = True


def _registry() -> list[tuple[Rule, tuple[str, ...]]]:
    from wizard.core.rules.registry import MODULES

    return [(rule, module.FAMILIES) for module in MODULES for rule in module.RULES]


_RULES: list[tuple[Rule, tuple[str, ...]]] | None = None


def registered() -> list[tuple[Rule, tuple[str, ...]]]:
    """Every rule with the id prefixes its module declares, in evaluation order."""
    global _RULES
    if _RULES is None:
        _RULES = _registry()
    return _RULES


def context_for(answers: Answers, flat: dict | None = None, **kwargs: Any) -> RuleContext:
    return RuleContext(answers=answers, plan=build_plan(answers), flat=dict(flat or {}), **kwargs)


def run_rules(ctx: RuleContext, family: str | None = None) -> list[Finding]:
    """All findings, unverified fixes, optionally only those of one family prefix (e.g. "BATCH").

    With a family, only the modules that declare it run (the others cannot emit its ids).
    """
    findings: list[Finding] = []
    for rule, families in registered():
        if family is not None and family not in families:
            continue
        for finding in _run(rule, ctx):
            if family is None or finding.id.startswith(family + "-"):
                findings.append(finding)
    return findings


def _run(rule: Rule, ctx: RuleContext):
    """The rule's findings; with unknown keys, none when the rule read one of them (it is recorded as skipped)."""
    if not ctx.unknowns:
        return rule(ctx)
    from wizard.core.unknowns import rule_ids, run_tracked

    found, read = run_tracked(rule, ctx)
    if not read:
        return found
    ids = rule_ids(rule) or tuple(dict.fromkeys(f.id for f in found)) or (rule.__name__,)
    for address in read:
        ctx.unknowns.skipped.setdefault(address, set()).update(ids)
    return []


def evaluate(ctx: RuleContext, kept: KeptFixChecks | None = None) -> list[Finding]:
    """All findings, errors first, each error and warning carrying only fixes that were checked to work.

    `kept` (held by a caller that evaluates again after each edit, as the TUI's session does) keeps the fix
    checks' results across evaluations: see KeptFixChecks.
    """
    from wizard.core.rules.fix_checks import FixChecks, with_working_fixes

    findings = run_rules(ctx)
    checks = FixChecks(ctx, kept)
    checked = [
        with_working_fixes(f, findings, checks) if f.severity is not Severity.INFO and f.fixes else f for f in findings
    ]
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted(checked, key=lambda f: (order[f.severity], f.id))


def flat_after_fix(flat: dict[str, Any], fix_set: dict[str, Any]) -> dict[str, Any]:
    """The flat answers after setting the fix's keys (None removes a key)."""
    from wizard.core.layers import canonical_address

    flat = dict(flat)
    for key, value in fix_set.items():
        address = canonical_address(key)
        if value is None:
            flat.pop(address, None)
        else:
            flat[address] = value
    return flat


def with_flat(ctx: RuleContext, flat: dict[str, Any]) -> RuleContext:
    """The context with these flat answers (and the answers and plan made from them), the rest as it is."""
    from wizard.core.layers import answers_from_flat

    answers = answers_from_flat(flat)
    return replace(ctx, answers=answers, plan=build_plan(answers), flat=flat)


def apply_fix(ctx: RuleContext, fix_set: dict[str, Any]) -> RuleContext:
    """The context after setting the fix's keys (None removes a key) on the flat answers."""
    return with_flat(ctx, flat_after_fix(ctx.flat, fix_set))
