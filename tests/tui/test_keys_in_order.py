"""Editing keys apply in the order typed, however fast they come (issue 18, item 3).

The keys are posted to the app all at once, as the terminal driver hands over a burst, before the app has
processed any of them: a backspace must not be applied after the characters typed behind it.
"""

from __future__ import annotations

from textual import events

from tests.tui.helpers import make_app


def _post_burst(app, keys: list[str]) -> None:
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


async def _burst_into(app, pilot, widget, keys: list[str]) -> str:
    widget.focus()
    await pilot.pause()
    _post_burst(app, keys)
    for _ in range(10):
        await pilot.pause()
    return widget.value


async def test_clear_then_type_in_a_field_keeps_the_typed_text(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("models")
        await pilot.pause()
        widget = app.screen.row_for("models.actor_path").input_widget
        old = widget.value
        keys = ["end", *["backspace"] * len(old), *"org/new-model"]
        assert await _burst_into(app, pilot, widget, keys) == "org/new-model"
        assert app.session.value("models.actor_path") == "org/new-model"


async def test_cursor_moves_and_deletes_apply_between_the_characters_typed_around_them(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("review")
        await pilot.pause()
        widget = app.screen.query_one("#out-dir")
        keys = ["ctrl+u", *"abc", "left", "left", "x", "end", "backspace", "d"]
        assert await _burst_into(app, pilot, widget, keys) == "axbd"


async def test_characters_alone_were_always_in_order(tmp_path):
    # The neighbour: printable keys never took the long way round.
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("review")
        await pilot.pause()
        widget = app.screen.query_one("#out-dir")
        widget.value = ""
        assert await _burst_into(app, pilot, widget, list("/tmp/some/folder")) == "/tmp/some/folder"
