"""Which tier a run is: the default run keeps sizes small, CI's conformance step (-m conformance) runs the large ones."""

from __future__ import annotations

import pytest

# pytest's own evaluator of -m expressions: the default run's "not (conformance or ...)" names the tier too
from _pytest.mark.expression import Expression


def large_run_selected(config: pytest.Config) -> bool:
    """True when this pytest run's -m expression selects the conformance tier (``-m conformance``)."""
    markexpr = (config.getoption("markexpr", default="") or "").strip()
    return bool(markexpr) and Expression.compile(markexpr).evaluate(lambda name, **_: name == "conformance")


def skip_unless_conformance(request: pytest.FixtureRequest) -> None:
    """Skip a large run unless the conformance tier was selected."""
    if not large_run_selected(request.config):
        pytest.skip("large run: CI's conformance step runs it (pytest -m conformance)")
