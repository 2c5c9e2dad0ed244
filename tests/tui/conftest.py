"""Fixtures shared by the TUI tests."""

from __future__ import annotations

import pytest
from textual.widgets import Input


@pytest.fixture
def steady_cursor(monkeypatch):
    """A focused input's cursor stays shown instead of blinking every half second.

    A picture taken a few hundred milliseconds into a run otherwise catches the blink in either phase,
    so two runs of the same screens differ by one cell; the blink is a timer, not what these tests judge.
    """
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A test that opens the wizard in Chinese leaves the next test in English (the language is module state)."""
    yield
    from wizard.i18n import set_language

    set_language("en")
