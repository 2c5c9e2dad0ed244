"""The focused control is visible without colour (issue 32): its border is drawn with other characters
(double lines) than the unfocused ones (tall blocks), so a screen without colour still shows where keys go."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.tui.textual_compat import screen_strips


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _top_line(screen, widget) -> str:
    region = screen.find_widget(widget).region
    return screen_strips(screen)[region.y].crop(region.x, region.right).text


async def test_the_focused_field_has_another_border_than_the_others():
    app = make_app("grpo-8b-1x8")
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("batch")
        await _settle(pilot)
        rows = app.screen.rows()
        focused, other = rows[0].input_widget, rows[1].input_widget
        focused.focus()
        await _settle(pilot)
        assert app.focused is focused
        assert set(_top_line(app.screen, focused)) & set("═╔╗")  # the marker, in characters
        assert not set(_top_line(app.screen, other)) & set("═╔╗")
        other.focus()
        await _settle(pilot)
        assert not set(_top_line(app.screen, focused)) & set("═╔╗")  # it follows the focus


async def test_a_focused_invalid_field_keeps_the_marker():
    app = make_app("grpo-8b-1x8")
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("batch")
        await _settle(pilot)
        widget = app.screen.row_for("batch.train_batch_size").input_widget
        widget.focus()
        widget.value = "0"
        await _settle(pilot)
        assert app.screen.row_for("batch.train_batch_size").has_class("-invalid")
        assert set(_top_line(app.screen, widget)) & set("═╔╗")
