"""Modal dialogs: confirm replacing files (with the diff), field help, quit (save answers?)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from wizard.i18n import t
from wizard.tui.bindings import LocalizedBindings


class ConfirmReplace(LocalizedBindings, ModalScreen[bool]):
    """Shows the diff of every file that would change; dismisses with True only on Replace."""

    BINDINGS = [Binding("escape", "keep", "confirm.no")]

    def __init__(self, out_dir: str, diffs: dict[str, str], removed: list[str] | None = None) -> None:
        super().__init__(id="confirm-replace")
        self.out_dir, self.diffs, self.removed = out_dir, diffs, list(removed or [])

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("confirm.title", out=self.out_dir), classes="dialog-title")
            if self.diffs:
                yield Label(t("confirm.body"))
            if self.removed:  # an earlier set's files this set drops (job.sbatch after a switch to local)
                yield Label(t("confirm.removes", names=", ".join(self.removed)), id="confirm-removes")
            with VerticalScroll(classes="dialog-body"):
                from rich.syntax import Syntax  # pygments: loaded for a diff, not with the app's first screen

                yield Static(Syntax("\n".join(self.diffs.values()), "diff", word_wrap=True))
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("confirm.no"), id="keep", variant="primary")
                yield Button(t("confirm.yes"), id="replace", variant="error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "replace")

    def action_keep(self) -> None:
        self.dismiss(False)


class HelpDialog(LocalizedBindings, ModalScreen[None]):
    BINDINGS = [Binding("escape,f1", "close", "help.close")]

    def __init__(self, title: str, body: str) -> None:
        super().__init__(id="help-dialog")
        self.title_text, self.body = title, body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Static(self.body, classes="dialog-body")
            yield Label(t("help.close"), classes="dim")

    def action_close(self) -> None:
        self.dismiss(None)


class QuitDialog(LocalizedBindings, ModalScreen[str]):
    """Ask what to do with unsaved edits: dismisses with "save", "discard" or "stay"."""

    BINDINGS = [Binding("escape", "stay", "quit.stay")]

    def __init__(self, path: str) -> None:
        super().__init__(id="quit-dialog")
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(t("quit.question", path=self.path), classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button(t("quit.save"), id="save", variant="primary")
                yield Button(t("quit.discard"), id="discard", variant="error")
                yield Button(t("quit.stay"), id="stay")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_stay(self) -> None:
        self.dismiss("stay")
