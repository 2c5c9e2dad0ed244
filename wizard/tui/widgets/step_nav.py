"""The list of steps on the left: click or select to go there; marks show steps with errors."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from wizard.core.findings import Finding, Severity
from wizard.i18n import t
from wizard.tui.messages import StepRequested
from wizard.tui.steps import STEPS
from wizard.tui.textual_compat import replace_prompt
from wizard.tui.visited import step_at as step_of

TO_DO = "to do"  # the mark of a step not shown yet that still has something to fill in


class StepNav(OptionList):
    def __init__(self, current: str) -> None:
        self.current = current
        # The steps are listed from the start, with no marks until the findings come (show()).
        self._shown: dict[str, Severity | str] = {}  # a Severity, or TO_DO
        super().__init__(
            *[Option(self._label(n, step, {}), id=f"nav-{step}") for n, step in enumerate(STEPS, 1)], id="step-nav"
        )

    def on_mount(self) -> None:
        self.highlighted = STEPS.index(self.current)

    def show(self, findings: list[Finding], seen: frozenset[str] | None = None) -> None:
        """Mark each step with its worst finding; a step not in `seen` with findings is marked to do."""
        worst: dict[str, Severity | str] = {}
        for f in findings:
            for path in f.paths[:1]:
                step = step_of(path)
                if seen is not None and step not in seen:
                    if f.severity in (Severity.ERROR, Severity.WARNING):
                        worst[step] = TO_DO
                    continue
                if f.severity is Severity.ERROR or (
                    f.severity is Severity.WARNING and worst.get(step) is not Severity.ERROR
                ):
                    worst[step] = f.severity if worst.get(step) is not Severity.ERROR else Severity.ERROR
        shown = self._shown
        if worst == shown:
            return
        self._shown = worst
        # Same lines, new marks: replace_prompt repaints the changed lines only, where it can (OptionList's own
        # prompt replacement repaints every line of the list, which fills the column).
        for index, step in enumerate(STEPS):
            if worst.get(step) is not shown.get(step):
                replace_prompt(self, index, self._label(index + 1, step, worst))

    def _label(self, n: int, step: str, worst: dict[str, Severity | str]) -> Text:
        marks: dict[Severity | str | None, tuple[str, str]] = {
            Severity.ERROR: ("✗", "red"),
            Severity.WARNING: ("!", "yellow"),
            TO_DO: ("○", "dim"),
        }
        mark = marks.get(worst.get(step), ("·", "green"))
        text = Text()
        text.append(f"{mark[0]} ", style=mark[1])
        text.append(f"{n} {t('step.' + step)}", style="bold" if step == self.current else "")
        return text

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(StepRequested(STEPS[event.option_index]))
