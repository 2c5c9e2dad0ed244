"""Review's "Ask verl" (`tui --verl PYTHON`, issue 31): the verl given asks about the config.yaml the wizard writes.

The verl asked is the fake of tests/cli/verl_fakes.py on PYTHONPATH: it accepts a config whose train_batch_size
divides by its GPU count times `strict`, and refuses the rest with its planted words (VERL-002). The workshop
preset has 64 prompts on 1 GPU: strict=3 refuses it, and the same config edited to 48 prompts is accepted, which
shows that verl is asked about the file as the wizard would write it now. The real verl 0.9.1 is asked in
tests/conformance/test_review_verl.py.
"""

from __future__ import annotations

import time

import pytest
from textual.widgets import Button

from tests.cli.verl_fakes import find_hydra_python, make_fake_verl
from tests.tui.helpers import edit_at_end_of
from wizard.cli import parse
from wizard.commands.tui import build_app
from wizard.tui.delivery import BrowserDelivery
from wizard.tui.field_help import help_for

WORKSHOP = "workshop-grpo-0.5b-1gpu"


@pytest.fixture(scope="module")
def hydra_python() -> str:
    return find_hydra_python()


def app_for(tmp_path, *extra: str, lang: str = "en"):
    return build_app(parse(["tui", "--preset", WORKSHOP, "--out", str(tmp_path / "out"), "--lang", lang, *extra]))


async def _review(app, pilot):
    await pilot.pause()
    app.goto("review")
    await pilot.pause()
    await pilot.pause()


async def _ask(app, pilot) -> tuple[str, str]:
    """Press "Ask verl", wait for verl's lines (a child process), return (the status line, the lines)."""
    button = app.screen.query_one("#verl-run", Button)
    button.press()
    await pilot.pause()  # the press is handled: the last answer's lines are cleared, the button waits
    deadline = time.monotonic() + 60
    while button.disabled or not str(app.screen.query_one("#verl-findings").render()).strip():
        await pilot.pause(0.2)
        assert time.monotonic() < deadline, "verl did not answer"
    return str(app.screen.query_one("#verl-status").render()), str(app.screen.query_one("#verl-findings").render())


async def test_without_verl_review_has_no_ask_button(tmp_path):
    app = app_for(tmp_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        assert app.verl is None
        assert not app.screen.query("#verl-run") and app.screen.query("#doctor-run")


async def test_verl_accepts_the_written_config_and_says_which_verl(tmp_path, monkeypatch, hydra_python):
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "fake")))
    app = app_for(tmp_path, "--verl", hydra_python)
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        button = app.screen.query_one("#verl-run", Button)
        assert str(button.label).startswith("Ask verl (") and "python" in str(button.label)
        # F1 on it says what verl is asked: the file the wizard writes, whatever filled the answers
        title, body = help_for(app, button)
        assert title == "Help: Ask verl" and "an imported script" in body and "config.yaml this wizard" in body
        status, lines = await _ask(app, pilot)
        assert status == "verl on this config.yaml: 0 error(s), 0 warning(s)"
        # the fake is a folder on PYTHONPATH, not under site-packages: verl names it by its folder
        checks = "compose, auto_set_device, validate_config, resolve"
        assert lines == f"i verl 0.0.0+fake at {tmp_path / 'fake' / 'verl'} accepts it ({checks})"


async def test_verl_refuses_in_its_own_words_and_an_edit_changes_the_question(tmp_path, monkeypatch, hydra_python):
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=3)))
    app = app_for(tmp_path, "--verl", hydra_python)
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        status, lines = await _ask(app, pilot)
        assert status == "verl on this config.yaml: 1 error(s), 0 warning(s)"
        assert lines.startswith("✗ VERL-002 ") and "planted: train_batch_size (64) must be divisible by 3 GPUs" in lines
        # the wizard's own rules know no such rule: only verl refuses these answers
        assert not [f for f in app.session.findings if f.id.startswith("VERL")]
        await edit_at_end_of(app, pilot, "batch.train_batch_size", "batch")
        await pilot.press("backspace", "backspace", "4", "8")
        await pilot.pause()
        assert app.session.value("batch.train_batch_size") == 48
        await _review(app, pilot)
        status, lines = await _ask(app, pilot)
        assert status.startswith("verl on this config.yaml: 0 error(s)") and "accepts it" in lines


async def test_in_chinese(tmp_path, monkeypatch, hydra_python):
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=3)))
    app = app_for(tmp_path, "--verl", hydra_python, lang="zh")
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        assert str(app.screen.query_one("#verl-run", Button).label).startswith("询问 verl（")
        status, lines = await _ask(app, pilot)
        assert status == "verl 对这份 config.yaml 的结论：1 个错误，0 个警告"
        assert "VERL-002" in lines and "planted: train_batch_size (64)" in lines


async def test_a_served_wizard_hides_it_like_doctor(tmp_path, monkeypatch, hydra_python):
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "fake")))
    app = app_for(tmp_path, "--verl", hydra_python)
    app.delivery = BrowserDelivery()
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        assert app.screen.query_one("#verl-row").display is False
        assert app.screen.query_one("#doctor-row").display is False


async def test_a_script_imported_on_the_start_step_is_asked_as_the_config_the_wizard_writes(
    tmp_path, monkeypatch, hydra_python
):
    # the preset alone (64 prompts) is refused by this verl (the test above); the script's 48 is what verl is asked
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=3)))
    script = tmp_path / "old.sh"
    script.write_text("python3 -m verl.trainer.main_ppo data.train_batch_size=48\n")
    app = app_for(tmp_path, "--verl", hydra_python)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#script-path").value = str(script)
        app.screen.query_one("#import-script").scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#import-script")
        await pilot.pause()
        assert app.session.value("batch.train_batch_size") == 48
        await _review(app, pilot)
        status, lines = await _ask(app, pilot)
    assert status == "verl on this config.yaml: 0 error(s), 0 warning(s)" and "accepts it" in lines, lines
