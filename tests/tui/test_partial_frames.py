"""What the terminal shows after many partial repaints equals a full repaint of the same screen.

A keystroke repaints only what changed (the step list's mark, the findings' lines, the edited field), and
the compositor renders only the widgets under a changed region (DirtyRegionCompositor in wizard/tui/textual_compat.py). Every frame the
app writes is fed to a terminal emulator (pyte); after each action its picture, character and colour per
cell, must equal the picture of one full repaint fed to a fresh emulator.
"""

from __future__ import annotations

import pyte
import pytest
from textual.strip import Strip

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.tui.textual_compat import DirtyRegionCompositor
from wizard.tui.widgets.wrapped_text import WrappedText

pytestmark = pytest.mark.terminal  # a terminal emulator (pyte) reads every frame: CI's terminal tier
SIZE = (100, 40)


class Terminal:
    """A pyte screen fed with the bytes of every frame the app displays."""

    def __init__(self, app) -> None:
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.app = app
        self.frames = {"full": 0, "partial": 0}
        original = app._display

        def display(screen, renderable):
            if renderable is not None and screen is app.screen:
                self.feed(renderable.render_segments(app.console))
                self.frames["partial" if type(renderable).__name__ == "ChopsUpdate" else "full"] += 1
            return original(screen, renderable)

        app._display = display

    def feed(self, data: str) -> None:
        self.stream.feed(data.encode("utf-8"))

    def picture(self) -> list[list[tuple]]:
        return picture_of(self.screen)


def picture_of(screen: pyte.Screen) -> list[list[tuple]]:
    return [
        [(cell.data, cell.fg, cell.bg, cell.bold) for cell in (screen.buffer[y][x] for x in range(screen.columns))]
        for y in range(screen.lines)
    ]


def full_repaint(app) -> list[list[tuple]]:
    """The current screen rendered whole, as a fresh terminal shows it.

    Every widget paints its lines again from what it shows now: none of the lines kept from earlier frames
    (Textual's per-widget line cache, a widget's rendered content, WrappedText's painted lines) is reused, so
    a line that an edit changed but did not repaint shows up as a difference.
    """
    from textual._compositor import LayoutUpdate

    compositor = app.screen._compositor
    for widget in compositor.visible_widgets:
        forget_painted_lines(widget)
    strips: list[Strip] = compositor.render_strips()
    fresh = pyte.Screen(*SIZE)
    update = LayoutUpdate([[strip] for strip in strips], compositor.size.region)
    pyte.ByteStream(fresh).feed(update.render_segments(app.console).encode("utf-8"))
    return picture_of(fresh)


def forget_painted_lines(widget) -> None:
    widget._styles_cache.clear()
    widget._dirty_regions.add(widget.size.region)
    if isinstance(widget, WrappedText):
        widget._painted_for = ()


def differences(shown, full) -> list[str]:
    return [
        f"line {y}: {''.join(c[0] for c in shown[y])!r} != {''.join(c[0] for c in full[y])!r}"
        for y in range(len(full))
        if shown[y] != full[y]
    ]


async def edit_and_compare(app, pilot, terminal, actions) -> None:
    for action in actions:
        await action()
        await pilot.pause()
        await pilot.pause()
        assert not differences(terminal.picture(), full_repaint(app))


async def test_partial_frames_add_up_to_the_full_picture(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=SIZE) as pilot:
        terminal = Terminal(app)
        widget = await edit_at_end_of(app, pilot, "batch.ppo_mini_batch_size", step="batch")
        assert isinstance(app.screen._compositor, DirtyRegionCompositor)
        full_before = terminal.frames["full"]

        async def backspace():
            await pilot.press("backspace")

        async def digit():
            await pilot.press("6")

        async def next_finding():
            app.screen.query_one("#findings-list").focus()
            await pilot.press("down")

        fixed = []

        async def fix():
            await pilot.press("f")
            await pilot.pause()
            fixed.append(app.session.value("batch.ppo_mini_batch_size"))

        async def back_to_field():
            widget.focus()
            await pilot.press("end", "backspace", "backspace", "2", "5")

        async def help_for_the_field():
            widget.focus()
            await pilot.press("f1")
            await pilot.pause()
            assert app.screen.is_modal  # the help dialog over the step: its frames are compared too

        async def close_the_help():
            await pilot.press("escape")

        async def edit_after_the_dialog():
            await pilot.press("end", "backspace")

        await edit_and_compare(
            app,
            pilot,
            terminal,
            [
                backspace,
                digit,
                backspace,
                digit,
                back_to_field,
                next_finding,
                fix,
                help_for_the_field,
                close_the_help,
                edit_after_the_dialog,
            ],
        )
        assert terminal.frames["partial"] >= 5  # the comparisons covered partial frames, not full repaints only
        assert fixed and fixed[0] != 25  # the fix was applied
        assert app.screen is not None and not app.screen.is_modal  # the help dialog came and went
        assert terminal.frames["full"] >= full_before


async def test_the_comparison_sees_a_widget_left_out_of_a_partial_frame(tmp_path):
    """The neighbour: a compositor that also leaves out the edited field shows a stale field on the terminal."""

    class DropsTheField(DirtyRegionCompositor):
        def render_partial_update(self):
            visible = self.visible_widgets
            self._visible_widgets = {
                w: rc for w, rc in visible.items() if getattr(w, "id", "") != "input-batch-ppo_mini_batch_size"
            }
            try:
                return DirtyRegionCompositor.render_partial_update(self)
            finally:
                self._visible_widgets = None

    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=SIZE) as pilot:
        terminal = Terminal(app)
        app.goto("batch")
        await pilot.pause()
        broken = DropsTheField()
        broken.__dict__.update(app.screen._compositor.__dict__)
        app.screen._compositor = broken
        await edit_at_end_of(app, pilot, "batch.ppo_mini_batch_size")
        await pilot.press("backspace")
        await pilot.pause()
        await pilot.pause()
        stale = differences(terminal.picture(), full_repaint(app))
        row = app.screen.row_for("batch.ppo_mini_batch_size")
        rows_of_the_field = {f"line {y}:" for y in range(row.input_widget.region.y, row.input_widget.region.bottom)}
        assert stale and all(
            line.split(" ", 2)[0] + " " + line.split(" ", 2)[1] in rows_of_the_field for line in stale
        ), stale


async def test_a_keystroke_renders_only_the_widgets_under_what_changed(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=SIZE) as pilot:
        await edit_at_end_of(app, pilot, "batch.ppo_mini_batch_size", step="batch")
        rendered: list[str] = []

        def spy_on(widget, name: str) -> None:
            original = widget.render_lines

            def spy(crop, _original=original, _name=name):
                rendered.append(_name)
                return _original(crop)

            widget.render_lines = spy

        for row in app.screen.rows():
            for part in [row, *row.children]:
                spy_on(part, row.field_name)
        # The containers behind what changed: the edited field, the findings and the step list's mark cover them.
        for container in ("#main", "#step-body", "#findings-panel", "#findings-body"):
            spy_on(app.screen.query_one(container), container)
        spy_on(app.screen, "screen")
        await pilot.press("backspace")  # 256 -> 25: an error appears in the panel, the step list gets a mark
        await pilot.pause()
        await pilot.pause()
        assert any(f.id == "BATCH-004" for f in app.session.findings)
        assert set(rendered) == {"batch.ppo_mini_batch_size"}, sorted(set(rendered))


async def test_the_comparison_sees_a_line_an_edit_changed_but_did_not_repaint(tmp_path, monkeypatch):
    """The neighbour for kept lines: WrappedTexts that repaint none of their changed lines show a stale chain."""
    from wizard.tui.widgets import wrapped_text

    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=SIZE) as pilot:
        terminal = Terminal(app)
        await edit_at_end_of(app, pilot, "batch.ppo_mini_batch_size", step="batch")
        chain = app.screen.query_one("#chain")
        before = chain.text.plain
        monkeypatch.setattr(wrapped_text, "changed_spans", lambda before, after: [])
        await pilot.press("backspace")
        await pilot.pause()
        await pilot.pause()
        assert chain.text.plain != before
        stale = differences(terminal.picture(), full_repaint(app))
        stale_rows = {int(line.split(" ", 2)[1].rstrip(":")) for line in stale}
        wrapped_rows = {
            y for widget in app.screen.query(WrappedText) for y in range(widget.region.y, widget.region.bottom)
        }
        assert stale_rows & set(range(chain.region.y, chain.region.bottom)), stale
        assert stale_rows <= wrapped_rows, stale  # the chain and the finding's detail: nothing else is stale
