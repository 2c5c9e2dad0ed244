"""What the steps ask the app for: a preset, an answers file, a launch script, a topology, the language, the
check mode, a write. Each step posts a message declared on its screen (StartScreen.PresetChosen, ...); this
mixin of the app handles them, changes the session and repaints, and answers a step that shows an outcome
(a load's status line) through that step's own method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wizard.errors import UsageError
from wizard.i18n import t
from wizard.i18n.text import msg

if TYPE_CHECKING:
    from textual.app import App

    from wizard.tui.delivery import BrowserDelivery, DiskDelivery
    from wizard.tui.screens.data import DataScreen
    from wizard.tui.screens.hardware import HardwareScreen
    from wizard.tui.screens.review import ReviewScreen
    from wizard.tui.screens.start import StartScreen
    from wizard.tui.session import Session

    _App = App[Any]  # what the checker sees: this mixes into the wizard's App
else:
    _App = object


class StepRequests(_App):
    """App mixin: the steps' requests, applied to the session."""

    if TYPE_CHECKING:  # what it uses of the wizard's App (wizard/tui/app.py)
        answers_path: str
        delivery: DiskDelivery | BrowserDelivery

        @property
        def session(self) -> Session: ...

        def refresh_step(self) -> None: ...

        def request_write(self) -> None: ...

        def switch_language(self, lang: str) -> None: ...

    # -- session-level actions ----------------------------------------------------------------------
    def choose_preset(self, name: str | None) -> None:
        self.session.load_preset(name)
        self.refresh_step()

    def load_answers(self, path: str) -> str:
        if not self.delivery.reads_server_files:
            return str(msg("serve.no_server_files"))
        if not path.strip():  # Load with the box empty: say what goes there, not that "." is a folder
            return t("start.path_needed.answers")
        try:
            self.session.load_answers(path)
        except UsageError as exc:
            return str(exc)
        self.answers_path = path
        self.refresh_step()
        return t("start.loaded", what=path)

    def import_script(self, path: str) -> str:
        if not self.delivery.reads_server_files:
            return str(msg("serve.no_server_files"))
        if not path.strip():
            return t("start.path_needed.script")
        try:
            notes = self.session.load_script(path)
        except UsageError as exc:
            return str(exc)
        self.refresh_step()
        return t("start.imported", what=path, n=len(notes))

    def set_topology(self, spec: str | None) -> None:
        self.session.set_topology(spec)
        self.refresh_step()

    # -- what the steps ask for ------------------------------------------------------------------------
    def on_start_screen_preset_chosen(self, message: StartScreen.PresetChosen) -> None:
        self.choose_preset(message.name)

    def on_start_screen_language_chosen(self, message: StartScreen.LanguageChosen) -> None:
        self.switch_language(message.lang)

    def on_start_screen_answers_requested(self, message: StartScreen.AnswersRequested) -> None:
        message.start.show_answers_status(self.load_answers(message.path))

    def on_start_screen_script_requested(self, message: StartScreen.ScriptRequested) -> None:
        message.start.show_script_status(self.import_script(message.path))

    def on_data_screen_mode_chosen(self, message: DataScreen.ModeChosen) -> None:
        # What is checked, not an answer: nothing unsaved, and the step that asked shows it at once.
        self.session.set_mode(message.mode)
        message.data.refresh_view()

    def on_hardware_screen_topology_chosen(self, message: HardwareScreen.TopologyChosen) -> None:
        try:
            self.set_topology(message.spec)
        except UsageError as exc:
            message.hardware.show_topology(str(exc))
            return
        message.hardware.show_topology()

    def on_review_screen_write_requested(self, message: ReviewScreen.WriteRequested) -> None:
        self.request_write()
