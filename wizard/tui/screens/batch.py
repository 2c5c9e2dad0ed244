"""Batch: the sizes, with the live chain prompts -> responses -> per GPU -> mini-batches -> micro-steps."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Label

from wizard.i18n import t
from wizard.tui.screens.base import StepScreen
from wizard.tui.widgets.chain_view import chain_line
from wizard.tui.widgets.wrapped_text import WrappedText


class BatchScreen(StepScreen):
    STEP = "batch"

    def compose_top(self) -> ComposeResult:
        yield Label(t("batch.chain"), classes="section-title")
        yield WrappedText(id="chain")
        yield WrappedText(id="critic-chain")

    def refresh_extra(self) -> None:
        # One widget per role: an edit of the actor's sizes repaints the actor's chain only.
        answers, plan = self.session.layered.answers, self.session.plan
        self.part("#chain", WrappedText).update(chain_line(plan.actor, answers.batch.rollout_n))
        critic = self.part("#critic-chain", WrappedText)
        if critic.display != (plan.critic is not None):
            critic.display = plan.critic is not None
        if plan.critic is not None:
            critic.update(chain_line(plan.critic, answers.batch.rollout_n))
