"""Writing the artefacts into --out: every file or none, one writer at a time, never over a change without --force.

`write_all` is the one writer every door calls (`new`, the TUI's Review). It checks the folder's name,
locks the folder (a second writer waits for the first, then judges what it finds), finishes or undoes a
write that was killed, refuses a file that exists with other content unless forced, and then replaces
the whole set through the journal of wizard.emit.write_journal: after a crash, a full disk or a file that
cannot be replaced, the folder holds the old set or the new set, never a mix. The folder also keeps a
record of the set (`.verl-wizard-files.json`: each file's digest), so that a rewrite for another target
removes the previous target's manifest when it is unchanged and says so, and keeps it (saying so) when
someone edited it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from wizard import __version__
from wizard.core.targets import specs
from wizard.emit import write_journal as journal
from wizard.emit.out_folders import out_problem
from wizard.errors import UsageError
from wizard.i18n.text import msg
from wizard.path_limits import path_problem

RECORD = ".verl-wizard-files.json"
LOCK_WAIT_S = 30.0
# Every name a set may hold, whatever its target (each target's spec names its manifest): their stale temp files
# are ours to remove.
ARTEFACTS = frozenset(
    {"config.yaml", "run.sh", "answers.yaml", "RUN.md", RECORD} | {s.manifest for s in specs() if s.manifest}
)


@dataclass
class WriteResult:
    """What one write did: the artefacts now in the folder, and what it did with files of an earlier set."""

    written: list[str]
    removed: list[str] = field(default_factory=list)  # an earlier set's files this set does not have, unchanged
    kept: list[str] = field(default_factory=list)  # such files edited since, or artefact names it did not write

    def notes(self) -> list[str]:
        """One line per file of an earlier set, for the user."""
        return [str(msg("write.removed", name=n)) for n in self.removed] + [
            str(msg("write.kept", name=n)) for n in self.kept
        ]


def _fail(message) -> UsageError:
    return UsageError(str(message))


def _checked_out(out_dir: str | Path) -> Path:
    """--out as a Path, refused when it is empty, over the system's limits for names and paths, or a folder
    no run's files belong in (wizard.emit.out_folders)."""
    text = os.fspath(out_dir)
    if not text.strip():
        raise _fail(msg("write.out_empty"))
    problem = path_problem(text)
    if problem is not None:
        raise _fail(msg("write.out_bad", out=_short(text), problem=problem))
    refused = out_problem(text)  # `/`, a system folder, the home folder itself (the TUI's Review folder too)
    if refused is not None:
        raise _fail(refused)
    return Path(text)


def _short(text: str) -> str:
    return text if len(text) <= 80 else f"{text[:40]}...{text[-20:]} ({len(text)} characters)"


def _make_folder(out: Path) -> None:
    """mkdir -p without recursion (a path of thousands of parts must not hit Python's recursion limit)."""
    missing = []
    at = out
    while not at.is_dir():
        if at.exists() or at.is_symlink():
            raise _fail(msg("write.not_folder", out=_short(str(at))))
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir()


@contextlib.contextmanager
def _locked(out: Path, wait_s: float = LOCK_WAIT_S):
    """The folder's descriptor, with an exclusive lock on it held until the block ends (flock: gone with the process)."""
    fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        journal.step("lock", ".")
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise _fail(msg("write.locked", out=_short(str(out)), seconds=int(wait_s))) from None
                time.sleep(0.02)
        yield fd
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _state(dir_fd: int, name: str, data: bytes) -> str:
    """ "missing" | "same" | "other" (a different file, a link, a pipe) | "folder" for one target name."""
    try:
        info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return "missing"
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
        return "other"
    return "same" if _digest_of(dir_fd, name) == _digest(data) else "other"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _digest_of(dir_fd: int, name: str) -> str | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        h = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(fd)


def _previous_set(dir_fd: int) -> dict[str, str]:
    """name -> digest of the set an earlier write recorded here ({} when there is no readable record)."""
    try:
        fd = os.open(RECORD, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return {}
    try:
        doc = json.loads(os.read(fd, 1 << 20))
    except ValueError:
        return {}
    finally:
        os.close(fd)
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str) and "/" not in k}


def conflicts(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Names of files that exist in out_dir with other content than we would write (a preview, read unlocked).

    A folder that a killed write left mid-write is repaired first (when its lock is free at once), so the
    preview compares with the set the next write will meet, not with a mix of two.
    """
    if journal.pending(out_dir):
        with contextlib.suppress(OSError, UsageError):
            recover_folder(out_dir, wait_s=0)
    try:
        fd = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        return [name for name, text in files.items() if _state(fd, name, text.encode()) in ("other", "folder")]
    finally:
        os.close(fd)


def removals(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Names of an earlier set's files that a write of `files` would remove (a preview, read unlocked): written
    here by an earlier write, unchanged since, and not part of this set (job.sbatch after a switch to local)."""
    try:
        fd = os.open(out_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        previous = _previous_set(fd)
        leftovers = [n for n in sorted(previous) if n not in files and n != RECORD]
        return [n for n in leftovers if _digest_of(fd, n) == previous[n]]
    finally:
        os.close(fd)


def is_executable(name: str) -> bool:
    """Whether a written file gets the executable bit (the launch scripts)."""
    return name.endswith(".sh")


def write_atomic(path: Path, text: str, executable: bool = False) -> None:
    """One file, replaced in one rename after its content is on disk (the TUI's "save the answers").

    UsageError (one line) when the folder cannot be written or the name is a folder.
    """
    try:
        _write_one(path, text, executable)
    except OSError as exc:
        raise _fail(msg("write.save_failed", path=_short(str(path)), reason=_reason(exc))) from None


def _write_one(path: Path, text: str, executable: bool) -> None:
    folder = path.parent
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        mode = (0o777 if executable else 0o666) & ~_umask()
        tmp = journal.write_temp(fd, path.name, text.encode(), mode)
        try:
            os.rename(tmp, path.name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
            raise
        journal.fsync_dir(fd)
    finally:
        os.close(fd)


def write_all(out_dir: str | Path, files: dict[str, str], force: bool = False) -> WriteResult:
    """Write every file or none into out_dir; refuse (UsageError) where one would replace different content.

    A file name that is a folder is refused even with --force. The result lists the artefacts and what
    happened to files of an earlier set that this set does not have.
    """
    out = _checked_out(out_dir)
    try:
        _make_folder(out)
        with _locked(out) as dir_fd:
            return _write_locked(out, dir_fd, {n: t.encode() for n, t in files.items()}, force)
    except OSError as exc:
        raise _fail(msg("write.cannot", out=_short(str(out)), reason=_reason(exc))) from None


def recover_folder(out_dir: str | Path, wait_s: float = LOCK_WAIT_S) -> str | None:
    """Finish or undo a write into out_dir that was killed (what the next write_all does first); see write_journal.

    UsageError when another writer holds the folder for longer than wait_s; OSError when it cannot be changed.
    """
    with _locked(Path(out_dir), wait_s) as dir_fd:
        return journal.recover(dir_fd, set(ARTEFACTS))


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "a name in the path is too long"
    return exc.strerror or type(exc).__name__


def _write_locked(out: Path, dir_fd: int, data: dict[str, bytes], force: bool) -> WriteResult:
    journal.recover(dir_fd, ARTEFACTS | set(data))
    previous = _previous_set(dir_fd)
    states = {name: _state(dir_fd, name, blob) for name, blob in data.items()}
    folders = [n for n, s in states.items() if s == "folder"]
    if folders:
        raise _fail(msg("write.folder_in_the_way", out=_short(str(out)), names=folders, n=len(folders)))
    leftovers = [n for n in sorted(previous) if n not in data and n != RECORD]
    removable = [n for n in leftovers if _digest_of(dir_fd, n) == previous[n]]
    kept = [n for n in leftovers if n not in removable and journal.exists(dir_fd, n)]
    kept += [n for n in sorted(ARTEFACTS - set(data) - set(previous) - {RECORD}) if journal.exists(dir_fd, n)]
    clashing = [n for n, s in states.items() if s == "other"]
    if (clashing or removable) and not force:
        raise _fail(msg("write.would_replace", out=_short(str(out)), names=clashing + removable))
    record = {"written_by": f"verl-wizard {__version__}", "files": {n: _digest(b) for n, b in sorted(data.items())}}
    data = {**data, RECORD: (json.dumps(record, indent=1, sort_keys=True) + "\n").encode()}
    changed = {n: b for n, b in data.items() if _state(dir_fd, n, b) != "same"}
    if changed or removable:
        _replace_set(out, dir_fd, changed, removable)
    return WriteResult([n for n in data if n != RECORD], removable, kept)


def _replace_set(out: Path, dir_fd: int, changed: dict[str, bytes], removable: list[str]) -> None:
    mask = _umask()
    temps: dict[str, str] = {}
    try:
        for name, blob in changed.items():
            mode = (0o777 if is_executable(name) else 0o666) & ~mask
            temps[name] = journal.write_temp(dir_fd, name, blob, mode)
        aside = [n for n in changed if journal.exists(dir_fd, n)] + removable
        plan = {"place": [[temps[n], n] for n in changed], "aside": aside, "remove": removable}
        journal.commit(dir_fd, plan)
    except OSError as exc:
        for tmp in temps.values():
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dir_fd)
        raise _fail(msg("write.nothing_changed", out=_short(str(out)), reason=_reason(exc))) from None
    moved: list[str] = []
    placed: list[str] = []
    try:
        for name in aside:  # an immutable or append-only file refuses here, before anything new is in place
            journal.step("rename", name)
            os.rename(name, journal.aside_name(name), src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            moved.append(name)
        for name in changed:
            journal.step("rename", name)
            os.rename(temps[name], name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            placed.append(name)
    except OSError as exc:
        failed = getattr(exc, "filename", None) or "?"
        journal.undo(dir_fd, plan, moved, placed)
        raise _fail(msg("write.cannot_replace", out=_short(str(out)), name=failed, reason=_reason(exc))) from None
    with contextlib.suppress(OSError):  # the new set is in place; a journal left behind is cleared by the next write
        journal.finish(dir_fd, plan)
