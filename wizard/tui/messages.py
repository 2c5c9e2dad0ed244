"""Messages that travel up to the app ("attributes down, messages up"): fixes, jumps and step changes, which
the findings panel, the step list and the steps send.

A change that belongs to one widget or screen is a message declared on it, as Textual declares Switch.Changed
(a field's edit is FieldRow.Edited, a topology HardwareScreen.TopologyChosen); the app handles those too.
"""

from __future__ import annotations

from textual.message import Message

from wizard.core.findings import Finding, Fix


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
