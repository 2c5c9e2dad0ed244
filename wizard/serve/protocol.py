"""What a browser tab may say to its wizard: textual-serve's websocket messages, checked before any is used.

textual.js sends JSON arrays: `["stdin", TEXT]`, `["resize", {"width": W, "height": H}]`, `["ping", TEXT]`,
`["focus"]`, `["blur"]`. Anyone who can reach the port can send anything instead, so every message is read
here first: one that is not of these shapes (not JSON, not an array, a missing or wrong-typed part) is
ignored, and so is an unknown type; the tab's wizard never sees it.

A size is a whole number above 0 (textual.js sends the terminal's columns and rows; anything else is
ignored), clamped to 48..500 columns and 12..200 rows. Above: a 4K screen at the page's default font is about
400 columns, and a wizard asked to draw far more cells spends its CPU (and the server's bandwidth) on a screen
no one can see. Below: the wizard's layout fails under about 40 columns (Textual cannot wrap a label into a
width of 0), so a narrower tab gets a 48-column screen that its terminal wraps rather than a wizard that ends.

A message is at most MAX_MESSAGE_BYTES; aiohttp closes a websocket that sends a longer one (code 1009), and
the server ends that tab's wizard as it ends any other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MIN_WIDTH, MAX_WIDTH = 48, 500
MIN_HEIGHT, MAX_HEIGHT = 12, 200
DEFAULT_WIDTH, DEFAULT_HEIGHT = 80, 24
MAX_MESSAGE_BYTES = 256 * 1024  # a pasted page of text fits many times over
MAX_PING_CHARS = 64  # textual.js pings with a millisecond timestamp; the pong echoes it back


@dataclass(frozen=True)
class Stdin:
    """Keys typed (or text pasted) in the tab, as the bytes for the wizard's terminal."""

    data: bytes


@dataclass(frozen=True)
class Resize:
    """The tab's terminal has this many columns and rows (already clamped)."""

    width: int
    height: int


@dataclass(frozen=True)
class Ping:
    """The tab asks for a pong carrying `data` back."""

    data: str


@dataclass(frozen=True)
class Focus:
    """The tab gained (`focused`) or lost the keyboard focus."""

    focused: bool


Message = Stdin | Resize | Ping | Focus


WIDTH = (MIN_WIDTH, MAX_WIDTH)
HEIGHT = (MIN_HEIGHT, MAX_HEIGHT)


def size_of(value: object, bounds: tuple[int, int]) -> int | None:
    """A terminal dimension from the browser, clamped to `bounds`; None unless it is a whole number above 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None
    return max(bounds[0], min(bounds[1], value))


def query_size(text: str, bounds: tuple[int, int], default: int) -> int:
    """A terminal dimension from the websocket's address (?width=W&height=H), clamped; `default` if it is none."""
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        return default
    return size_of(int(text), bounds) or default


def parse(text: str) -> Message | None:
    """The message a tab sent as `text`, or None when it is not one the wizard takes (then it is ignored)."""
    if len(text) > MAX_MESSAGE_BYTES:  # aiohttp refuses such a message first; this holds without it too
        return None
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: "[[[[..." nested beyond the parser's depth
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind, parts = envelope[0], envelope[1:]
    if kind == "stdin" and len(parts) == 1 and isinstance(parts[0], str):
        return Stdin(parts[0].encode("utf-8", "replace"))  # a lone surrogate ("\\ud800") has no UTF-8
    if kind == "resize" and len(parts) == 1 and isinstance(parts[0], dict):
        width = size_of(parts[0].get("width"), WIDTH)
        height = size_of(parts[0].get("height"), HEIGHT)
        return Resize(width, height) if width is not None and height is not None else None
    if kind == "ping" and len(parts) == 1 and isinstance(parts[0], str) and len(parts[0]) <= MAX_PING_CHARS:
        return Ping(parts[0])
    if kind in ("focus", "blur") and not parts:
        return Focus(kind == "focus")
    return None
