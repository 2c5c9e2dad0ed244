"""F1 on every control and the Start step's load/import outcomes (issue 18 item 16): a field's help wherever
focus is in its row, a word on each control that is no field, and the outcome of Load or Import right under
its own control, reached by Enter in its input."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from tests.tui.helpers import make_app
from wizard.i18n import t
from wizard.tui.screens.dialogs import HelpDialog

WORKSHOP = "workshop-0.5b-1gpu"


async def _help_text(app, pilot) -> str:
    await pilot.press("f1")
    await pilot.pause()
    assert isinstance(app.screen, HelpDialog)
    text = str(app.screen.body) if hasattr(app.screen, "body") else ""
    await pilot.press("escape")
    await pilot.pause()
    return text


@pytest.mark.parametrize(
    ("step", "control", "words"),
    [
        ("data", "#check-local", "help.check_local"),
        ("start", "#preset-list", "help.preset_list"),
        ("start", "#answers-path", "help.answers_path"),
        ("start", "#script-path", "help.script_path"),
        ("start", "#language", "help.language"),
        ("review", "#out-dir", "help.out_dir"),
        ("review", "#write", "help.write"),
    ],
)
async def test_f1_on_a_control_that_is_no_field_explains_it(tmp_path, step, control, words):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.goto(step)
        await pilot.pause()
        app.screen.query_one(control).focus()
        await pilot.pause()
        text = await _help_text(app, pilot)
        assert t(words) in text and t("help.none") not in text


async def test_f1_in_an_open_select_gives_its_fields_help(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.goto("deployment")
        await pilot.pause()
        row = next(row for row in app.screen.rows() if isinstance(row.input_widget, Select) and row.display)
        row.input_widget.focus()
        await pilot.pause()
        closed = await _help_text(app, pilot)
        row.input_widget.focus()
        await pilot.press("enter")  # opens the overlay; focus moves into it
        await pilot.pause()
        assert app.focused is not row.input_widget
        opened = await _help_text(app, pilot)
        assert t("help.none") not in opened and opened == closed


@pytest.mark.parametrize(("box", "status"), [("#answers-path", "#answers-status"), ("#script-path", "#script-status")])
async def test_enter_in_a_start_path_shows_the_outcome_under_it(tmp_path, monkeypatch, box, status):
    monkeypatch.chdir(tmp_path)  # a relative name: fewer keys to type (each simulated key costs ~50 ms)
    app = make_app(out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one(box, Input).focus()
        await pilot.pause()
        await pilot.press(*"missing.yaml")
        await pilot.press("enter")
        await pilot.pause()
        shown = str(app.screen.query_one(status).render())
        assert "missing.yaml" in shown
        assert "missing.yaml" not in str(app.screen.query_one("#start-status").render())


@pytest.mark.parametrize(
    ("box", "status", "key"),
    [
        ("#answers-path", "#answers-status", "start.path_needed.answers"),
        ("#script-path", "#script-status", "start.path_needed.script"),
    ],
)
async def test_enter_in_an_empty_start_path_says_what_goes_there(tmp_path, monkeypatch, box, status, key):
    """Before: the empty box was read as ".", and the outcome was ". is a folder; give a config.yaml ..."."""
    monkeypatch.chdir(tmp_path)
    app = make_app(out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one(box, Input).focus()
        await pilot.pause()
        await pilot.press("space", "enter")  # a blank is no path either
        await pilot.pause()
        shown = " ".join(str(app.screen.query_one(status).render()).split())
        assert shown == " ".join(t(key).split())
        assert "folder" not in shown
