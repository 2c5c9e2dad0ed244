"""Each entry of BEYOND_VERL, on its own example: we report that error, and verl lets the config through.

The example is the smallest change to tests/conftest.py's BASE (a GRPO config every rule passes) that
shows the strictness; every error we report on it must be a beyond-verl one, so the example isolates it.
The default run asks the re-derived checks; the conformance tier asks verl 0.9.1 itself.
"""

from __future__ import annotations

import pytest

from tests.agreement import verl_model
from tests.agreement.agreement import BEYOND_VERL, beyond_entry
from tests.agreement.ours import judge_layered
from tests.agreement.sides import config_dir, model_side, request_for, verl_side
from tests.conftest import BASE
from wizard.core.layers import build

ENTRIES = [pytest.param(entry, id=f"{entry.rule}: {entry.name}") for entry in BEYOND_VERL]


def rendered_example(entry):
    values = {**BASE, **entry.example}
    return judge_layered("BASE", entry.example, build([("test", values)]))


@pytest.mark.parametrize("entry", ENTRIES)
def test_example_shows_the_strictness_and_nothing_else(entry):
    rendered = rendered_example(entry)
    side = model_side(rendered)
    facts = verl_model.Facts(side.config)
    assert any(f.id == entry.rule and beyond_entry(f, facts) is entry for f in rendered.errors), (
        f"no {entry.rule} error that this entry covers; errors: {[(f.id, f.message) for f in rendered.errors]}"
    )
    others = [f"{f.id}: {f.message}" for f in rendered.errors if beyond_entry(f, facts) is None]
    assert not others, f"the example also has errors verl shares: {others}"
    assert not side.rejects, f"the re-derived verl checks reject the example: {side.failed}"


def test_base_passes_our_rules_and_verl():
    rendered = judge_layered("BASE", {}, build([("test", dict(BASE))]))
    assert not rendered.errors and not model_side(rendered).rejects


@pytest.mark.conformance
def test_verl_0_9_1_accepts_every_example(oracle, tmp_path):
    rendered = {entry.name: rendered_example(entry) for entry in BEYOND_VERL}
    requests = {name: request_for(config_dir(tmp_path, r), r) for name, r in rendered.items()}
    answers = oracle.judge_many(list(requests.values()))
    for name, r in rendered.items():
        side, calibration = verl_side(answers[requests[name]["dir"]], r)
        assert not side.rejects, f"{name}: verl 0.9.1 rejects the example: {side.failed}"
        assert not calibration, f"{name}: {calibration}"
