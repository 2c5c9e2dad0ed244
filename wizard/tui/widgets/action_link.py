"""A one-line button: click it, or focus it and press enter or space.

Textual's Button brings the largest default stylesheet of any widget (its variants), parsed when the first
Button mounts; the Start step is painted first at every start, so its two actions use this instead.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static


class ActionLink(Static, can_focus=True):
    """Posts ActionLink.Pressed when clicked or activated from the keyboard."""

    BINDINGS = [Binding("enter,space", "press", show=False)]

    class Pressed(Message):
        def __init__(self, link: ActionLink) -> None:
            super().__init__()
            self.link = link

        @property
        def control(self) -> ActionLink:
            return self.link

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_press()

    def action_press(self) -> None:
        self.post_message(self.Pressed(self))
