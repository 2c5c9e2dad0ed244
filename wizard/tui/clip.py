"""Long unbroken words (a 5,000-character path, a pasted token) shown as their start … their end.

A model path is quoted in the Models step's note and in findings; whole, it pushed the fields and the other
findings off screen (issue 32 item 10). Only runs of printable ASCII are clipped: Chinese text has no spaces
and must stay whole."""

from __future__ import annotations

import re

KEEP = 60  # the width of a field at 80 columns: a realistic path or model id shows whole
_LONG = re.compile(r"[!-~]{" + str(KEEP + 1) + ",}")


def clip_words(text: str) -> str:
    """The text with each unbroken ASCII run longer than KEEP characters cut in its middle."""
    if len(text) <= KEEP:
        return text
    head = KEEP * 2 // 3
    return _LONG.sub(lambda m: m.group()[:head] + "…" + m.group()[head - KEEP + 1 :], text)
