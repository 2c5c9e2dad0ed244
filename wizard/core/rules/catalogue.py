"""Every rule id with its severity, a one-line title and the reason it exists, gathered from the declarations.

Ids are stable: add new ones, never reuse one. Each id is declared once, beside the code that makes its
findings (wizard.core.rules.declare: `@rule` on an engine rule, `@emits` on a helper or on code the engine does
not run, `declare` for an id made outside wizard.core.rules). This module imports every module that declares
ids, so CATALOGUE is complete; `explain` prints it and docs/rules.md is generated from it, in family order.
"""

from __future__ import annotations

from wizard.core.findings import FAMILY_OF_PREFIX
from wizard.core.rules import registry
from wizard.core.rules.declare import DECLARED, RuleDoc, why
from wizard.core.rules.env import machine, nodes, packages
from wizard.core.rules.verl import tree, verdict

__all__ = ["CATALOGUE", "DECLARING_MODULES", "RuleDoc", "about_this_machine", "why"]

# The modules whose declarations the catalogue holds: the engine's, and those of the rules it does not run.
DECLARING_MODULES = (*registry.MODULES, machine, nodes, packages, verdict, tree)
_FAMILY_ORDER = {prefix: n for n, prefix in enumerate(FAMILY_OF_PREFIX)}


def _order(rule_id: str) -> tuple[int, int]:
    prefix, _, number = rule_id.partition("-")
    return _FAMILY_ORDER.get(prefix, len(_FAMILY_ORDER)), int(number)


CATALOGUE: dict[str, RuleDoc] = {rule_id: DECLARED[rule_id] for rule_id in sorted(DECLARED, key=_order)}


def about_this_machine(rule_id: str) -> bool:
    """Whether the rule judges the machine the wizard runs on rather than the run (its findings stay out of RUN.md)."""
    doc = CATALOGUE.get(rule_id)
    return doc is not None and doc.about == "machine"
