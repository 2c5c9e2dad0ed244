"""A block of styled text repainted on every edit: the Batch chain, a finding's detail, the findings count.

Static turns each new rich Text into Textual content, measures its height and wraps it again to paint it,
about 1 ms for four lines. This widget wraps the Text once with rich (word wrap, the same as a Static's for
these texts), keeps the lines as strips, and answers Textual's line requests from them; it asks for a
screen layout only when the number of lines changes and its height follows its content, and otherwise
repaints only the lines that differ from the ones shown (an edit changes a number or two in the chain).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from wizard.tui.widgets.repaint import changed_spans, same_content


class WrappedText(Widget):
    """Shows a rich Text, word-wrapped to the widget's width."""

    DEFAULT_CSS = """
    WrappedText {
        height: auto;
    }
    """

    def __init__(self, text: Text | str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = Text(text) if isinstance(text, str) else text
        self._lines: list[Strip] | None = None
        self._lines_width = -1
        self._painted: list[Strip] = []  # the lines as painted: full width, in the widget's style
        self._painted_for: tuple = ()

    @property
    def text(self) -> Text:
        return self._text

    def update(self, text: Text) -> bool:
        """Show `text`; False when it is the text already shown (nothing is repainted)."""
        if same_content(self._text, text):
            return False
        width = self.content_size.width
        before = self._wrapped(width) if width else None
        self._text, self._lines = text, None
        # A layout only where the height follows the text and the text's height changed (or is not known yet).
        follows = self.display and (self.styles.height is None or self.styles.height.is_auto)
        if before is None:
            self.refresh(layout=follows)
            return True
        after = self._wrapped(width)
        if len(after) != len(before) and follows:
            self.refresh(layout=True)
            return True
        changed = changed_spans(before, after)
        if changed:
            self.refresh(*(Region(0, start, width, end - start) for start, end in changed))
        return True

    def _wrapped(self, width: int) -> list[Strip]:
        if self._lines is None or width != self._lines_width:
            console = self.app.console
            wrapped: Iterable[Text] = self._text.wrap(console, max(width, 1)) if self._text.plain else []
            self._lines = [Strip(_segments(line, console), line.cell_len) for line in wrapped]
            self._lines_width = width
            self._painted_for = ()  # painted from the old lines
        return self._lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._wrapped(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def render_lines(self, crop: Region) -> list[Strip]:
        self._paint()  # once per request: the widget's style walks its ancestors
        return super().render_lines(crop)

    def _paint(self) -> list[Strip]:
        width, style = self.content_size.width, self.rich_style
        lines = self._wrapped(width)
        if self._painted_for != (width, style):
            self._painted = [line.extend_cell_length(width).crop(0, width).apply_style(style) for line in lines]
            self._painted_for = (width, style)
        return self._painted

    def render_line(self, y: int) -> Strip:
        painted = self._painted if self._painted_for else self._paint()
        return painted[y] if y < len(painted) else Strip.blank(self._painted_for[0], self._painted_for[1])


def _segments(line: Text, console) -> list[Segment]:
    # rich's Text.render leaves out the text's own style when the text has no spans (its __rich_console__
    # adds it back); a line styled as a whole, like the findings count, keeps it here.
    if line.style and not line.spans:
        return [Segment(line.plain, console.get_style(line.style))]
    return list(line.render(console))
