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

_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}
_CHUNK = 1 << 20


def shown_path(path: str | os.PathLike) -> str:
    """A path as an error line shows it: whole when short, else its start and end (a 4,000-byte path stays readable)."""
    text = os.fspath(path)
    text = text if isinstance(text, str) else os.fsdecode(text)
    return text if len(text) <= 160 else f"{text[:80]}...{text[-60:]} ({len(text)} characters)"


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a plain file")


def _os_reason(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "the path or one of its names is too long"
    return exc.strerror or type(exc).__name__


def regular_file_problem(path: str | os.PathLike) -> str | None:
    """Why `path` cannot be read as a regular file (in a few words), or None when it can be opened for reading.

    For readers that hand the path to a library (pyarrow); nothing is opened here.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except (OSError, ValueError) as exc:
        return f"cannot read ({_os_reason(exc) if isinstance(exc, OSError) else 'a NUL byte in the path'})"
    if not stat.S_ISREG(info.st_mode):
        return f"{_kind(info.st_mode)}, not a regular file"
    if not _readable(path):
        return "cannot read (Permission denied)"
    return None


def _readable(path: str | os.PathLike) -> bool:
    try:
        return os.access(path, os.R_OK, effective_ids=True)
    except NotImplementedError:  # a platform without faccessat's AT_EACCESS
        return os.access(path, os.R_OK)


def open_regular(path: str | os.PathLike, label: str | None = None) -> int:
    """A read-only descriptor of the regular file `path`; UsageError("LABEL: ...") for anything else."""
    label = shown_path(path) if label is None else label
    problem = regular_file_problem(path)
    if problem is not None:
        raise UsageError(f"{label}: {problem}{'; give a file' if 'not a regular file' in problem else ''}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise UsageError(f"{label}: cannot read ({_os_reason(exc)})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{label}: {_kind(info.st_mode)}, not a regular file; give a file")
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bounded(path: str | os.PathLike, limit: int, label: str | None = None, what: str = "") -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; a longer file is refused.

    The limit holds whatever size the file claims (a file that grows while it is read is cut at limit + 1).
    `what` ends the "too large" message ("not a verl config").
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
                raise UsageError(f"{label}: cannot read ({_os_reason(exc)})") from None
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)
    if got > limit:
        size = f"{limit // (1 << 20)} MiB" if limit >= 1 << 20 else f"{limit} bytes"
        raise UsageError(f"{label}: larger than {size}{'; ' + what if what else ''}")
    return b"".join(parts)


def path_problem(path: str | os.PathLike) -> str | None:
    """Why `path` could not even be looked up (a name over the system's limits, a NUL byte), or None."""
    text = os.fsencode(path)
    if b"\x00" in text:
        return "a NUL byte in the path"
    limit_name = _limit("PC_NAME_MAX", 255)
    for part in text.split(b"/"):
        if len(part) > limit_name:
            return f"a name in the path is longer than {limit_name} bytes"
    if len(text) >= _limit("PC_PATH_MAX", 4096):
        return f"the path is longer than {_limit('PC_PATH_MAX', 4096) - 1} bytes"
    return None


def _limit(name: str, fallback: int) -> int:
    try:
        return os.pathconf("/", name)
    except (OSError, ValueError):
        return fallback


__all__ = ["open_regular", "path_problem", "read_bounded", "regular_file_problem", "shown_path"]
