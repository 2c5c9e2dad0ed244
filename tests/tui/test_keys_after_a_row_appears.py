"""A key typed right after an edit that shows or hides a field goes where the new focus chain sends it (issue 32
item 1, found by the real-terminal property test: `Tab` right after LoRA rank's edit skipped LoRA alpha, which the
edit had just shown, and the keys behind it went to the field after).

Showing a row changes the focus chain only once the screen has refreshed; the step holds input until then.
"""

from __future__ import annotations

from textual import events

from tests.tui.helpers import make_app

PRESET = "workshop-grpo-0.5b-1gpu"


async def _settle(pilot, rounds: int = 15) -> None:
    for _ in range(rounds):
        await pilot.pause()


def _post(app, keys: list[str]) -> None:
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else {"tab": "\t"}.get(key)))


async def test_tab_after_an_edit_that_shows_the_next_field_goes_into_it(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("models")
        await _settle(pilot, 5)
        rank = app.screen.row_for("models.lora_rank")
        alpha = app.screen.row_for("models.lora_alpha")
        assert alpha.display is False  # LoRA alpha shows once the rank is above 0
        rank.input_widget.focus()
        await _settle(pilot, 3)
        _post(app, ["end", "backspace", "8", "tab", *"24"])
        await _settle(pilot)
        assert app.session.value("models.lora_rank") == 8
        assert alpha.display is True and app.focused is alpha.input_widget
        assert app.session.value("models.lora_alpha") == 24


async def test_the_same_keys_one_at_a_time(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("models")
        await _settle(pilot, 5)
        app.screen.row_for("models.lora_rank").input_widget.focus()
        await _settle(pilot, 3)
        for key in ["end", "backspace", "8", "tab", *"24"]:
            _post(app, [key])
            await _settle(pilot, 4)
        assert app.session.value("models.lora_rank") == 8 and app.session.value("models.lora_alpha") == 24
