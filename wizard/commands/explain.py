"""`verl-wizard explain RULE-ID`: what a rule checks and why it matters."""

from __future__ import annotations

import argparse
import difflib

from wizard.commands.output import emit
from wizard.core.findings import FAMILY_OF_PREFIX
from wizard.core.rules.catalogue import CATALOGUE
from wizard.errors import UsageError
from wizard.i18n import language, rule_text, set_language


def register(subparsers) -> None:
    p = subparsers.add_parser("explain", help="explain a rule id (e.g. BATCH-001)")
    p.add_argument("rule_id")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the title and the reason")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rule_id = args.rule_id.strip().upper()
    doc = CATALOGUE.get(rule_id)
    if doc is None:
        close = difflib.get_close_matches(rule_id, list(CATALOGUE), n=1)
        hint = f"; did you mean {close[0]}?" if close else "; ids look like BATCH-001, ROLE-002, PLACE-004, KEY-001"
        raise UsageError(f"explain {args.rule_id}: no such rule{hint}")
    family = FAMILY_OF_PREFIX[rule_id.split("-")[0]]
    before = language()
    set_language(getattr(args, "lang", "en"))
    try:  # the language is the process's: main() called in-process (the tests) gets it back
        title, why = rule_text(doc.id, doc.title, doc.why)
    finally:
        set_language(before)
    emit(f"{doc.id} ({doc.severity}, {family}): {title}\n\n{why}")
    return 0
