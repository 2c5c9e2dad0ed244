"""Batch: the sizes, with the live chain prompts -> responses -> per GPU -> mini-batches -> micro-steps."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Label, Static

from wizard.i18n import t
from wizard.tui.screens.base import StepScreen
from wizard.tui.widgets.chain_view import chain_text
from wizard.tui.widgets.repaint import update_static


class BatchScreen(StepScreen):
    STEP = "batch"

    def compose_top(self) -> ComposeResult:
        yield Label(t("batch.chain"), classes="section-title")
        yield Static("", id="chain")

    def refresh_extra(self) -> None:
        update_static(self.part("#chain", Static), chain_text(self.session.layered.answers, self.session.plan))
