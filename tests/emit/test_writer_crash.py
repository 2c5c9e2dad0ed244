"""The writer's promise, "every file or none", under kill -9 at every step and under every failing system call.

A child process (os.fork: cheap, so hundreds of runs take seconds) writes a new set over an old one and is
killed with SIGKILL at step k by the writer's fault hook (wizard.emit.write_journal.fault_hook; the CLI reads
the same hook from VERL_WIZARD_WRITE_FAULT, tested in test_writer_cli.py), for every k: every create, write,
chmod, fsync, rename and unlink (so right after the first temp file appears, right after the journal's rename
and right after each rename of a file of the set). Right after the kill the folder holds the old set or the
new set (plus hidden temp files), or it carries the journal and `check` (on the folder, its config.yaml and
its run.sh) refuses it as mid-write instead of judging a mix. Then the next write (the same set, no --force)
or the next read that repairs (the TUI's preview of --out) must leave exactly the old set or exactly the new
set; a kill after the commit point (the journal on disk) must end as the new set.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal

import pytest

from tests.cli.helpers import cli
from wizard.emit import write_journal
from wizard.emit.writer import RECORD, conflicts, recover_folder, write_all
from wizard.errors import UsageError

RUN_SH = "#!/usr/bin/env bash\nexec python3 -m verl.trainer.main_ppo --config-path=. --config-name=config\n"


def _artefacts(tag: str, manifest: str | None = None, size: int = 1) -> dict[str, str]:
    files = {
        "config.yaml": f"# {tag}\ndata: {{train_batch_size: {len(tag)}}}\n" + "# pad\n" * size,
        "run.sh": RUN_SH + f"# {tag}\n",
        "answers.yaml": f"batch: {{train_batch_size: {len(tag)}}}\n# {tag}\n",
    }
    if manifest:
        files[manifest] = f"# {manifest} for {tag}\n" + "x" * 3000 + "\n"
    files["RUN.md"] = f"# {tag}\n"
    return files


# name: (how the folder starts: None (no folder), a set written by the writer, or files put there by hand; the new set)
SCENARIOS = {
    "into a fresh folder": (None, _artefacts("new local")),
    "same target, other values": (("writer", _artefacts("old local")), _artefacts("new local values", size=200)),
    "slurm set rewritten for local": (("writer", _artefacts("old", "job.sbatch")), _artefacts("new local")),
    "local set rewritten for ray-job": (("writer", _artefacts("old local")), _artefacts("new", "ray-job.sh")),
    "hand-written files replaced": (("hand", {**_artefacts("hand"), "notes.txt": "mine\n"}), _artefacts("new")),
}


def snapshot(folder) -> dict[str, bytes] | None:
    """Every entry of the folder -> its bytes (a folder or other non-file fails the test); None: no folder."""
    if not folder.exists():
        return None
    out = {}
    for entry in os.scandir(folder):
        assert entry.is_file(follow_symlinks=False), f"{entry.name} is not a plain file"
        with open(entry.path, "rb") as f:
            out[entry.name] = f.read()
    return out


STAGED = re.compile(r"^\..+\.([A-Za-z0-9_]{6,}\.tmp|vw-old)$")  # temp and set-aside files of a write


def visible(state: dict[str, bytes] | None) -> dict[str, bytes]:
    """The state without the write's staged files (what a user sees with plain `ls`)."""
    return {n: b for n, b in (state or {}).items() if not STAGED.match(n)}


def prepare(folder, start) -> None:
    if start is None:
        return
    how, files = start
    if how == "writer":
        write_all(folder, files)
    else:
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text)


def count_steps(folder, start, new) -> int:
    prepare(folder, start)
    steps = []
    write_journal.fault_hook = lambda kind, name: steps.append((kind, name))
    try:
        write_all(folder, new, force=True)
    finally:
        write_journal.fault_hook = None
    kinds = {kind for kind, _ in steps}
    assert {"lock", "create", "write", "chmod", "fsync", "rename", "unlink"} <= kinds, kinds
    return len(steps)


def write_in_child(folder, new, fault: str) -> int:
    """Fork; the child writes `new` with the fault hook armed; the parent gets the child's wait status."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            write_journal.fault_hook = write_journal.parse_fault(fault)
            write_all(folder, new, force=True)
        except BaseException:  # any escape is reported as exit 3 and fails the test
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    return status


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """Per scenario: (old state, new state, steps of an undisturbed write), from runs nothing interrupts."""
    out = {}
    for name, (start, new) in SCENARIOS.items():
        base = tmp_path_factory.mktemp("expected")
        prepare(base / "old", start)
        steps = count_steps(base / "new", start, new)
        out[name] = (snapshot(base / "old"), snapshot(base / "new"), steps)
    return out


def check_says_mid_write(path, folder) -> bool:
    """Whether `check PATH` refuses the folder as mid-write: one line naming the folder and the fix.

    Any other answer (a judgement of the files, "is a folder", "no such file") is False.
    """
    proc = cli("check", str(path))
    refused = "mid-write" in proc.stderr
    if refused:
        assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc
        assert f"{folder}: mid-write" in proc.stderr and f"verl-wizard new ... --out {folder}" in proc.stderr
    return refused


def without_journal(state: dict[str, bytes] | None) -> dict[str, bytes]:
    return {n: b for n, b in visible(state).items() if n != write_journal.JOURNAL}


def test_kill_9_at_every_step_leaves_the_old_set_the_new_set_or_a_journal(expected, tmp_path):
    runs, mixed = 0, 0
    for name, (start, new) in SCENARIOS.items():
        old_state, new_state, steps = expected[name]
        assert old_state != new_state
        for k in range(1, steps + 2):  # steps + 1: the undisturbed run, for contrast
            folder = tmp_path / f"{len(name)}-{k}"
            prepare(folder, start)
            status = write_in_child(folder, new, f"kill@{k}")
            if k <= steps:
                assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (name, k, status)
            else:
                assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, (name, k, status)
            left = snapshot(folder)
            committed = left is not None and write_journal.JOURNAL in left
            whole = without_journal(left) in (visible(old_state), new_state)
            # The invariant: a folder that shows a mix of the two sets carries the journal.
            assert whole or committed, (name, k, sorted(left))
            mixed += not whole
            if left is not None:
                # check DIR, DIR/config.yaml, DIR/run.sh in turn (one per kill, to keep the test quick)
                path = (folder, folder / "config.yaml", folder / "run.sh")[k % 3]
                assert check_says_mid_write(path, folder) == committed, (name, k, path.name, sorted(left))
                if k % 2:  # the next write: the same set without --force (what "re-run new" does)
                    with contextlib.suppress(UsageError):  # refused over the old set: it differs
                        write_all(folder, new)
                else:  # the next read that repairs: the TUI's preview of the folder it is about to write
                    conflicts(folder, new)
                    if not committed:
                        recover_folder(folder)  # hidden temp files only: the next write removes them
            after = snapshot(folder)
            if old_state is None and after == {}:
                after = None  # killed before anything was written: an empty folder is the "old" nothing
            assert after in (old_state, new_state), (name, k, sorted(after or {}))
            if committed:
                assert after == new_state, (name, k)
            runs += 1
    assert runs >= 200 and mixed >= 20, (runs, mixed)


@pytest.mark.parametrize("code", ["enospc", "eio", "eperm"])
def test_a_failing_system_call_at_any_step_changes_nothing_or_everything(code, expected, tmp_path):
    """The errors this process sees itself (a full disk, an I/O error, a file it may not move) at every step."""
    name = "slurm set rewritten for local"
    start, new = SCENARIOS[name]
    old_state, new_state, steps = expected[name]
    outcomes = set()
    for k in range(1, steps + 1):
        folder = tmp_path / str(k)
        prepare(folder, start)
        write_journal.fault_hook = write_journal.parse_fault(f"{code}@{k}")
        try:
            write_all(folder, new, force=True)
            outcome = "written"
        except UsageError as exc:
            outcome = "refused"
            assert "nothing was changed" in str(exc) or "cannot write" in str(exc), str(exc)
        finally:
            write_journal.fault_hook = None
        if outcome == "refused" and snapshot(folder) != new_state:
            assert snapshot(folder) == old_state, (k, sorted(snapshot(folder)))  # undone at once, no temp left
        recover_folder(folder)
        assert snapshot(folder) in (old_state, new_state), (k, sorted(snapshot(folder)))
        outcomes.add(outcome)
    assert outcomes == {"written", "refused"}  # faults at a folder fsync are survivable; elsewhere they refuse


def test_a_full_disk_midway_leaves_the_old_set_and_no_temp_file(expected, tmp_path):
    name = "slurm set rewritten for local"
    start, new = SCENARIOS[name]
    old_state = expected[name][0]
    for k in (1, 2, 3, 4):  # the k-th file's write fails: 0, 1, 2 and 3 files were already staged
        folder = tmp_path / str(k)
        prepare(folder, start)
        write_journal.fault_hook = write_journal.parse_fault(f"enospc@write:{k}")
        try:
            with pytest.raises(UsageError, match="No space left on device"):
                write_all(folder, new, force=True)
        finally:
            write_journal.fault_hook = None
        assert snapshot(folder) == old_state


def test_a_stale_temp_file_of_the_old_writer_is_removed_by_the_next_write(tmp_path):
    """The writer before this one left `.run.sh.XXXXXXXX.tmp` (executable) after a kill; ray-job.sh uploaded it."""
    folder = tmp_path / "run"
    write_all(folder, _artefacts("old"))
    stale = folder / ".run.sh.k2j4h8x1.tmp"
    stale.write_text(RUN_SH)
    stale.chmod(0o755)
    mine = folder / ".notes.txt.k2j4h8x1.tmp"  # not one of ours: left alone
    mine.write_text("mine")
    write_all(folder, _artefacts("new"), force=True)
    assert not stale.exists() and mine.exists()
    assert sorted(snapshot(folder)) == sorted([*_artefacts("new"), RECORD, mine.name])
