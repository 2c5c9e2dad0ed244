"""`verl-wizard explain`: every catalogued rule explains itself; unknown ids are refused with a hint."""

from __future__ import annotations

import pytest

from tests.cli.helpers import cli
from wizard.core.rules.catalogue import CATALOGUE


@pytest.mark.parametrize("rule_id", ["BATCH-001", "KEY-003", "place-001"])
def test_explain_prints_title_and_reason(rule_id):
    proc = cli("explain", rule_id)
    doc = CATALOGUE[rule_id.upper()]
    assert proc.returncode == 0 and doc.title in proc.stdout and doc.why in proc.stdout


def test_explain_unknown_rule_suggests_the_closest():
    proc = cli("explain", "BATCH-01")
    assert proc.returncode == 2 and "did you mean" in proc.stderr


def test_every_rule_that_fires_is_catalogued():
    import inspect

    from wizard.core.rules.batch import train_batch as batch
    from wizard.core.rules.placement import groups as placement
    from wizard.core.rules.roles import assign as roles
    from wizard.core.rules.schema import keys as schema

    ids = set()
    for module in (batch, placement, roles, schema):
        ids.update(__import__("re").findall(r'"([A-Z]+-\d{3})"', inspect.getsource(module)))
    assert ids and ids <= set(CATALOGUE)
