"""Text inputs that apply editing keys in the order they were typed.

Textual inserts a printable key in the Input's own handler, but runs a non-priority binding (backspace,
delete, cursor moves, enter) only after the key has bubbled up through every ancestor to the App. Under a
burst (a fast typist, a paste of keys, `tmux send-keys`) the characters queued behind a backspace are
inserted before it comes back: "clear the field, then type" keeps the wrong text. These inputs run their
own editing bindings where the key arrives, so keys apply in order. Clipboard keys (copy, cut, paste) still
take the normal way: whether they apply depends on a selection, and their order against typing is moot.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input

CLIPBOARD = {"copy", "cut", "paste"}


def _editing_actions() -> dict[str, str]:
    actions = {}
    for binding in Input.BINDINGS:
        if not isinstance(binding, Binding):  # Textual's Input declares each as a Binding
            continue
        if binding.action.partition("(")[0] in CLIPBOARD:
            continue
        for key in binding.key.split(","):
            actions[key.strip()] = binding.action
    return actions


EDITING_ACTIONS = _editing_actions()


class OrderedInput(Input):
    """An Input whose editing keys apply in the order typed (see the module's docstring)."""

    async def on_key(self, event: events.Key) -> None:
        action = EDITING_ACTIONS.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)
