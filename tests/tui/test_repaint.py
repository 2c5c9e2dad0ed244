"""Keystrokes stay cheap: an edit lands in the same frame as the input's repaint, texts that keep their size
repaint without a screen layout, and the findings count follows the worst severity and the theme."""

from __future__ import annotations

from rich.text import Text
from textual.app import App
from textual.color import Color
from textual.geometry import Region
from textual.widgets import Static

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.i18n import t
from wizard.tui.widgets.repaint import update_static


class OneStatic(App):
    CSS = "#s { height: auto; width: 20; }"

    def compose(self):
        yield Static("one line", id="s")


def spy_refresh(widget) -> list[bool]:
    """Record the `layout` flag of every refresh the widget asks for."""
    calls: list[bool] = []
    original = widget.refresh

    def refresh(*regions, **kwargs):
        calls.append(bool(kwargs.get("layout")))
        return original(*regions, **kwargs)

    widget.refresh = refresh
    return calls


async def test_update_static_lays_out_only_when_the_height_changes():
    app = OneStatic()
    async with app.run_test(size=(40, 10)) as pilot:
        widget = app.query_one("#s", Static)
        calls = spy_refresh(widget)
        assert update_static(widget, "another line")  # same height: a repaint only
        assert calls == [False]
        assert not update_static(widget, "another line")  # the same text again: nothing at all
        assert calls == [False]
        assert update_static(widget, "a text long enough to wrap onto a second line")
        assert calls[-1] is True  # two lines now: the screen must make room
        await pilot.pause()
        assert widget.size.height == 3


async def test_update_static_tells_texts_with_other_styles_apart():
    app = OneStatic()
    async with app.run_test(size=(40, 10)):
        widget = app.query_one("#s", Static)
        assert update_static(widget, Text("same", style="green"))
        assert update_static(widget, Text("same", style="red"))  # Text == ignores the base style
        assert not update_static(widget, Text("same", style="red"))


async def test_every_frame_after_a_keystroke_shows_the_findings_of_the_value_it_shows(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("batch")
        await pilot.pause()
        row_input = app.screen.row_for("batch.ppo_mini_batch_size").input_widget
        row_input.focus()
        await pilot.press("end")
        await pilot.pause()
        panel = app.screen.query_one("#findings-panel")
        frames: list[tuple[str, list[str], list[str]]] = []
        original = App._display

        def display(self, screen, renderable):
            frames.append((row_input.value, [f.id for f in panel.findings], [f.id for f in app.session.findings]))
            return original(self, screen, renderable)

        App._display = display
        try:
            await pilot.press("backspace")  # 256 -> 25: mini batch no longer divides the batch
            await pilot.pause(0.2)
        finally:
            App._display = original
        assert app.session.value("batch.ppo_mini_batch_size") == 25
        painted = [f for f in frames if f[0] == "25"]
        assert painted, frames
        assert all(shown == current and "BATCH-004" in shown for _, shown, current in painted), painted


async def test_the_findings_count_says_the_worst_severity_in_the_themes_colour(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("review")  # every step seen: no finding is shown as to do (test_to_do.py)
        await pilot.pause()
        app.goto("batch")
        await pilot.pause()
        panel = app.screen.query_one("#findings-panel")
        count = app.screen.query_one("#findings-count")

        def shown() -> tuple[str, Color]:
            """The mark and its colour as painted on the count's line."""
            segment = next(seg for seg in count.render_line(0) if seg.text.strip())
            return segment.text.strip()[0], Color(*segment.style.color.triplet)

        severities = {f.severity.value for f in app.session.findings}
        assert "error" not in severities
        mark, colour = shown()
        assert colour == Color.parse(app.theme_variables["warning" if "warning" in severities else "success"])
        app.apply_edit("batch.ppo_mini_batch_size", 25)
        await pilot.pause()
        assert panel.state == "errors" and shown() == ("✗", Color.parse(app.theme_variables["error"]))
        before = shown()[1]
        app.theme = "nord"  # its error colour differs from the default theme's
        await pilot.pause()
        await pilot.pause()
        assert shown() == ("✗", Color.parse(app.theme_variables["error"])) and shown()[1] != before
        app.apply_edit("batch.ppo_mini_batch_size", 256)
        await pilot.pause()
        assert panel.state != "errors" and shown()[0] in "!✓"
        assert mark in "!✓"


async def test_a_fields_source_badge_changes_without_a_layout(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        await edit_at_end_of(app, pilot, "batch.ppo_mini_batch_size", step="batch")
        badge = app.screen.row_for("batch.ppo_mini_batch_size").query_one(".field-source")
        assert app.session.source_of("batch.ppo_mini_batch_size") == "preset"
        calls = spy_refresh(badge)
        await pilot.press("backspace")  # the preset's value edited: the badge says so
        await pilot.pause()
        assert app.session.source_of("batch.ppo_mini_batch_size") == "edited"
        assert badge.has_class("source-edited") and str(badge.render_line(0).text).strip() == t("source.edited")
        assert calls and not any(calls), calls  # repaints, no screen layout


async def test_a_field_keeps_its_text_in_view_without_a_layout_per_key(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(80, 24)) as pilot:
        row_input = await edit_at_end_of(app, pilot, "models.actor_path", step="models")
        calls = spy_refresh(row_input)
        await pilot.press("x")  # still fits the field: the virtual size stays, so no screen layout
        assert calls and not any(calls), calls
        await pilot.press(*"-a-model-name-too-long-for-the-field")
        await pilot.pause()
        assert row_input.scroll_offset.x > 0  # scrolled to keep the cursor in view
        assert str(row_input.render_line(0).text).rstrip().endswith("for-the-field")
        await pilot.press("home")
        await pilot.pause()
        assert row_input.scroll_offset.x == 0
        assert str(row_input.render_line(0).text).startswith("Qwen/Qwen3-8Bx")


async def test_the_findings_list_scrolls_when_it_outgrows_the_panel_and_stops_when_it_shrinks(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDB_API_KEY", "set")  # no DEPLOY-016: the list starts with the one note it fits
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("batch")
        await pilot.pause()
        listing = app.screen.query_one("#findings-list")
        assert listing.max_scroll_y == 0
        app.apply_edit("batch.ppo_mini_batch_size", 25)  # four findings: more lines than the list has
        await pilot.pause()
        assert listing.show_vertical_scrollbar and listing.max_scroll_y > 0
        assert listing.virtual_size.height == len(listing._lines)
        listing.focus()
        listing.highlighted = listing.option_count - 1
        await pilot.pause()
        assert listing.scroll_offset.y > 0  # the last finding scrolled into view
        assert "ROLE-009" in "".join(str(listing.render_line(y).text) for y in range(listing.size.height))
        app.apply_edit("batch.ppo_mini_batch_size", 256)
        await pilot.pause()
        assert listing.max_scroll_y == 0 and listing.scroll_offset.y == 0


class TwoOptions(App):
    def compose(self):
        from wizard.tui.textual_compat import KeptOptionsList

        yield KeptOptionsList(id="list")


async def test_kept_options_keep_rendered_lines_only_for_options_back_at_the_same_index():
    from textual.widgets.option_list import Option

    app = TwoOptions()
    async with app.run_test(size=(30, 6)) as pilot:
        listing = app.query_one("#list")
        first, second, third = Option("first"), Option("second"), Option("third")

        def cached() -> set[str]:
            return {str(key[0].prompt) for key in listing._option_render_cache.keys()}  # noqa: SIM118 - LRUCache has no __iter__

        def clicked_index(y: int):
            return next(seg.style.meta.get("option") for seg in listing.render_line(y) if seg.style and seg.style.meta)

        listing.set_options([first, second])
        await pilot.pause()
        listing.render_line(0), listing.render_line(1)
        assert cached() == {"first", "second"}
        listing.set_options([first, third])  # first stays at 0: its lines are kept; second is not shown
        assert "first" in cached()
        listing.set_options([third, first])  # both moved: their lines carry the old index, so they go
        assert not cached() & {"first", "third"}
        await pilot.pause()
        assert clicked_index(0) == 0 and clicked_index(1) == 1  # the lines rendered again carry the new index


async def test_an_edit_of_the_actors_sizes_repaints_the_actors_chain_and_not_the_critics(tmp_path):
    app = make_app("ppo-critic-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("batch")
        await pilot.pause()
        actor, critic = app.screen.query_one("#chain"), app.screen.query_one("#critic-chain")
        assert critic.display and "critic" in critic.text.plain
        actor_calls, critic_calls = spy_refresh(actor), spy_refresh(critic)
        before = actor.text.plain
        app.apply_edit("batch.ppo_max_token_len_per_gpu", 16384)  # the actor's token budget: the critic has its own
        await pilot.pause()
        assert actor_calls and actor.text.plain != before
        assert not critic_calls
        app.apply_edit("batch.critic_ppo_mini_batch_size", 64)
        await pilot.pause()
        assert critic_calls


class TwoTexts(App):
    CSS = "#auto { width: 20; } #fixed { width: 20; height: 3; } #static { width: 20; height: auto; }"

    def compose(self):
        from wizard.tui.widgets.wrapped_text import WrappedText

        yield WrappedText(Text("one line"), id="auto")
        yield WrappedText(Text("one line"), id="fixed")
        yield Static(Text("one line"), id="static")


async def test_wrapped_text_paints_like_a_static_and_lays_out_only_when_its_height_changes():
    app = TwoTexts()
    async with app.run_test(size=(40, 12)) as pilot:
        auto, fixed, static = app.query_one("#auto"), app.query_one("#fixed"), app.query_one("#static")
        long = Text("a text long enough to wrap over ")
        long.append("three lines", style="bold red")
        calls, fixed_calls = spy_refresh(auto), spy_refresh(fixed)
        assert not auto.update(Text("one line"))  # the same text: nothing to do
        assert calls == []
        assert auto.update(Text("another line")) and calls == [False]  # same height: a repaint only
        assert "".join(seg.text for seg in auto.render_line(0)).strip() == "another line"  # not the old line's paint
        for widget in (auto, fixed, static):
            widget.update(long)
        await pilot.pause()
        assert calls[-1] is True and fixed_calls[-1] is False  # the auto-height text grew; the fixed one cannot
        assert auto.size.height == static.size.height == 3

        def lines(widget) -> list[str]:
            return ["".join(seg.text for seg in widget.render_line(y)).strip() for y in range(3)]

        assert lines(auto) == lines(static) == ["a text long enough", "to wrap over three", "lines"]
        assert any(seg.style and seg.style.bold and seg.text.strip() == "lines" for seg in auto.render_line(2))
        whole = Text("styled as a whole", style="bold red")  # a style of its own and no spans
        auto.update(whole)
        await pilot.pause()
        painted = next(seg for seg in auto.render_line(0) if seg.text.strip())
        assert painted.text.strip() == "styled as a whole" and painted.style.bold and painted.style.color.name == "red"


async def test_wrapped_text_repaints_only_the_lines_that_changed():
    app = TwoTexts()
    async with app.run_test(size=(40, 12)) as pilot:
        fixed = app.query_one("#fixed")
        fixed.update(Text("first line\nsecond line\nthird line"))
        await pilot.pause()
        regions: list = []
        original = fixed.refresh
        fixed.refresh = lambda *r, **kw: (regions.append((r, kw)), original(*r, **kw))[1]
        fixed.update(Text("first line\nsecond LINE\nthird line"))
        assert regions == [((Region(0, 1, 20, 1),), {})]  # the second line alone, no layout
        regions.clear()
        fixed.update(Text("first line"))  # two lines fewer: they are repainted blank, still without a layout
        assert regions == [((Region(0, 1, 20, 2),), {})]
        regions.clear()
        fixed.update(Text("first line"))  # no change: nothing
        assert regions == []
        await pilot.pause()
        assert ["".join(seg.text for seg in fixed.render_line(y)).strip() for y in range(3)] == ["first line", "", ""]


async def test_kept_options_paint_each_line_as_option_list_does(monkeypatch):
    """The lines one paint shares its styles for equal OptionList's own, line by line, in every option state."""
    from textual.widgets import OptionList
    from textual.widgets.option_list import Option

    app = TwoOptions()
    async with app.run_test(size=(30, 12)) as pilot:
        listing = app.query_one("#list")
        listing.styles.height = 6  # four lines inside the border, for six lines of options
        listing.set_options(
            [
                Option("plain"),
                Option("off", disabled=True),
                Option("a long option that wraps over lines"),
                Option("hovered"),
                Option("last"),
            ]
        )
        listing.highlighted = 2
        await pilot.pause()
        listing.scroll_to(y=1, animate=False, immediate=True)  # the first line is scrolled out
        listing._mouse_hovering_over = 3
        await pilot.pause()
        assert listing.scroll_offset.y == 1
        own = OptionList.render_line
        fallbacks: list[int] = []
        monkeypatch.setattr(OptionList, "render_line", lambda self, y: (fallbacks.append(y), own(self, y))[1])
        painted: dict[int, object] = {}
        own_render_line = listing.render_line

        def capture(y):
            painted[y] = own_render_line(y)
            return painted[y]

        listing.render_line = capture
        listing._styles_cache.clear()
        listing.render_lines(listing.outer_size.region)  # with the border
        assert len(painted) == listing.scrollable_content_region.height
        assert fallbacks == []  # every line from the options' rendered lines, in the style OptionList would pick
        assert painted == {y: own(listing, y) for y in painted}
        texts = [str(painted[y].text).strip() for y in sorted(painted)]
        assert texts == ["off", "a long option that wraps", "over lines", "hovered"]
        looks = {
            str(painted[y].text).strip(): next(seg.style for seg in painted[y] if seg.text.strip()) for y in painted
        }
        assert len({looks["off"], looks["over lines"], looks["hovered"]}) == 3  # disabled, highlighted, hovered
