"""The wizard's notifications in a line of the layout, under the step, instead of Textual's toasts.

A toast is drawn over the step's widgets, and Textual's compositor cuts every screen line at the edges of all
the widgets in it, those under the toast included: a Chinese character that straddles such an edge is painted
as two spaces ("已写出 4   文件", issue 32 item 9). A line of its own, docked under the step, has no widget
under it, so nothing is cut. It shows the latest notification until its timeout."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class NoticeLine(Static):
    """The latest notification; hidden when there is none."""

    _timer = None

    def __init__(self) -> None:
        super().__init__("", id="notice-line", markup=False)
        self.display = False

    def say(self, message: str, severity: str, timeout: float) -> None:
        """Show this message (plain text: our messages hold [1] and paths, not markup) for `timeout` seconds."""
        self.set_class(severity == "error", "-error")
        self.set_class(severity == "warning", "-warning")
        self.update(Text(message))
        self.display = True
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(timeout, self._clear)

    def _clear(self) -> None:
        self._timer = None
        self.display = False
