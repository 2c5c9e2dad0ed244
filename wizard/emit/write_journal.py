"""The steps of one set write inside a locked folder, and the recovery of a write that was killed.

A set of files cannot be replaced by one system call, so the write keeps a journal, the way a database
does. Every new file is first written beside its name as a temp file and flushed to disk; then the journal
(`.verl-wizard-pending.json`: which temp becomes which name, which old files go) is written, flushed and
renamed into place: that rename is the commit point. Only then are the old files moved aside and the temp
files renamed to their names. A process killed before the commit point left only temp files: the next
write removes them and the folder holds the old set. One killed after it left a journal: the next write
finishes what it lists and the folder holds the new set. A failure this process sees (a file that cannot
be moved: immutable, append-only; a full disk) puts everything back before it reports.

The protocol, step by step, under the folder's exclusive lock (what a kill -9 after each step leaves):

1. stage: create, write, chmod, fsync each temp file           -> the old set, whole, plus hidden temps
2. commit: the journal's own temp file, then its rename, fsync  -> before the rename: as 1; after it: a journal
3. aside: rename each old file that goes or changes to `.NAME.vw-old`  -> a mix (names missing), journal
4. place: rename each temp file to its name                     -> a mix (new beside old), journal
5. finish: unlink the set-aside files, then the journal, fsync  -> the new set, journal until its unlink

Invariant: the folder's visible files are a mix of two sets only while the journal is in place. The
journal's rename (2) comes before the first rename of a visible name (3), and its unlink (5) after the
last one; `undo` (a failure this process sees) puts every name back before it removes the journal. So
every state a kill can leave is the old set, the new set, or a journal. The mixed window the kill probes
meet is steps 3-5 (e.g. config.yaml set aside beside the old run.sh): it always carries the journal,
and the readers honour it: a write (and a repairing read: `new --answers`, the TUI's preview of --out)
rolls it forward under the exclusive lock first; `check` waits on the lock (shared) and then refuses to
judge a folder that still carries a journal, saying it is mid-write and how to repair it
(wizard.emit.folder_read). A live writer holds the lock, so a reader never sees its mix; a killed one
leaves the journal, which outlives the lock.

Every step that changes the disk first calls `step(kind, name)`: the fault hook tests use to stop the
process exactly there (`VERL_WIZARD_WRITE_FAULT`, read once; see `parse_fault`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import signal
import time
from collections.abc import Callable, Set

JOURNAL = ".verl-wizard-pending.json"
FAULT_ENV = "VERL_WIZARD_WRITE_FAULT"
_TEMP = re.compile(r"^\.(?P<name>.+)\.[A-Za-z0-9_]{6,}\.tmp$")
_ASIDE = re.compile(r"^\.(?P<name>.+)\.vw-old$")

# Test-only: called before every step that changes the disk, with its kind and the file's name.
fault_hook: Callable[[str, str], None] | None = None


def parse_fault(spec: str) -> Callable[[str, str], None] | None:
    """The hook a VERL_WIZARD_WRITE_FAULT value asks for: ACTION@WHERE, e.g. `kill@7`, `enospc@write:2`.

    WHERE is the n-th step of any kind (`7`) or of one kind (`write:2`, `fsync:1`, `rename:3`, `lock:1`);
    ACTION is `kill` (SIGKILL: no clean-up runs), an errno name such as `enospc` or `eperm` (that OSError
    is raised), or `sleep=SECONDS` (the step waits, to make a second writer meet a held lock).
    """
    action, _, where = spec.partition("@")
    kind, _, nth = where.rpartition(":")
    if not nth.isdigit():
        return None
    wanted = int(nth)
    seen = [0]

    def hook(step_kind: str, name: str) -> None:
        if kind and kind != step_kind:
            return
        seen[0] += 1
        if seen[0] != wanted:
            return
        if action == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        elif action.startswith("sleep="):
            time.sleep(float(action.partition("=")[2]))
        elif hasattr(errno, action.upper()):
            code = getattr(errno, action.upper())
            raise OSError(code, os.strerror(code), name)

    return hook


def step(kind: str, name: str) -> None:
    """Mark one step of the write (the fault hook's chance to act)."""
    global fault_hook
    if fault_hook is None and os.environ.get(FAULT_ENV):
        fault_hook = parse_fault(os.environ[FAULT_ENV])
    if fault_hook is not None:
        fault_hook(kind, name)


def temp_name(name: str) -> str:
    return f".{name}.{secrets.token_hex(4)}.tmp"


def aside_name(name: str) -> str:
    return f".{name}.vw-old"


def fsync_dir(dir_fd: int) -> None:
    with contextlib.suppress(OSError):  # some file systems cannot flush a folder; the renames still hold
        step("fsync", ".")
        os.fsync(dir_fd)


def write_temp(dir_fd: int, name: str, data: bytes, mode: int) -> str:
    """A temp file beside `name` holding `data`, with `mode`, flushed to disk; its name."""
    tmp = temp_name(name)
    step("create", tmp)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            step("write", tmp)
            view = view[os.write(fd, view) :]
        step("chmod", tmp)
        os.fchmod(fd, mode)
        step("fsync", tmp)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    os.close(fd)
    return tmp


def commit(dir_fd: int, journal: dict) -> None:
    """Write the journal and rename it into place: from here on the write is finished by whoever comes next."""
    tmp = write_temp(dir_fd, JOURNAL, json.dumps(journal, sort_keys=True).encode(), 0o600)
    try:
        step("rename", JOURNAL)
        os.rename(tmp, JOURNAL, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=dir_fd)
        raise
    fsync_dir(dir_fd)


def finish(dir_fd: int, journal: dict) -> None:
    """Do what a committed journal lists (again, if need be: every step may already be done), then drop it."""
    for tmp, name in journal["place"]:
        if exists(dir_fd, tmp):
            step("rename", name)
            os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    for name in journal["remove"]:
        if exists(dir_fd, name):
            step("unlink", name)
            os.unlink(name, dir_fd=dir_fd)
    fsync_dir(dir_fd)
    for name in journal["aside"]:
        if exists(dir_fd, aside_name(name)):
            step("unlink", aside_name(name))
            os.unlink(aside_name(name), dir_fd=dir_fd)
    step("unlink", JOURNAL)
    os.unlink(JOURNAL, dir_fd=dir_fd)
    fsync_dir(dir_fd)


def undo(dir_fd: int, journal: dict, moved: list[str], placed: list[str]) -> None:
    """Put back what this process changed after the commit point, then forget the write."""
    temps = dict((name, tmp) for tmp, name in journal["place"])
    for name in reversed(placed):  # the new file goes back to its temp name: finish() could still redo it
        os.rename(name, temps[name], src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    for name in reversed(moved):
        os.rename(aside_name(name), name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    fsync_dir(dir_fd)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(JOURNAL, dir_fd=dir_fd)
    for tmp in temps.values():
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp, dir_fd=dir_fd)
    fsync_dir(dir_fd)


def recover(dir_fd: int, names: Set[str]) -> str | None:
    """Finish a committed write that was killed, or undo one killed before its commit; "finished" | "undone" | None.

    `names` are the file names a write of ours may have made temp or aside files for; only those are removed.
    """
    journal = _read_journal(dir_fd)
    if journal is not None:
        finish(dir_fd, journal)
        return "finished"
    ours = names | {JOURNAL}
    changed = False
    for entry in os.listdir(dir_fd):
        temp, aside = _TEMP.match(entry), _ASIDE.match(entry)
        found = temp or aside
        if found is None or found.group("name") not in ours:
            continue
        step("unlink", entry)
        if aside and not exists(dir_fd, aside.group("name")):  # never lose the only copy of an old file
            os.rename(entry, aside.group("name"), src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry, dir_fd=dir_fd)
        changed = True
    if changed:
        fsync_dir(dir_fd)
        return "undone"
    return None


def _read_journal(dir_fd: int) -> dict | None:
    """The committed journal, when there is one in the form this module writes (plain names only)."""
    try:
        fd = os.open(JOURNAL, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        doc = json.loads(os.read(fd, 1 << 20))
    except ValueError:
        return None
    finally:
        os.close(fd)
    if not isinstance(doc, dict):
        return None
    place, remove, aside = doc.get("place"), doc.get("remove"), doc.get("aside")
    pairs_ok = isinstance(place, list) and all(
        isinstance(p, list) and len(p) == 2 and all(_plain(x) for x in p) for p in place
    )
    if not pairs_ok or not all(isinstance(x, list) and all(_plain(n) for n in x) for x in (remove, aside)):
        return None
    return doc


def _plain(name: object) -> bool:
    return isinstance(name, str) and name not in ("", ".", "..") and "/" not in name and "\x00" not in name


def pending(folder: str | os.PathLike) -> bool:
    """Whether the folder carries a journal: a write into it was stopped between its commit and its end."""
    try:
        os.stat(os.path.join(folder, JOURNAL), follow_symlinks=False)
    except (OSError, ValueError):  # no such folder, a name over the limits, a NUL: no journal we could honour
        return False
    return True


def exists(dir_fd: int, name: str) -> bool:
    """Whether `name` is in the folder open as dir_fd (a link counts as itself, not its target)."""
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True
