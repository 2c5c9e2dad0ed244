"""Repaint a widget without a screen layout when its size cannot change.

In Textual a layout re-arranges the whole screen and repaints everything whose place moved; after an edit
most texts keep their size (a field's source badge of a fixed width), and for those a repaint of the widget
alone is enough; where a widget knows its lines (WrappedText), only the lines that differ.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from rich.text import Text
from textual.strip import Strip
from textual.widgets import Static

# What update_static showed in each Static: (content, (width, height) of its wrapped text or (None, None)).
# Kept beside the widgets rather than on them: a Static's own attributes are Textual's.
_SHOWN: WeakKeyDictionary[Static, tuple] = WeakKeyDictionary()


def update_static(widget: Static, content) -> bool:
    """`widget.update(content)`, with a layout only if the content's height or width could change.

    Returns False when the content is the one already shown (nothing is done).
    """
    shown, (shown_width, before) = _SHOWN.get(widget, (None, (None, None)))
    if shown is content or same_content(shown, content):
        return False
    styles = widget.styles
    width = widget.content_region.width
    fixed_width = styles.width is None or not styles.width.is_auto  # None: as wide as the container
    if not (widget.is_mounted and width > 0 and fixed_width and widget.display):
        _SHOWN[widget] = (content, (None, None))  # the height is unknown until measured again
        widget.update(content)
        return True
    if styles.height is not None and not styles.height.is_auto:
        _SHOWN[widget] = (content, (None, None))
        widget.update(content, layout=False)
        return True
    if shown_width != width:
        # a widget's RenderStyles, as Textual's own Widget passes them (its annotation says RulesMap)
        before = widget.visual.get_height(styles, width)  # type: ignore[arg-type]
    widget.update(content, layout=False)
    after = widget.visual.get_height(styles, width)  # type: ignore[arg-type]
    _SHOWN[widget] = (content, (width, after))  # the next update needs no re-wrap of this text
    if after != before:
        widget.refresh(layout=True)
    return True


def same_content(old, new) -> bool:
    """Whether two contents show the same (for rich Text: characters, spans and styles, not identity)."""
    if type(old) is not type(new):
        return False
    if isinstance(new, Text):  # Text's == looks at the characters and spans, not the base style
        return _text_key(old) == _text_key(new)
    try:
        return bool(old == new)
    except Exception:  # noqa: BLE001 - renderables without equality: treat as changed
        return False


def _text_key(text: Text) -> tuple:
    return (text.plain, text.spans, text.style, text.justify, text.overflow, text.no_wrap, text.end)


def changed_spans(before: list[Strip], after: list[Strip]) -> list[tuple[int, int]]:
    """The runs of line numbers [start, end) where two lists of lines differ (a missing line differs)."""
    spans: list[tuple[int, int]] = []
    for y in range(max(len(before), len(after))):
        if y < len(before) and y < len(after) and before[y] == after[y]:
            continue
        if spans and spans[-1][1] == y:
            spans[-1] = (spans[-1][0], y + 1)
        else:
            spans.append((y, y + 1))
    return spans
