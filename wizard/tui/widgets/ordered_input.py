"""Text inputs that apply editing keys in the order they were typed.

Textual inserts a printable key in the Input's own handler, but runs a non-priority binding (backspace,
delete, cursor moves, enter) only after the key has bubbled up through every ancestor to the App. Under a
burst (a fast typist, a paste of keys, `tmux send-keys`) the characters queued behind a backspace are
inserted before it comes back: "clear the field, then type" keeps the wrong text. These inputs run their
own editing bindings where the key arrives, so keys apply in order. Clipboard keys (copy, cut, paste) still
take the normal way: whether they apply depends on a selection, and their order against typing is moot.

A paste goes in whole, at the cursor, as one line without what no answer holds (wizard.core.pasted_text); the
step's notice line says what was left out.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input

from wizard.core.pasted_text import Pasted, for_one_line
from wizard.i18n import t

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

    def on_paste(self, event: events.Paste) -> None:
        # prevent_default: Textual's own paste handler (the first line, as pasted) must not run after this one
        event.stop()
        event.prevent_default()
        pasted = for_one_line(event.text)
        if pasted.text:
            selection = self.selection
            if selection.is_empty:
                self.insert_text_at_cursor(pasted.text)
            else:
                self.replace(pasted.text, *selection)
        if pasted.changed:
            self.app.notify(left_out(pasted), severity="warning")


def left_out(pasted: Pasted) -> str:
    """The notice naming what a paste left out, in the current language."""
    parts = []
    if pasted.sequences:
        parts.append(t("paste.sequences", n=pasted.sequences))
    parts.extend(pasted.characters)
    if pasted.lines > 1:
        parts.append(t("paste.lines", n=pasted.lines - 1))
    return t("paste.left_out", what=t("paste.separator").join(parts))
