"""A scrollbar that repaints only when what it shows changes.

Textual repaints a scrollbar whenever the size of what it scrolls changes. The findings list changes size on
most edits (a finding comes or goes), and while the findings fit the list its scrollbar has no thumb: the
same blank bar was repainted, all its lines, on each of those keystrokes. This scrollbar compares what it
would draw (Textual's ScrollBarRender: sizes, position, style; a bar without a thumb draws the same whatever
the sizes) with what it drew last and skips the repaint when they are the same. Relies on Textual 8.2's
ScrollBar (a reactive change calls `refresh()`, `render()` returns the renderer with its parameters).
"""

from __future__ import annotations

from textual.geometry import Region
from textual.scrollbar import ScrollBar


class SteadyScrollBar(ScrollBar):
    """ScrollBar: a plain repaint request is skipped when the bar would be drawn as it is."""

    _drawn: tuple | None = None  # what the bar drew last; None: unknown, repaint

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False):
        plain = not (regions or layout or recompose) and repaint and self.is_mounted
        drawn, self._drawn = self._drawn, (self._drawing() if plain else None)
        if plain and drawn is not None and drawn == self._drawn:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _drawing(self) -> tuple:
        bar = self.render()
        sizes = (getattr(bar, "virtual_size", None), getattr(bar, "window_size", None), getattr(bar, "position", None))
        length = self.size.height if self.vertical else self.size.width
        virtual, window, _ = sizes
        if not (window and length and virtual and length != virtual):  # ScrollBarRender draws no thumb
            sizes = None
        return (
            type(bar),
            self.size,
            sizes,
            getattr(bar, "thickness", None),
            getattr(bar, "vertical", None),
            str(getattr(bar, "style", "")),
        )
