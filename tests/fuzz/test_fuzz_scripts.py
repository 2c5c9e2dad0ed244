"""The hostile-script family of the fuzz tier (issue 28): each input is read within 2 CPU seconds and 512 MiB.

Every input runs `verl-wizard check` in its own process under those limits (tests/fuzz/hostile_scripts.py);
an overrun is a failure, not a hope. The default run takes the issue's reproductions and a few drawn
scripts; the conformance tier (`pytest -m conformance`) draws FUZZ_SCALE times as many.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.agreement.tiers import skip_unless_conformance
from tests.fuzz import tally
from tests.fuzz.hostile_scripts import REPRODUCTIONS, hostile_scripts, run_bounded

SCALE = int(os.environ.get("FUZZ_SCALE", "10"))
QUIET = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def bounded(script: str) -> None:
    with tempfile.TemporaryDirectory(prefix="fuzz-script-") as tmp:
        outcome = run_bounded(script, Path(tmp))
    tally.record("hostile_scripts", outcome.seconds, ["check", "hostile.sh"])
    assert not outcome.problems(), f"{outcome.problems()}\n--- script:\n{script}"


@pytest.mark.parametrize("name", sorted(REPRODUCTIONS))
def test_the_issue_s_scripts_are_read_within_the_budget(name):
    bounded(REPRODUCTIONS[name])


def _drawn(count: int, derandomize: bool) -> None:
    @settings(max_examples=count, derandomize=derandomize, **QUIET)
    @given(hostile_scripts())
    def run(script):
        bounded(script)

    run()


def test_drawn_hostile_scripts_are_read_within_the_budget():
    _drawn(4, True)


@pytest.mark.conformance
def test_drawn_hostile_scripts_are_read_within_the_budget_large(request):
    skip_unless_conformance(request)
    _drawn(40 * SCALE, False)
