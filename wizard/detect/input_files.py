"""Open a file the user named, refusing what would hang or flood: every reader of a user's file goes through here.

A named pipe blocks `open()` until someone writes to it; `/dev/zero` or `/dev/urandom` (or a link to them)
report a size of 0 and never end; a socket or a folder cannot be read at all. So a path is first looked at
with `stat` (which never blocks and opens nothing: opening some devices has effects), refused unless it
is a regular file, then opened without blocking and checked again on the open descriptor (the name may
have been swapped in between), and read up to a limit, whatever size it claims. Every failure is one
UsageError line naming the path and what is wrong.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat

from wizard.errors import UsageError
from wizard.i18n.text import msg
from wizard.path_limits import path_problem

_KINDS = {
    stat.S_IFIFO: "pipe",
    stat.S_IFCHR: "char_device",
    stat.S_IFBLK: "block_device",
    stat.S_IFSOCK: "socket",
    stat.S_IFDIR: "folder",
}
_KIND_TEXT = {
    "pipe": "a named pipe",
    "char_device": "a character device",
    "block_device": "a block device",
    "socket": "a socket",
    "folder": "a folder",
    "other": "not a plain file",
}
_KIND_KEYS = {
    "pipe": "input.kind.pipe",
    "char_device": "input.kind.char_device",
    "block_device": "input.kind.block_device",
    "socket": "input.kind.socket",
    "folder": "input.kind.folder",
    "other": "input.kind.other",
}
_CHUNK = 1 << 20


def shown_path(path: str | os.PathLike) -> str:
    """A path as an error line shows it: whole when short, else its start and end (a 4,000-byte path stays readable)."""
    text = os.fspath(path)
    text = text if isinstance(text, str) else os.fsdecode(text)
    return text if len(text) <= 160 else f"{text[:80]}...{text[-60:]} ({len(text)} characters)"


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "other")


def _os_reason(exc: BaseException) -> str:
    if isinstance(exc, ValueError):
        return str(msg("input.reason.nul"))
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:
        return str(msg("input.reason.too_long"))
    return getattr(exc, "strerror", None) or type(exc).__name__


def _problem(path: str | os.PathLike) -> tuple[str, str] | None:
    """("missing", "") | ("unreadable", why) | ("kind", pipe/char_device/...) for a path that is not a readable file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "missing", ""
    except (OSError, ValueError) as exc:
        return "unreadable", _os_reason(exc)
    if not stat.S_ISREG(info.st_mode):
        return "kind", _kind(info.st_mode)
    if not _readable(path):
        return "unreadable", os.strerror(errno.EACCES)
    return None


def regular_file_problem(path: str | os.PathLike) -> str | None:
    """Why `path` cannot be read as a regular file, in English words the data notes are made of; None if it can.

    For readers that hand the path to a library (pyarrow); nothing is opened here.
    """
    found = _problem(path)
    if found is None:
        return None
    code, detail = found
    if code == "missing":
        return "no such file"
    if code == "unreadable":
        return f"cannot read ({detail})"
    return f"{_KIND_TEXT[detail]}, not a regular file"


def problem_message(path: str | os.PathLike):
    """Why `path` cannot be read as a regular file, as a catalogue message (data notes); None if it can."""
    found = _problem(path)
    if found is None:
        return None
    code, detail = found
    if code == "missing":
        return msg("data.read.no_such_file")
    if code == "unreadable":
        return msg("data.read.cannot_read", error=detail)
    if detail == "folder":
        return msg("data.read.folder")
    return msg("data.read.not_regular", kind=msg(_KIND_KEYS[detail]))


def _refusal(label: str, found: tuple[str, str]) -> UsageError:
    code, detail = found
    if code == "missing":
        return UsageError(str(msg("input.no_such_file", label=label)))
    if code == "unreadable":
        return UsageError(str(msg("input.cannot_read", label=label, reason=detail)))
    return UsageError(str(msg("input.not_regular", label=label, kind=msg(_KIND_KEYS[detail]))))


def _readable(path: str | os.PathLike) -> bool:
    try:
        return os.access(path, os.R_OK, effective_ids=True)
    except NotImplementedError:  # a platform without faccessat's AT_EACCESS
        return os.access(path, os.R_OK)


def open_regular(path: str | os.PathLike, label: str | None = None) -> int:
    """A read-only descriptor of the regular file `path`; UsageError("LABEL: ...") for anything else."""
    label = shown_path(path) if label is None else label
    found = _problem(path)
    if found is not None:
        raise _refusal(label, found)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise _refusal(label, ("unreadable", _os_reason(exc))) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _refusal(label, ("kind", _kind(info.st_mode)))
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bounded(path: str | os.PathLike, limit: int, label: str | None = None, *, config: bool = False) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; a longer file is refused.

    The limit holds whatever size the file claims (a file that grows while it is read is cut at limit + 1).
    `config`: the refusal says the file is too large to be a verl config.
    """
    label = shown_path(path) if label is None else label
    fd = open_regular(path, label)
    parts: list[bytes] = []
    got = 0
    try:
        while got <= limit:
            try:
                chunk = os.read(fd, min(_CHUNK, limit + 1 - got))
            except OSError as exc:
                raise _refusal(label, ("unreadable", _os_reason(exc))) from None
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    if got > limit:
        size = f"{limit // (1 << 20)} MiB" if limit >= 1 << 20 else f"{limit} bytes"
        raise UsageError(str(msg("input.too_large_config" if config else "input.too_large", label=label, size=size)))
    return b"".join(parts)


__all__ = ["open_regular", "path_problem", "problem_message", "read_bounded", "regular_file_problem", "shown_path"]
