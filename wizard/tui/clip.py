"""Long texts made to fit: unbroken words shown as their start … their end; long lines folded with a mark.

A model path is quoted in the Models step's note and in findings; whole, it pushed the fields and the other
findings off screen (issue 32 item 10). Only runs of printable ASCII are clipped: Chinese text has no spaces
and must stay whole."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

KEEP = 60  # the width of a field at 80 columns: a realistic path or model id shows whole
_LONG = re.compile(r"[!-~]{" + str(KEEP + 1) + ",}")


def clip_words(text: str) -> str:
    """The text with each unbroken ASCII run longer than KEEP characters cut in its middle."""
    if len(text) <= KEEP:
        return text
    head = KEEP * 2 // 3
    return _LONG.sub(lambda m: m.group()[:head] + "…" + m.group()[head - KEEP + 1 :], text)


FOLD_MARK = "↪ "  # starts the rest of a folded line: a folded comment must not read as a YAML key


def fold_lines(text: Text, width: int) -> Text:
    """Each line wider than `width` cells cut into pieces that fit, every piece after the first starting with
    FOLD_MARK (Review's preview at 80 columns is about 38 cells wide: its lines were cut at the box's edge)."""
    if width < len(FOLD_MARK) + 10:
        return text  # not laid out yet, or too narrow to fold usefully
    out: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        limit = width
        while line.cell_len > limit:
            cut = _index_at_cells(line.plain, limit)
            out.append(line[:cut] if limit == width else Text(FOLD_MARK, style="dim") + line[:cut])
            line, limit = line[cut:], width - len(FOLD_MARK)
        out.append(line if limit == width else Text(FOLD_MARK, style="dim") + line)
    return Text("\n").join(out)


def _index_at_cells(plain: str, cells: int) -> int:
    """The index of the first character that does not fit in `cells` cells (at least 1: a piece is never empty)."""
    used = 0
    for index, char in enumerate(plain):
        used += cell_len(char)
        if used > cells:
            return max(index, 1)
    return len(plain)
