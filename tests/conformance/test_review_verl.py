"""Review's "Ask verl" (`tui --verl`) against the real verl 0.9.1 (VERL_PYTHON): the workshop preset's config.yaml,
as the wizard would write it, is accepted by verl 0.9.1 in its own compose and start-up checks."""

from __future__ import annotations

import time

import pytest
from textual.widgets import Button

from wizard.cli import parse
from wizard.commands.tui import build_app

pytestmark = pytest.mark.conformance


async def test_review_asks_verl_and_0_9_1_accepts_the_workshop_preset(tmp_path, verl_python):
    app = build_app(
        parse(
            [
                "tui",
                "--preset",
                "workshop-grpo-0.5b-1gpu",
                "--out",
                str(tmp_path / "out"),
                "--verl",
                verl_python,
                "--timeout",
                "300",
            ]
        )
    )
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.goto("review")
        await pilot.pause()
        await pilot.pause()
        button = app.screen.query_one("#verl-run", Button)
        button.press()
        await pilot.pause()
        deadline = time.monotonic() + 320  # verl 0.9.1 imports torch: several seconds, more on a loaded machine
        while button.disabled or not str(app.screen.query_one("#verl-findings").render()).strip():
            await pilot.pause(0.5)
            assert time.monotonic() < deadline, "verl did not answer"
        status = str(app.screen.query_one("#verl-status").render())
        lines = str(app.screen.query_one("#verl-findings").render())
    assert status == "verl on this config.yaml: 0 error(s), 0 warning(s)", lines
    assert lines.startswith(f"i verl 0.9.1 of {verl_python} accepts it (compose, ") and "validate_config" in lines
