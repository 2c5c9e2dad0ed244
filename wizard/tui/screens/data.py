"""Data: training and validation files, the prompt column, the length limits and filtering.

When the files are on this machine the step reads them (bounded: a sample of rows) and shows what verl
will see: the kind of rows, the columns, the prompt lengths against max_prompt_length.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Label, Static, Switch

from wizard.detect.data.report import summary_lines
from wizard.i18n import t
from wizard.tui.screens.base import StepScreen


class DataScreen(StepScreen):
    STEP = "data"

    class ModeChosen(Message):
        """Check for this machine ("local": read the files and models here) or for a cluster ("cluster")."""

        def __init__(self, data: DataScreen, mode: str) -> None:
            super().__init__()
            self.data = data
            self.mode = mode

    def compose_top(self) -> ComposeResult:
        with Horizontal(classes="inline-form"):
            yield Switch(value=self.session.mode == "local", id="check-local")
            yield Label(t("data.check_local"), classes="switch-label")

    def compose_bottom(self) -> ComposeResult:
        yield Label(t("data.report"), classes="section-title")
        yield Static("", id="data-report")

    def on_switch_changed(self, event: Switch.Changed) -> None:
        if event.switch.id == "check-local":
            event.stop()
            self.post_message(self.ModeChosen(self, "local" if event.value else "cluster"))

    def refresh_extra(self) -> None:
        report = self.session.ctx.data
        files = getattr(report, "files", {}) if report else {}
        limit = self.session.layered.answers.data.max_prompt_length
        lines = [line for file in files.values() for line in summary_lines(file, limit)]
        self.query_one("#data-report", Static).update("\n".join(lines) or t("data.no_files"))
