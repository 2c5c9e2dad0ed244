"""Running the registered rules: every rule with the id prefixes it emits, one family's, and unknown keys' skips.

The registry (wizard.core.rules.registry) imports the engine's modules; their `@rule` functions, in module
order and then definition order, are the rules; a module's families are the prefixes of the ids its rules
declare (wizard.core.rules.declare), so the fix checks re-run only the modules that can emit a family.
"""

from __future__ import annotations

from collections.abc import Iterable

from wizard.core.findings import Finding
from wizard.core.rule_context import Rule, RuleContext
from wizard.core.rules.declare import families_in, rules_in
from wizard.core.rules.registry import MODULES
from wizard.core.unknown_reads import rule_ids, run_tracked


def _registry() -> list[tuple[Rule, tuple[str, ...]]]:
    return [(rule, families_in(module.__name__)) for module in MODULES for rule in rules_in(module.__name__)]


_RULES: list[tuple[Rule, tuple[str, ...]]] | None = None


def registered() -> list[tuple[Rule, tuple[str, ...]]]:
    """Every rule with the id prefixes its module declares, in evaluation order."""
    global _RULES
    if _RULES is None:
        _RULES = _registry()
    return _RULES


def run_rules(ctx: RuleContext, family: str | None = None) -> list[Finding]:
    """All findings, unverified fixes, optionally only those of one family prefix (e.g. "BATCH").

    With a family, only the modules that declare it run (the others cannot emit its ids).
    """
    findings: list[Finding] = []
    for rule, families in registered():
        if family is not None and family not in families:
            continue
        for finding in run_rule(rule, ctx):
            if family is None or finding.id.startswith(family + "-"):
                findings.append(finding)
    return findings


def run_rule(rule: Rule, ctx: RuleContext) -> Iterable[Finding]:
    """The rule's findings; with unknown keys, none when the rule read one of them (it is recorded as skipped)."""
    if not ctx.unknowns:
        return rule(ctx)
    found, read = run_tracked(rule, ctx)
    if not read:
        return found
    ids = rule_ids(rule) or tuple(dict.fromkeys(f.id for f in found)) or (rule.__name__,)
    for address in read:
        ctx.unknowns.skipped.setdefault(address, set()).update(ids)
    return []
