"""The `serve` fixture: `verl-wizard serve` started for a test, stopped after it, its log checked for tracebacks."""

from __future__ import annotations

import re

import pytest

from tests.serve.helpers import Served, start_serve, stop_quietly


@pytest.fixture
def serve(tmp_path):
    """start_serve(tmp_path, *args); after the test each server is stopped with Ctrl+C and must have exited 0
    without a traceback in its log."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(start_serve(tmp_path, *args))
        return started[-1]

    yield start
    for served in started:
        try:
            assert served.stop() == 0
        finally:
            stop_quietly(served)
        assert_no_traceback(served)


def assert_no_traceback(served: Served) -> None:
    text = "\n".join(served.lines)
    assert "Traceback" not in text and not re.search(r'^\s+File "', text, re.M), text
