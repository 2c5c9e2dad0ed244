"""Each rule module's families are the prefixes of the ids its rules declare; the engine's fix checks trust them.

A fix is checked by re-running only the modules of the finding's family, so a module that emitted an id
of a family its rules do not declare would let a fix hide an error of that family. Two guards: the ids written
in each module's source, and the ids each rule actually emits over the verl check cases and the presets.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

from tests.conftest import findings_for
from tests.core.test_verl_checks import CASES
from wizard.core.presets import load_preset, preset_names
from wizard.core.rules import running as engine
from wizard.core.rules.catalogue import CATALOGUE
from wizard.core.rules.declare import families_in
from wizard.core.rules.registry import MODULES

RULE_ID = re.compile(r"[\"']([A-Z]+)-\d{3}[\"']")  # an id as a string literal, as rules emit them


@pytest.mark.parametrize("name", [m.__name__.removeprefix("wizard.core.rules.") for m in MODULES])
def test_the_ids_in_a_modules_source_are_of_its_declared_families(name):
    module = importlib.import_module(f"wizard.core.rules.{name}")
    known = {rule_id.split("-")[0] for rule_id in CATALOGUE}
    written = {m.group(1) for m in RULE_ID.finditer(inspect.getsource(module))} & known
    assert written, f"{name} names no rule id"
    families = set(families_in(module.__name__))
    assert written <= families, f"{name} emits {sorted(written - families)} undeclared"


# Families whose findings the engine never makes, each with the reason: their facts come from elsewhere.
OUTSIDE_THE_ENGINE = {
    "ENV": "doctor and preflight judge a probe of the interpreter and machine (wizard.core.rules.env)",
    "VERL": "check --verl turns the installed verl's own verdict into findings (wizard.core.rules.verl.verdict)",
}


def test_every_catalogue_family_is_declared_by_some_module():
    declared = {f for _, families in engine.registered() for f in families}
    assert {rule_id.split("-")[0] for rule_id in CATALOGUE} - set(OUTSIDE_THE_ENGINE) <= declared
    assert not declared & set(OUTSIDE_THE_ENGINE), "a family listed as outside the engine is registered"


def _emitted_outside_family(monkeypatch, run) -> list[str]:
    wrong: list[str] = []

    def guard(rule, families):
        def guarded(ctx):
            for finding in rule(ctx):
                if finding.id.split("-")[0] not in families:
                    wrong.append(f"{rule.__module__}.{rule.__name__} emitted {finding.id}")
                yield finding

        return guarded

    monkeypatch.setattr(engine, "_RULES", [(guard(rule, fams), fams) for rule, fams in engine.registered()])
    run()
    return wrong


def test_rules_emit_only_their_families_over_the_verl_cases_and_presets(monkeypatch):
    def run():
        for _, base, overrides, _ in CASES:
            findings_for(overrides, base)
        for name in preset_names():
            findings_for({}, load_preset(name).values)

    assert _emitted_outside_family(monkeypatch, run) == []


def test_the_guard_sees_an_undeclared_family(monkeypatch):
    # the neighbour that shows the guard above can fail: declare batch rules as KEY only
    def run():
        findings_for({"data.train_batch_size": 65, "actor_rollout_ref.actor.ppo_mini_batch_size": 5})

    monkeypatch.setattr(
        engine,
        "_RULES",
        [(r, ("KEY",) if r.__module__.endswith(".batch.train_batch") else f) for r, f in engine.registered()],
    )
    wrong = _emitted_outside_family(monkeypatch, run)
    assert any("BATCH-" in w for w in wrong)
