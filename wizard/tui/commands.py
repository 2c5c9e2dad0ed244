"""Command palette entries (ctrl+p): go to a step, apply the first fix, save answers, write files."""

from __future__ import annotations

from functools import partial
from typing import cast

from textual.command import Hit, Hits, Provider

from wizard.i18n import t
from wizard.tui.app_view import WizardAppView
from wizard.tui.steps import STEPS


class WizardCommands(Provider):
    def _commands(self):
        app = cast(WizardAppView, self.app)  # the wizard's App (wizard/tui/app_view.py)
        for step in STEPS:
            yield t("palette.goto", step=t("step." + step)), partial(app.goto, step)
        yield t("palette.fix_first", fix=t("key.fix")), app.action_fix_first
        yield t("key.save"), app.action_save_answers
        yield t("review.write"), app.request_write

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback)

    async def discover(self) -> Hits:
        for name, callback in self._commands():
            yield Hit(1, name, callback)
