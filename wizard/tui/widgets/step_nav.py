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
        if worst == getattr(self, "_shown", None):
            return
        self._shown = worst
        self.clear_options()
        options = []
        for n, step in enumerate(STEPS, 1):
            mark = {Severity.ERROR: ("✗", "red"), Severity.WARNING: ("!", "yellow")}.get(worst.get(step), ("·", "green"))
            text = Text()
            text.append(f"{mark[0]} ", style=mark[1])
            text.append(f"{n} {t('step.' + step)}", style="bold" if step == self.current else "")
            options.append(Option(text, id=f"nav-{step}"))
        self.add_options(options)  # one re-measure of the list, not one per step
        self.highlighted = STEPS.index(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(StepRequested(STEPS[event.option_index]))
