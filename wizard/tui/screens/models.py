"""Models per role: the actor, the reference (a frozen copy of the actor's start), the critic, the reward."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from wizard.i18n import t
from wizard.tui.clip import clip_words
from wizard.tui.screens.base import StepScreen


class ModelsScreen(StepScreen):
    STEP = "models"

    def compose_top(self) -> ComposeResult:
        yield Static("", id="reference-note", classes="note")
        yield Static("", id="critic-note", classes="note")

    def refresh_extra(self) -> None:
        plan, answers = self.session.plan, self.session.layered.answers
        if not plan.need_ref:
            ref = t("models.reference_none")
        elif plan.ref_in_actor:
            ref = t("models.reference_lora")
        else:
            ref = clip_words(t("models.reference", actor=answers.models.actor_path or "-"))
        self.query_one("#reference-note", Static).update(ref)
        critic = self.query_one("#critic-note", Static)
        critic.display = not plan.need_critic
        critic.update(t("models.critic_hidden", estimator=answers.algorithm.adv_estimator))
