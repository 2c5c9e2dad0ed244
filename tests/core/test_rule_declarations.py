"""A rule is declared once, beside its logic: the declarations make the catalogue, the engine's rules and the
families the fix checks re-run, and a finding takes its severity and reason from its id's declaration."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import findings_for
from tests.core.test_verl_checks import CASES
from wizard.core.findings import FAMILY_OF_PREFIX, Severity
from wizard.core.presets import load_preset, preset_names
from wizard.core.rules import declare as declarations
from wizard.core.rules.catalogue import CATALOGUE
from wizard.core.rules.declare import emits, families_in, ids_of, make_finding, rule, rule_for, rules_in

ROOT = Path(__file__).resolve().parents[2]
DECLARATION = re.compile(r"(?:@rule|@emits|\bdeclare)\(\s*\"([A-Z]+-\d{3})\",\s*Severity\.")
# Ids one rule emits at two severities on purpose (the rest always at the declared one), each with where.
TWO_SEVERITIES = {
    "PLACE-008": "an estimate near the GPU's memory is a warning, over it an error (roles/model_files.py)",
    "DATA-005": "a few long prompts that filter_overlong_prompts drops are an info, many a warning (data/lengths.py)",
    "DATA-006": "pairs whose two answers are identical are a warning, broken pairs an error (data/chats.py)",
}


def _declared_in_source() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "wizard").rglob("*.py")):
        if path.name == "declare.py" and path.parent.name == "rules":
            continue  # the mechanism: its docstring shows a declaration's shape
        for rule_id in DECLARATION.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rule_id, []).append(str(path.relative_to(ROOT)))
    return found


def test_every_catalogue_id_is_declared_once_in_the_rules_package():
    found = _declared_in_source()
    assert set(found) == set(CATALOGUE)
    twice = {rule_id: where for rule_id, where in found.items() if len(where) != 1}
    assert not twice
    assert all(where[0].startswith("wizard/core/rules/") for where in found.values())


def test_the_catalogue_is_in_family_order_then_by_number():
    families = list(FAMILY_OF_PREFIX)
    ids = list(CATALOGUE)
    assert ids == sorted(ids, key=lambda i: (families.index(i.split("-")[0]), int(i.split("-")[1])))


def test_a_second_declaration_of_an_id_is_refused(monkeypatch):
    monkeypatch.setattr(declarations, "DECLARED", {})
    declarations.declare("TEST-001", Severity.ERROR, title="t", why="w")
    with pytest.raises(ValueError, match="TEST-001 is declared twice"):
        declarations.declare("TEST-001", Severity.WARNING, title="t", why="w")


def test_rules_register_in_definition_order_and_helpers_do_not(monkeypatch):
    monkeypatch.setattr(declarations, "DECLARED", {})
    monkeypatch.setattr(declarations, "_ENGINE_RULES", {})
    monkeypatch.setattr(declarations, "_IDS", {})

    @rule("TEST-001", Severity.ERROR, title="t1", why="w1")
    @rule_for("OTHER-009")
    def first(ctx):
        yield make_finding("TEST-001", ["a"], "m")

    @emits("TEST-002", Severity.WARNING, title="t2", why="w2")
    def helper(ctx):
        yield make_finding("TEST-002", ["b"], "m")

    @rule_for("TEST-002")
    def second(ctx):
        yield from helper(ctx)

    assert rules_in(__name__) == [first, second]
    assert ids_of(first) == ("TEST-001", "OTHER-009") and ids_of(helper) == ()
    assert families_in(__name__) == ("TEST", "OTHER")
    made = [*first(None), *second(None)]
    assert [(f.id, f.severity, f.why) for f in made] == [
        ("TEST-001", Severity.ERROR, "w1"),
        ("TEST-002", Severity.WARNING, "w2"),
    ]


def _all_findings():
    for _, base, overrides, _ in CASES:
        yield from findings_for(overrides, base)
    for name in preset_names():
        yield from findings_for({}, load_preset(name).values)


def test_findings_carry_their_declared_reason_and_severity():
    seen = set()
    for finding in _all_findings():
        doc = CATALOGUE[finding.id]
        assert finding.why == doc.why, finding.id
        if finding.id not in TWO_SEVERITIES:
            assert finding.severity.value == doc.severity, finding.id
        seen.add(finding.id)
    assert len(seen) >= 20  # the cases reach most families
