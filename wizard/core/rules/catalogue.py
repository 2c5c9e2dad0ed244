"""Every rule id with its severity, a one-line title and the reason it exists.

Ids are stable: add new ones, never reuse one. Findings take their `why` from here, `explain` prints
it, and the README's rule table is generated from it. Rules marked `later` are reserved for checks that
need a model file, a data file or hardware detection and arrive with their own modules.

The entries are written one module per family (catalogue_roles, catalogue_batch, catalogue_placement,
catalogue_data, catalogue_deploy, catalogue_schema, catalogue_script); a new rule's entry goes there.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.rules import (
    catalogue_batch,
    catalogue_data,
    catalogue_deploy,
    catalogue_placement,
    catalogue_roles,
    catalogue_schema,
    catalogue_script,
)


@dataclass(frozen=True)
class RuleDoc:
    id: str
    severity: str
    title: str
    why: str


_RULES = [
    *catalogue_roles.ENTRIES,
    *catalogue_batch.ENTRIES,
    *catalogue_placement.ENTRIES,
    *catalogue_data.ENTRIES,
    *catalogue_deploy.ENTRIES,
    *catalogue_schema.ENTRIES,
    *catalogue_script.ENTRIES,
]

CATALOGUE: dict[str, RuleDoc] = {r[0]: RuleDoc(*r) for r in _RULES}


def why(rule_id: str) -> str:
    return CATALOGUE[rule_id].why
