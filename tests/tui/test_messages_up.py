"""A field's switch or list goes up as a message (issue 29, part C): the row posts FieldRow.Edited and the app
applies it. Typed text is applied in the keystroke's own call (one frame: test_repaint.py), so it posts none;
what a row shows (its start value, a value a step repaints) is never an edit."""

from __future__ import annotations

import pytest

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.tui.app import WizardApp
from wizard.tui.steps import STEPS

SWITCH = "batch.use_dynamic_bsz"
TYPED = "batch.train_batch_size"


@pytest.fixture
def heard(monkeypatch) -> list[tuple]:
    """What the app's handler of FieldRow.Edited received, in order."""
    received: list[tuple] = []
    handler = WizardApp.on_field_row_edited

    def on_edited(self, message):
        received.append((message.field_name, message.value))
        handler(self, message)

    monkeypatch.setattr(WizardApp, "on_field_row_edited", on_edited)  # Textual finds a handler on the class
    return received


async def test_a_switch_reaches_the_app_as_an_edited_message_and_typing_applies_at_once(tmp_path, heard):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("batch")
        await pilot.pause()
        before = app.session.value(SWITCH)
        switch = app.screen.row_for(SWITCH).input_widget
        switch.focus()
        await pilot.press("space")
        await pilot.pause()
        assert heard == [(SWITCH, not before)]
        assert app.session.value(SWITCH) is (not before) and app.session.source_of(SWITCH) == "edited"
        widget = await edit_at_end_of(app, pilot, TYPED)
        typed = widget.value + "0"
        await pilot.press("0")
        await pilot.pause()
        assert heard == [(SWITCH, not before)]  # no message for typed text
        assert app.session.value(TYPED) == int(typed) and app.session.source_of(TYPED) == "edited"


async def test_values_shown_on_every_step_are_no_edits(tmp_path, heard):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        for step in STEPS:
            app.goto(step)
            await pilot.pause()
            await pilot.pause()
        assert app.step == "review" and app.screen.STEP == "review"
        assert heard == [] and not app.unsaved
