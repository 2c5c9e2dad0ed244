"""Messages that travel up from widgets to the app ("attributes down, messages up")."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from wizard.core.findings import Finding, Fix


class AnswerChanged(Message):
    """A field's value was edited (None: cleared)."""

    def __init__(self, address: str, value: Any) -> None:
        super().__init__()
        self.address = address
        self.value = value


class FixRequested(Message):
    def __init__(self, finding: Finding, fix: Fix) -> None:
        super().__init__()
        self.finding = finding
        self.fix = fix


class JumpRequested(Message):
    """Go to the step and field of a finding's first key."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address


class StepRequested(Message):
    def __init__(self, step: str) -> None:
        super().__init__()
        self.step = step
