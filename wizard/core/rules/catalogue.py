"""Every rule id with its severity, a one-line title and the reason it exists.

Ids are stable: add new ones, never reuse one. Findings take their `why` from here, `explain` prints
it, and the README's rule table is generated from it. Rules marked `later` are reserved for checks that
need a model file, a data file or hardware detection and arrive with their own modules.

The entries are written one module per family (catalogue_roles, catalogue_batch, catalogue_placement,
catalogue_data, catalogue_deploy, catalogue_schema, catalogue_script); a new rule's entry goes there.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.core.rules.batch import catalogue as catalogue_batch
from wizard.core.rules.data import catalogue as catalogue_data
from wizard.core.rules.deploy import catalogue as catalogue_deploy
from wizard.core.rules.env import catalogue as catalogue_env
from wizard.core.rules.placement import catalogue as catalogue_placement
from wizard.core.rules.roles import catalogue as catalogue_roles
from wizard.core.rules.schema import catalogue as catalogue_schema
from wizard.core.rules.script import catalogue as catalogue_script
from wizard.core.rules.verl import catalogue as catalogue_verl


@dataclass(frozen=True)
class RuleDoc:
    id: str
    severity: str
    title: str
    why: str
    # "run": about the run the files describe; "machine": about the machine the wizard runs on (only the TUI
    # gathers those facts), so the written files leave such findings out and every door writes the same bytes.
    about: str = "run"


_RULES = [
    *catalogue_roles.ENTRIES,
    *catalogue_batch.ENTRIES,
    *catalogue_placement.ENTRIES,
    *catalogue_data.ENTRIES,
    *catalogue_deploy.ENTRIES,
    *catalogue_schema.ENTRIES,
    *catalogue_script.ENTRIES,
    *catalogue_env.ENTRIES,
    *catalogue_verl.ENTRIES,
]

CATALOGUE: dict[str, RuleDoc] = {r[0]: RuleDoc(*r) for r in _RULES}


def why(rule_id: str) -> str:
    return CATALOGUE[rule_id].why


def about_this_machine(rule_id: str) -> bool:
    """Whether the rule judges the machine the wizard runs on rather than the run (its findings stay out of RUN.md)."""
    doc = CATALOGUE.get(rule_id)
    return doc is not None and doc.about == "machine"
