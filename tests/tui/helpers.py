"""Build the real app for Pilot and snapshot tests: fixed size, a fake topology, no real hardware."""

from __future__ import annotations

import argparse

from wizard.commands.tui import build_app


def make_app(
    preset: str | None = "grpo-8b-1x8",
    out: str = "verl-run",
    topology: str | None = "8xH100",
    lang: str = "en",
    answers: str | None = None,
):
    return build_app(argparse.Namespace(preset=preset, answers=answers, topology=topology, lang=lang, out=out))


async def edit_at_end_of(app, pilot, field: str, step: str | None = None):
    """Go to the field's step (if given), focus its input with the cursor after its text; return the input."""
    if step:
        app.goto(step)
        await pilot.pause()
    widget = app.screen.row_for(field).input_widget
    widget.cursor_blink = False  # no frames from the blink
    widget.focus()
    await pilot.press("end")  # focus selects the whole value
    await pilot.pause()
    await pilot.pause()
    return widget
