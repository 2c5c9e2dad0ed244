"""The app's notify() shown in the step's notice line (widgets/notice_line.py), where one is on screen.

Textual's toasts lose Chinese characters where they cross a widget's edge (issue 32 item 9); a dialog, which has
no notice line, still gets a toast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wizard.tui.widgets.notice_line import NoticeLine

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

    _App = App[Any]  # what the checker sees: this mixes into the wizard's App
else:
    _App = object


class NoticesInLine(_App):
    """Mixed into the App before Textual's App: notify() finds the current screen's notice line."""

    def notify(
        self, message, *, title: str = "", severity: SeverityLevel = "information", timeout=None, markup: bool = True
    ):
        lines = self.screen.query(NoticeLine)
        if not lines:
            return super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        text = f"{title}\n{message}" if title else str(message)
        lines.first().say(text, severity, self.NOTIFICATION_TIMEOUT if timeout is None else timeout)
        return None
