"""The workshop server's log: one line per event, never a traceback.

The teacher reads this log while the class works, and anyone who can reach the port can send it garbage: a
malformed HTTP request is one line naming who sent it and what was wrong (aiohttp's own server logger would
print a traceback for each), and any other error that reaches the log (aiohttp's, asyncio's, textual-serve's)
is its message and the exception's type and text on the same line.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from aiohttp.http_exceptions import HttpProcessingError

from wizard.i18n.text import msg, render

log = logging.getLogger("verl-wizard.serve")
REASON_CHARS = 160  # of an error's text in the log; a request line can be kilobytes


def one_line(text: object, most: int = REASON_CHARS) -> str:
    """`text` with its whitespace runs (newlines included) made single spaces, cut to `most` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= most else flat[: most - 1] + "…"


def reason_of(exc: BaseException) -> str:
    """What went wrong, for one log line: the exception's type and text."""
    text = exc.message if isinstance(exc, HttpProcessingError) else str(exc)
    return one_line(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)


class OneLineFormatter(logging.Formatter):
    """The record's message; an exception it carries is added as `: Type: text`, never as a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text}: {reason_of(record.exc_info[1])}"
        return one_line(text, most=4000)


def configure(stream=sys.stdout) -> None:
    """Send every logger's INFO and above to `stream`, a line per record (what `verl-wizard serve` prints)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(OneLineFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)


class RequestErrors:
    """aiohttp's logger for the server's connections (AppRunner(logger=...)): a failed request in one line.

    aiohttp calls exception(text, remote, exc_info=exc) when a request cannot be parsed (it answers 400) or a
    handler fails (500), and debug(...) for a first request that is not HTTP at all.
    """

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def _line(self, args: tuple, exc_info: Any) -> None:
        exc = exc_info if isinstance(exc_info, BaseException) else sys.exc_info()[1]
        remote = args[1] if len(args) > 1 else "?"
        reason = reason_of(exc) if exc is not None else one_line(args[0] if args else "")
        if isinstance(exc, HttpProcessingError):
            line = msg("serve.bad_request", remote=str(remote), reason=reason)
        else:
            line = msg("serve.request_failed", remote=str(remote), reason=reason)
        log.info("%s", render(line, self.lang))

    def exception(self, *args: Any, exc_info: Any = None, **_: Any) -> None:
        self._line(args, exc_info)

    error = debug = exception

    def info(self, *args: Any, **_: Any) -> None:
        record = logging.LogRecord(log.name, logging.INFO, __file__, 0, args[0] if args else "", args[1:], None)
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            text = str(args)
        log.info("%s", one_line(text))

    warning = info

    def isEnabledFor(self, level: int) -> bool:
        return level >= logging.INFO
