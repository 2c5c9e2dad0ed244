"""wizard/tui/input_order.py on a small app: keys held behind a key whose widget removes itself are handed
over, in order, to the new focus (the markers that follow a key cannot come back through a removed widget:
none is waited for there), and a focus move made after a refresh through `hold_input_until_refresh` takes
the keys typed behind it. Neither was wrong before the serialising (keys were never held); these guard it."""

from __future__ import annotations

from textual import events
from textual.app import App
from textual.widgets import Input

from wizard.tui.input_order import InputInOrder


class GoesAway(Input):
    """ctrl+r: hands the focus on and removes itself."""

    async def on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+r":
            event.stop()
            self.screen.query_one("#second").focus()
            self.remove()


class TwoFields(InputInOrder, App):
    BINDINGS = [("ctrl+l", "later_to_second")]

    def compose(self):
        yield GoesAway(id="first")
        yield Input(id="second")

    def action_later_to_second(self) -> None:
        self.hold_input_until_refresh(self, lambda: self.query_one("#second").focus())


def _post(app, keys):
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def _settled(app, pilot):
    for _ in range(40):
        await pilot.pause()
        if not app.input_held:
            return


async def test_keys_behind_a_key_whose_widget_was_removed_are_handed_over():
    app = TwoFields()
    async with app.run_test() as pilot:
        app.query_one("#first").focus()
        await pilot.pause()
        _post(app, ["a", "ctrl+r", "b", "c"])
        await _settled(app, pilot)
        assert not app.input_held
        assert app.query_one("#second", Input).value == "bc"


async def test_a_focus_move_after_a_refresh_takes_the_keys_typed_behind_it():
    app = TwoFields()
    async with app.run_test() as pilot:
        first = app.query_one("#first", Input)
        first.focus()
        await pilot.pause()
        _post(app, ["a", "ctrl+l", "x", "y"])
        await _settled(app, pilot)
        assert (first.value, app.query_one("#second", Input).value) == ("a", "xy")
