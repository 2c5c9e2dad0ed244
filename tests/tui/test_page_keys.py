"""PageDown/PageUp change the step wherever the focus is (issue 32 item 4): a served student's step keys, since a
browser keeps ctrl+n and ctrl+w for itself. Before, the focused preset list or the step's scroll area paged with
them and the step never changed (README said they did)."""

from __future__ import annotations

from textual import events

from tests.tui.helpers import make_app

PRESET = "workshop-grpo-0.5b-1gpu"


async def _settle(pilot, rounds: int = 12) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def test_pagedown_and_pageup_change_the_step_from_a_focused_list(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await _settle(pilot, 4)
        assert app.step == "start" and app.focused is not None  # the preset list has the focus
        await pilot.press("pagedown")
        await _settle(pilot)
        assert app.step == "models"
        await pilot.press("pagedown", "pagedown")
        await _settle(pilot)
        assert app.step == "hardware"
        await pilot.press("pageup")
        await _settle(pilot)
        assert app.step == "data"


async def test_keys_typed_after_pagedown_go_to_the_new_step(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("batch")
        await _settle(pilot, 5)
        first = app.screen.row_for("batch.train_batch_size").input_widget
        for key in ("4", "8", "pageup", "7"):  # Hardware comes before Batch
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await _settle(pilot)
        assert first.value == "48" and app.step == "hardware" and app.focused.value == "7"
