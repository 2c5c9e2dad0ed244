"""Keys that must never lose work (issue 18 items 1, 2, 4, 14, 16, 17): every way out asks while there are
unsaved edits, Esc closes the innermost thing and never quits, the exit report names what was written, focus
lands on the step's first field, palette entries show their title once, the top-level TUI options parse."""

from __future__ import annotations

import pytest
import yaml

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.tui.screens.dialogs import HelpDialog, QuitDialog

WORKSHOP = "workshop-0.5b-1gpu"


async def _edited(app, pilot):
    widget = await edit_at_end_of(app, pilot, "models.actor_path", step="models")
    await pilot.press("x")
    await pilot.pause()
    assert widget.value.endswith("x")


@pytest.mark.parametrize("key", ["ctrl+q", "escape", "ctrl+c"])
async def test_every_key_out_asks_after_an_edit(tmp_path, key):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _edited(app, pilot)
        if key == "escape":
            app.screen.focus_next()  # Esc in an input is the app's; any focus
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, QuitDialog), key
        assert app.is_running
        await pilot.press("escape")  # stay
        await pilot.pause()
        assert not isinstance(app.screen, QuitDialog) and app.is_running


async def test_the_palettes_quit_asks_after_an_edit(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _edited(app, pilot)
        await app.action_quit()  # what Textual's system command "Quit" calls
        await pilot.pause()
        assert isinstance(app.screen, QuitDialog) and app.is_running


async def test_ctrl_q_with_nothing_unsaved_quits_at_once(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_quit_after_saving_does_not_ask(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await _edited(app, pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_esc_after_closing_help_does_not_quit(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.goto("models")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpDialog)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")  # one too many, nothing unsaved: nothing happens
        await pilot.pause()
        assert app.is_running and app.step == "models"


async def test_discard_and_quit_after_review_wrote_reports_the_written_folder(tmp_path):
    from wizard.commands.tui import report_of

    first, second = tmp_path / "written", tmp_path / "never"
    app = make_app(preset=WORKSHOP, out=str(first))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.goto("review")
        await pilot.pause()
        app.request_write()
        await pilot.pause()
        assert (first / "run.sh").exists()
        out_dir = app.screen.query_one("#out-dir")
        out_dir.value = str(second)  # the field changes after the write; nothing is written there
        await pilot.pause()
        await pilot.press("ctrl+q")  # Textual's own quit: no result comes back from app.run()
        await pilot.pause()
    report = report_of(app, "verl-run")
    assert str(first / "run.sh") in report
    assert f"cd {first} &&" in report and str(second) not in report


async def test_a_shown_step_focuses_its_first_visible_field(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.pause()
        rows = [row for row in app.screen.rows() if row.display]
        assert app.focused is rows[0].input_widget
        await pilot.press("tab")
        assert app.focused is rows[1].input_widget  # fields first, not the step list or the scroll box


async def test_palette_entries_show_their_title_once(tmp_path):
    from wizard.tui.commands import WizardCommands

    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        provider = WizardCommands(app.screen)
        hits = [hit async for hit in provider.discover()]
        assert hits and all(hit.help is None for hit in hits)


def test_the_tui_options_work_without_the_tui_command():
    from wizard.cli import parse
    from wizard.commands import tui

    args = parse(["--lang", "zh", "--preset", WORKSHOP])
    assert args.func is tui.run and args.lang == "zh" and args.preset == WORKSHOP
    assert parse(["presets"]).func is not tui.run
    assert parse([]).func is tui.run


async def _asked_after_an_edit(app, pilot):
    await pilot.pause()
    await _edited(app, pilot)
    await pilot.press("ctrl+q")
    await pilot.pause()
    assert isinstance(app.screen, QuitDialog)


@pytest.mark.parametrize(
    ("lang", "labels"),
    [("en", ["Save and quit", "Quit without saving", "Stay"]), ("zh", ["保存并退出", "不保存，直接退出", "留下"])],
)
async def test_the_quit_question_offers_save_discard_and_stay(tmp_path, monkeypatch, lang, labels):
    from textual.widgets import Button

    monkeypatch.chdir(tmp_path)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"), lang=lang)
    async with app.run_test(size=(100, 40)) as pilot:
        await _asked_after_an_edit(app, pilot)
        buttons = list(app.screen.query(Button))
        assert [str(b.label) for b in buttons] == labels
        for button in buttons:  # each label readable on its button's face (the red one's was not)
            assert button.styles.color != button.styles.background, button.id
        await pilot.click("#stay")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, QuitDialog)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.click("#discard")
        await pilot.pause()
    assert not app.is_running and not (tmp_path / app.answers_path).exists()


async def test_save_and_quit_writes_the_answers_quits_and_the_report_says_how_to_resume(tmp_path, monkeypatch):
    from wizard.commands.tui import report_of

    monkeypatch.chdir(tmp_path)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await _asked_after_an_edit(app, pilot)
        await pilot.click("#save")
        await pilot.pause()
    assert not app.is_running
    assert "x" in (tmp_path / app.answers_path).read_text(encoding="utf-8")
    report = report_of(app, "verl-run")  # it said "nothing written" before
    assert report == f"Answers saved to {app.answers_path}; resume with: verl-wizard --answers {app.answers_path}"


async def test_saving_with_a_text_that_is_not_a_value_says_what_the_file_keeps(tmp_path, monkeypatch):
    from wizard.commands.tui import report_of

    monkeypatch.chdir(tmp_path)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    notes = []
    monkeypatch.setattr(app, "notify", lambda message, **kw: notes.append(str(message)))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        before = app.session.value("batch.train_batch_size")
        widget = await edit_at_end_of(app, pilot, "batch.train_batch_size", step="batch")
        widget.value = "0"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+q")  # saved: quits without asking
        await pilot.pause()
    assert any("data.train_batch_size '0'" in note and "earlier values" in note for note in notes), notes
    saved = yaml.safe_load((tmp_path / app.answers_path).read_text(encoding="utf-8"))
    assert saved["batch"]["train_batch_size"] == before  # the preset's, as the note says
    assert "not in the answers file, not valid values: data.train_batch_size '0'" in report_of(app, "verl-run")


def test_the_exit_report_quotes_the_resume_command_and_keeps_the_written_files():
    from wizard.core.layers import build
    from wizard.tui.exit_report import SavedAnswers, exit_report

    answers = build([("test", {"deploy.target": "local"})]).answers
    saved = SavedAnswers("my answers.yaml")
    report = exit_report(["/o/run.sh"], "/o", answers, saved=saved).splitlines()
    assert report[0] == "Written by verl-wizard:" and report[1] == "/o/run.sh"
    assert report[-1] == "Answers saved to my answers.yaml; resume with: verl-wizard --answers 'my answers.yaml'"
    assert exit_report([], "/o", answers) == "verl-wizard: nothing written."


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (100, 40)])
async def test_every_step_focuses_a_control_the_user_can_see(tmp_path, lang, size):
    from wizard.tui.steps import STEPS

    app = make_app(preset="grpo-8b-1x8", out=str(tmp_path / "out"), lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for step in STEPS[1:]:
            app.goto(step)
            await pilot.pause()
            await pilot.pause()
            focused = app.focused
            body = app.screen.query_one("#step-body").region
            assert focused is not None and focused.region, step
            # Hardware's first field sat under the link matrix and budgets: keys went into a field out of sight
            assert body.contains_region(focused.region), (step, focused.id, focused.region, body)
