"""A paste into a field goes in whole, at the cursor or over the selection, as one line without what no answer holds;
the step's notice line names what was left out (issue 32 item 7). Pilot delivers the Paste as a terminal's
bracketed paste does once textual_compat has parsed it (tests/tui/test_paste_parser.py)."""

from __future__ import annotations

from textual import events

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.tui.textual_compat import screen_strips

FIELD = "models.actor_path"


def _painted(app) -> str:
    return "\n".join(strip.text for strip in screen_strips(app.screen))


async def _paste(app, pilot, widget, text):
    widget.post_message(events.Paste(text))
    for _ in range(3):
        await pilot.pause()


async def test_a_paste_with_a_colour_code_keeps_its_text_in_order_and_says_what_it_left_out(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="en")
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        widget = await edit_at_end_of(app, pilot, FIELD, "models")
        widget.value = ""
        await _paste(app, pilot, widget, "Qwen/\x1b[31mabc\x1b[0m\x01\nsecond line\n")
        assert widget.value == "Qwen/abc"
        assert app.session.value(FIELD) == "Qwen/abc"  # the answer, not only the field's text
        notice = app.screen.query_one("#notice-line")
        assert notice.display
        painted = " ".join(_painted(app).split())
        assert "Left out of the paste: 2 terminal escape sequence(s) (colour codes), U+0001 (SOH), 1 more" in painted


async def test_a_paste_goes_in_at_the_cursor_and_a_tab_stays_in_the_field(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="zh")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        widget = await edit_at_end_of(app, pilot, FIELD, "models")
        widget.value = "Qwen/Qwen3-8B"
        widget.cursor_position = len("Qwen/")
        await _paste(app, pilot, widget, "my\tmodel-")
        assert widget.value == "Qwen/my\tmodel-Qwen3-8B"
        assert app.focused is widget  # a pasted TAB is text, not a focus move
        assert not app.screen.query_one("#notice-line").display  # nothing was left out: nothing to say


async def test_a_paste_replaces_the_selection(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="en")
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        widget = await edit_at_end_of(app, pilot, FIELD, "models")
        widget.select_all()
        await _paste(app, pilot, widget, "\x1b[1mQwen/Qwen2.5-7B-Instruct\x1b[0m")
        assert widget.value == "Qwen/Qwen2.5-7B-Instruct"


async def test_a_5000_character_path_is_refused_at_its_field_and_the_screen_keeps_its_width(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="en")
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        widget = await edit_at_end_of(app, pilot, FIELD, "models")
        before = app.session.value(FIELD)
        widget.value = ""
        await _paste(app, pilot, widget, "/models/" + "a" * 5000)
        assert app.session.value(FIELD) == before  # refused: not an answer
        painted = " ".join(_painted(app).split())
        assert "5008 bytes long" in painted, painted[-600:]
        assert all(len(strip.text) <= 100 for strip in screen_strips(app.screen))
