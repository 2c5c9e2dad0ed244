"""Every key of a burst goes to the widget that had the focus when it was typed (issue 32 item 1).

The keys are posted to the app all at once, as the terminal driver hands over a burst, before the app has
processed any of them. Tab and ctrl+n move the focus only when their binding runs, after the key has bubbled
up to the App: before wizard/tui/input_order.py the keys behind them were already in the old widget's queue
(the burst below saved 32/4/16; `48 ctrl+n 7` left 487 in Batch).
"""

from __future__ import annotations

import yaml
from textual import events

from tests.tui.helpers import make_app
from wizard.tui.focus import AUTO

PRESET = "workshop-grpo-0.5b-1gpu"
BURST = [
    *["end", *["backspace"] * 4, "1", "2", "8", "tab"],
    *["end", *["backspace"] * 2, "8", "tab"],
    *["end", *["backspace"] * 3, "3", "2"],
    "ctrl+s",
]


def _post_burst(app, keys: list[str]) -> None:
    for key in keys:
        character = key if len(key) == 1 else {"tab": "\t"}.get(key)
        app.post_message(events.Key(key, character))


async def _settle(pilot, rounds: int = 15) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def _at_batch(app, pilot):
    app.goto("batch")
    await _settle(pilot, 5)
    first = app.screen.row_for("batch.train_batch_size").input_widget
    assert app.focused is first  # the step focuses its first field
    return first


async def test_a_burst_across_three_fields_saves_what_was_typed(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    app.answers_path = str(tmp_path / "answers.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_batch(app, pilot)
        _post_burst(app, BURST)
        await _settle(pilot)
        saved = yaml.safe_load((tmp_path / "answers.yaml").read_text())["batch"]
        assert (saved["train_batch_size"], saved["rollout_n"], saved["ppo_mini_batch_size"]) == (128, 8, 32)


async def test_keys_after_a_step_change_go_to_the_new_steps_field(tmp_path):
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        first = await _at_batch(app, pilot)
        # Hardware comes before Batch: ctrl+b goes to it (the issue's `48 ctrl+n 7` went from Batch to Hardware)
        _post_burst(app, ["4", "8", "ctrl+b", "7"])  # the focus selected the field's text: 48 replaces it
        await _settle(pilot)
        assert first.value == "48" and app.session.value("batch.train_batch_size") == 48
        assert app.step == "hardware"
        focused = app.focused
        assert focused is getattr(app.screen, AUTO)  # the field Hardware focuses first
        assert focused.value == "7"


def _post_click(app, widget) -> None:
    # as the driver hands a click over: a press and a release at one place, to the App
    x, y = widget.region.center
    for kind in (events.MouseDown, events.MouseUp):
        app.post_message(kind(None, x, y, 0, 0, 1, False, False, False, screen_x=x, screen_y=y))


async def test_a_click_behind_a_tab_keeps_the_focus_it_gave(tmp_path):
    # Before: Tab's focus move ran after the click's, so the focus left the clicked field for the next one.
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_batch(app, pilot)
        clicked = app.screen.row_for("batch.ppo_mini_batch_size").input_widget
        _post_burst(app, ["tab"])
        _post_click(app, clicked)
        _post_burst(app, ["end", "backspace", "backspace", "2", "4"])
        await _settle(pilot)
        assert app.focused is clicked
        assert clicked.value == "24"


async def test_the_same_keys_one_at_a_time_give_the_same_answers(tmp_path):
    # The neighbour: with the app idle between keys the answers were always right.
    app = make_app(PRESET, out=str(tmp_path / "o"), topology=None)
    app.answers_path = str(tmp_path / "answers.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        await _at_batch(app, pilot)
        await pilot.press(*BURST)
        await _settle(pilot, 5)
        saved = yaml.safe_load((tmp_path / "answers.yaml").read_text())["batch"]
        assert (saved["train_batch_size"], saved["rollout_n"], saved["ppo_mini_batch_size"]) == (128, 8, 32)
