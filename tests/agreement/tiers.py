"""Which tier a run is: the default run keeps sizes small, CI's conformance step (-m conformance) runs the large ones."""

from __future__ import annotations

import pytest


def large_run_selected(config: pytest.Config) -> bool:
    """True when this pytest run asked for the conformance tier (``-m conformance``)."""
    return "conformance" in (config.getoption("markexpr", default="") or "")


def skip_unless_conformance(request: pytest.FixtureRequest) -> None:
    """Skip a large run unless the conformance tier was selected."""
    if not large_run_selected(request.config):
        pytest.skip("large run: CI's conformance step runs it (pytest -m conformance)")
