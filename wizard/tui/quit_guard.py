"""Quitting never loses an edit: every way out (ctrl+q, the palette's Quit, Esc at top level, ctrl+c) asks
first while there are unsaved edits (save answers / quit without saving / stay).

"Unsaved" means an edit, fix or load since the answers were last saved or the files last written. Textual's
own ctrl+q binding and the palette's built-in Quit both call App.action_quit, so that is where the question
lives; Esc closes the innermost thing (a dialog, a dropdown, the palette, help closes itself) and reaches the
app only at top level.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wizard.tui.screens.dialogs import QuitDialog

if TYPE_CHECKING:
    from textual.app import App

    from wizard.tui.delivery import BrowserDelivery, DiskDelivery

    _App = App[Any]  # what the checker sees: this mixes into the wizard's App
else:
    _App = object


class QuitGuard(_App):
    """Mixin for the wizard app: the quit question, and what counts as unsaved."""

    if TYPE_CHECKING:  # what it uses of the wizard's App (wizard/tui/app.py)
        answers_path: str
        written: list[str]
        delivery: DiskDelivery | BrowserDelivery

        def action_save_answers(self) -> bool: ...

        def _deliver_answers_then_exit(self) -> None: ...

    unsaved = False  # edits since the last save of the answers or the last write of the files
    written_dir: str | None = None  # the folder the files were last written to

    def mark_unsaved(self) -> None:
        self.unsaved = True

    def mark_saved(self) -> None:
        self.unsaved = False

    async def action_quit(self) -> None:
        # Textual's priority ctrl+q and the command palette's "Quit" both land here.
        self.action_ask_quit()

    def action_escape_top(self) -> None:
        """Esc that no dialog, dropdown or palette took: ask if there is something to lose, else nothing."""
        if self.unsaved:
            self.action_ask_quit()

    def action_ask_quit(self) -> None:
        if isinstance(self.screen, QuitDialog):
            return
        if not self.unsaved:
            self.exit(self.written)
            return

        def decide(choice: str | None) -> None:
            if choice == "save" and self.delivery.to_browser:
                self._deliver_answers_then_exit()
            elif choice == "save":
                if self.action_save_answers():
                    self.exit(self.written)
            elif choice == "discard":
                self.exit(self.written)

        self.push_screen(QuitDialog(self.answers_path), decide)
