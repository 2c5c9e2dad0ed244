"""The re-derived verl checks reject each case of tests/core/test_verl_checks.py that they model.

Those cases are the project's record of configs verl 0.9.1 refuses, one per check; the model must
refuse each of them (and accept the bases), or the agreement test would compare against a model that
lets verl's refusals through. The conformance tier checks the model against verl itself as well.
"""

from __future__ import annotations

import pytest

from tests.agreement.ours import judge_layered
from tests.agreement.sides import model_side
from tests.conftest import BASE
from tests.core.test_verl_checks import CASES, GAE, MEGATRON
from wizard.core.layers import build

# verl's checks the model re-derives (the others are outside the generator: registries, pools, data).
MODELLED = (
    "B1",
    "B2",
    "B3",
    "B4",
    "B6",
    "B7",
    "B8",
    "B10",
    "B12",
    "B13",
    "B15",
    "B16",
    "C1 rollout",
    "C8",
    "C9",
    "C10",
    "C12",
    "C13",
    "C14",
)


# Cases whose label claims a verl refusal that verl's code does not make (see BEYOND_VERL).
NOT_REFUSED: dict[str, str] = {}
SELECTED = [c for c in CASES if c[0].startswith(MODELLED) and c[0] not in NOT_REFUSED]


def verl_verdict(values: dict) -> list:
    rendered = judge_layered("case", values, build([("test", values)]))
    return model_side(rendered).failed


def apply(base: dict, overrides: dict) -> dict:
    values = dict(base)
    for key, value in overrides.items():
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    return values


@pytest.mark.parametrize("check, base, overrides, rule_id", SELECTED, ids=[c[0] for c in SELECTED])
def test_model_rejects_the_case(check, base, overrides, rule_id):
    assert verl_verdict(apply(base, overrides)), f"{check}: the re-derived checks accept it"


@pytest.mark.parametrize("check", sorted(NOT_REFUSED))
def test_cases_verl_does_not_refuse_are_accepted_by_the_model(check):
    _, base, overrides, _ = next(c for c in CASES if c[0] == check)
    assert verl_verdict(apply(base, overrides)) == [], NOT_REFUSED[check]


@pytest.mark.parametrize(
    "base",
    [BASE, GAE, {**MEGATRON, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 2}],
    ids=["grpo", "gae", "megatron"],
)
def test_model_accepts_the_bases(base):
    assert verl_verdict(dict(base)) == []
