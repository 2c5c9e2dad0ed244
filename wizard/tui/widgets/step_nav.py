"""The list of steps on the left: click or select to go there; marks show steps with errors."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from wizard.core.findings import Finding, Severity
from wizard.i18n import t
from wizard.tui.messages import StepRequested
from wizard.tui.steps import STEPS, step_of


class StepNav(OptionList):
    def __init__(self, current: str) -> None:
        super().__init__(id="step-nav")
        self.current = current

    def show(self, findings: list[Finding]) -> None:
        worst: dict[str, Severity] = {}
        for f in findings:
            for path in f.paths[:1]:
                step = step_of(path)
                if f.severity is Severity.ERROR or (f.severity is Severity.WARNING and worst.get(step) is not Severity.ERROR):
                    worst[step] = f.severity if worst.get(step) is not Severity.ERROR else Severity.ERROR
        shown = getattr(self, "_shown", None)
        if worst == shown:
            return
        self._shown = worst
        if shown is None or self.option_count != len(STEPS):
            self.clear_options()
            self.add_options([Option(self._label(n, step, worst), id=f"nav-{step}") for n, step in enumerate(STEPS, 1)])
            self.highlighted = STEPS.index(self.current)
            return
        # Same lines, new marks: replace the changed prompts only (a repaint of the list, no re-measure).
        for n, step in enumerate(STEPS, 1):
            if worst.get(step) is not shown.get(step):
                self.replace_option_prompt_at_index(n - 1, self._label(n, step, worst))

    def _label(self, n: int, step: str, worst: dict[str, Severity]) -> Text:
        mark = {Severity.ERROR: ("✗", "red"), Severity.WARNING: ("!", "yellow")}.get(worst.get(step), ("·", "green"))
        text = Text()
        text.append(f"{mark[0]} ", style=mark[1])
        text.append(f"{n} {t('step.' + step)}", style="bold" if step == self.current else "")
        return text

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(StepRequested(STEPS[event.option_index]))
