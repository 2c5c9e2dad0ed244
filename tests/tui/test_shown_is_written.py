"""Issue 18b through the real app: what the screen shows is what is written, and what is missing is said."""

from __future__ import annotations

import pytest

from tests.tui.helpers import edit_at_end_of, make_app


def ids(app) -> set[str]:
    return {f.id for f in app.session.findings}


async def test_wandb_logger_without_the_key_is_a_warning_at_the_logger(tmp_path, monkeypatch):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))  # logs to console and wandb (verl's default)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        found = [f for f in app.session.findings if f.id == "DEPLOY-016"]
        assert found and found[0].severity.value == "warning" and list(found[0].paths) == ["trainer.logger"]
    monkeypatch.setenv("WANDB_API_KEY", "x")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "DEPLOY-016" not in ids(app)


@pytest.mark.parametrize("preset", ["workshop-0.5b-1gpu", "workshop-grpo-0.5b-1gpu"])
async def test_workshop_presets_log_to_the_console_so_run_sh_needs_no_key(tmp_path, monkeypatch, preset):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    app = make_app(preset, out=str(tmp_path / "o"), topology="1xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "DEPLOY-016" not in ids(app) and app.session.value("trainer.logger") in ("console", ["console"])


async def _type(app, pilot, field: str, step: str, text: str):
    app.goto(step)
    await pilot.pause()
    widget = app.screen.row_for(field).input_widget
    widget.focus()
    widget.value = text
    await pilot.pause()
    await pilot.pause()
    return widget


def _badge(app, field: str) -> str:
    return str(app.screen.row_for(field).query_one(".field-source").render()).strip()


def _error_lines(app) -> list[str]:
    return [str(label.render()) for label in app.screen.query(".field-error")]


@pytest.mark.parametrize("text", ["-5", "0", "abc"])
async def test_an_invalid_batch_size_is_an_error_at_its_field_that_blocks_writing(tmp_path, text):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        widget = await _type(app, pilot, "batch.train_batch_size", "batch", text)
        found = [f for f in app.session.findings if f.id == "KEY-006"]
        assert len(found) == 1 and list(found[0].paths) == ["data.train_batch_size"]
        assert text in str(found[0].message) and app.session.blocked
        assert widget.value == text  # the screen keeps what was typed
        lines = _error_lines(app)
        assert len(lines) == 1 and text in lines[0]  # readable without a mouse
        widget.value = "128"  # corrected: the finding and the line go, the value is the one written
        await pilot.pause()
        await pilot.pause()
        assert "KEY-006" not in ids(app) and _error_lines(app) == []
        assert app.session.value("batch.train_batch_size") == 128


@pytest.mark.parametrize(
    "text, reason",
    [("0", "应大于或等于 1"), ("-5", "应大于或等于 1"), ("abc", "应为整数"), ("1.5", "应为整数")],
)
async def test_in_chinese_the_reason_under_the_field_and_the_finding_are_chinese(tmp_path, text, reason):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await _type(app, pilot, "batch.train_batch_size", "batch", text)
        lines = _error_lines(app)
        assert len(lines) == 1 and reason in lines[0] and "should" not in lines[0], lines
        assert lines[0].startswith(repr(text)) and "train_batch_size" not in lines[0], lines  # said once, above
        finding = str(next(f for f in app.session.findings if f.id == "KEY-006").message)
        assert reason in finding and "should" not in finding
        assert finding.count("data.train_batch_size") == 1 and finding.count(text) == 1, finding


@pytest.mark.parametrize(
    "field, step",
    [("models.actor_path", "models"), ("batch.train_batch_size", "batch")],
)
async def test_emptying_a_required_field_shows_it_empty_and_blocks_writing(tmp_path, field, step):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        widget = await _type(app, pilot, field, step, "")
        found = [f for f in app.session.findings if f.id == "KEY-007"]
        assert len(found) == 1 and app.session.blocked and widget.value == ""
        assert len(_error_lines(app)) == 1
        assert _badge(app, field) == "edited"  # the empty field is the user's, not the preset's
        widget.value = "Qwen/Qwen3-8B" if field == "models.actor_path" else "64"
        await pilot.pause()
        await pilot.pause()
        assert "KEY-007" not in ids(app) and _error_lines(app) == []


async def test_emptying_an_optional_field_falls_back_to_the_preset_with_its_badge(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await _type(app, pilot, "trainer.experiment_name", "deployment", "mine")
        assert app.session.source_of("trainer.experiment_name") == "edited"
        await _type(app, pilot, "trainer.experiment_name", "deployment", "")
        assert app.session.source_of("trainer.experiment_name") == "preset"
        assert not ids(app) & {"KEY-006", "KEY-007"} and _error_lines(app) == []


async def test_saved_answers_carry_the_topology_and_a_resume_plans_for_it_again(tmp_path):
    answers = tmp_path / "answers.yaml"
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology="1xH100")
    app.answers_path = str(answers)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert "topology: 1xH100" in answers.read_text()
    resumed = make_app(None, out=str(tmp_path / "o"), topology=None, answers=str(answers))
    async with resumed.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert resumed.session.topology_spec == "1xH100" and resumed.session.topology is not None
        assert len(resumed.session.topology.gpus) == 1
    # a topology given at the door wins over the one recorded
    again = make_app(None, out=str(tmp_path / "o"), topology="8xH100", answers=str(answers))
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.session.topology_spec == "8xH100"


async def test_a_new_target_written_to_the_same_folder_removes_the_old_manifest_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("WANDB_API_KEY", "set")
    out = tmp_path / "o"
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(out), topology="1xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        app.apply_edit("deploy.target", "kuberay-job")
        app.goto("review")
        await pilot.pause()
        await pilot.click("#write")
        await pilot.pause()
        assert (out / "rayjob.yaml").is_file()
        app.goto("deployment")
        await pilot.pause()
        app.apply_edit("deploy.target", "local")
        app.goto("review")
        await pilot.pause()
        await pilot.click("#write")
        await pilot.pause()
        if app.screen.query("#replace"):
            await pilot.click("#replace")
            await pilot.pause()
        assert not (out / "rayjob.yaml").exists() and (out / "run.sh").is_file()
        status = str(app.screen.query_one("#write-status").render())
        assert "rayjob.yaml" in status  # said on screen, not only in RUN.md


async def test_a_fix_from_the_palette_shows_in_the_focused_field_it_changed(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        widget = await _type(app, pilot, "batch.ppo_mini_batch_size", "batch", "5000")  # BATCH-002, fix 1024
        assert app.focused is widget
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        for key in "first error":
            await pilot.press("space" if key == " " else key)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.5)
        assert app.focused is widget and app.session.value("batch.ppo_mini_batch_size") == 1024
        assert widget.value == "1024"  # the screen showed 5000 while 1024 was written


async def test_typing_in_a_focused_field_keeps_the_text_as_typed(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        widget = await _type(app, pilot, "algorithm.lr", "models", "1e-6")
        assert widget.value == "1e-6" and app.session.value("algorithm.lr") == 1e-6
        widget = await edit_at_end_of(app, pilot, "trainer.experiment_name", step="deployment")
        assert app.focused is widget
        widget.value = ""  # an optional field emptied to type anew: the preset answers, the field stays empty
        await pilot.pause()
        await pilot.pause()
        assert widget.value == "" and app.session.source_of("trainer.experiment_name") == "preset"


async def test_a_blocked_write_says_so_in_the_error_colour_and_the_buttons_stay_readable(tmp_path):
    from textual.color import Color
    from textual.widgets import Button

    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await _type(app, pilot, "batch.train_batch_size", "batch", "0")  # KEY-006 blocks writing
        app.goto("review")
        await pilot.pause()
        await pilot.pause()
        status = app.screen.query_one("#write-status")
        assert status.has_class("-error") and status.styles.color == Color.parse(app.get_css_variables()["error"])
        for button in app.screen.query(Button):
            assert button.styles.color != button.styles.background, button.id
