"""How a reader meets a folder that verl-wizard writes: never a mix of two sets.

A write replaces its set under the folder's exclusive lock, with a journal in the folder while the set is
mixed (the invariant is in wizard.emit.write_journal). A reader honours both: `reading` (for `check`) holds
the shared lock while it reads, so a live writer's mix is never seen, and refuses a folder that a killed
write left with its journal (it says the folder is mid-write and how to repair it); `repaired` (for a
read that feeds a write: `new --answers`, `new --from-script`) finishes the killed write first, as the
next write would (the TUI's preview of --out does the same through wizard.emit.writer.conflicts).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

from wizard.emit import write_journal
from wizard.emit.writer import LOCK_WAIT_S, recover_folder
from wizard.errors import UsageError
from wizard.i18n.text import msg


def folder_of(path: str | os.PathLike) -> Path:
    """The folder a path names: itself when it is a folder, else the folder it is in."""
    path = Path(path)
    return path if os.path.isdir(path) else path.parent  # os.path: a name it cannot stat is not a folder


def mid_write(folder: Path) -> UsageError:
    """The one-line refusal for a folder that a stopped write left mid-write: the folder and the fix."""
    return UsageError(str(msg("write.mid_write", folder=str(folder), journal=write_journal.JOURNAL)))


@contextlib.contextmanager
def reading(path: str | os.PathLike, wait_s: float = LOCK_WAIT_S):
    """Read the file or folder at `path` inside this block: no writer changes its folder meanwhile.

    UsageError (one line) when the folder is mid-write, or when a writer holds it for longer than wait_s.
    A folder that cannot be opened or locked here (none, no permission, no locks on this file system) is
    read without the lock; its journal is still looked for.
    """
    folder = folder_of(path)
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except (OSError, ValueError):
        fd = None
    try:
        if fd is not None:
            _lock_shared(fd, folder, wait_s)
        if write_journal.pending(folder):
            raise mid_write(folder)
        yield folder
    finally:
        if fd is not None:
            os.close(fd)  # drops the lock


def _lock_shared(fd: int, folder: Path, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise UsageError(str(msg("write.busy_reading", folder=str(folder), seconds=int(wait_s)))) from None
            time.sleep(0.02)
        except OSError:
            return  # a file system without flock: the journal is still looked for


def repaired(path: str | os.PathLike) -> str | None:
    """Finish (or undo) a killed write into the folder of `path` before it is read; what was done, or None.

    UsageError (mid-write) when the folder carries a journal and cannot be repaired here (read-only, say).
    """
    folder = folder_of(path)
    if not write_journal.pending(folder):
        return None
    try:
        done = recover_folder(folder)
    except OSError:
        raise mid_write(folder) from None
    if write_journal.pending(folder):  # a journal this version cannot read: nothing was rolled, say so
        raise mid_write(folder)
    return done
