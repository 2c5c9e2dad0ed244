"""`check` on a folder a write left midway: it says the folder is mid-write, and `new` repairs it.

The outside probe's case: `new` rewriting a folder is killed (SIGKILL, through the writer's fault hook, in a
forked child) at named points of the protocol (wizard.emit.write_journal): right after its first temp file
appears, right before and right after the journal's rename (the commit point), right after the first file
of the old set is moved aside (config.yaml set aside beside the old run.sh: what the probe saw), right after
answers.yaml is, right after the last rename and right after the journal is gone. Where the folder shows a mix it carries the journal, and
`check DIR`, `check DIR/config.yaml` and `check DIR/run.sh` refuse it in one line naming the folder and the
fix; re-running `new` with the same answers (the folder's own answers.yaml, even while it is set aside)
repairs it, after which `check` judges a whole set again. A live writer's mix is never read: `check` waits
on the folder's lock.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.cli.helpers import cli
from tests.emit.test_writer_crash import snapshot, visible, write_in_child
from wizard.emit import write_journal
from wizard.emit.writer import RECORD, write_all
from wizard.i18n.text import msg, render

PRESET = ["--preset", "grpo-8b-1x8"]
NEW = ["--set", "data.train_batch_size=512"]


@pytest.fixture(scope="module")
def sets(tmp_path_factory):
    """The old and the new set as `new` writes them, the new set's files as write_all takes them, and the
    steps (kind, name) of writing the new set over the old one, in order."""
    base = tmp_path_factory.mktemp("sets")
    assert cli("new", *PRESET, "--out", str(base / "old")).returncode == 0
    assert cli("new", *PRESET, *NEW, "--out", str(base / "new")).returncode == 0
    old, new = snapshot(base / "old"), snapshot(base / "new")
    order = ["config.yaml", "run.sh", "answers.yaml", "RUN.md"]  # as `new` hands them to the writer
    files = {n: new[n].decode() for n in sorted(set(new) - {RECORD}, key=order.index)}
    assert cli("new", *PRESET, "--out", str(base / "steps")).returncode == 0
    steps: list[tuple[str, str]] = []
    write_journal.fault_hook = lambda kind, name: steps.append((kind, name))
    try:
        write_all(base / "steps", files, force=True)
    finally:
        write_journal.fault_hook = None
    return old, new, files, steps


def _position(steps, kind: str, name: str | None = None, nth: int = 1, last: bool = False) -> int:
    """The 1-based position of the nth (or last) step of this kind (and name)."""
    found = [i + 1 for i, (k, n) in enumerate(steps) if k == kind and name in (None, n)]
    return found[-1] if last else found[nth - 1]


def _mid_write_line(proc, folder) -> bool:
    if "mid-write" not in proc.stderr:
        return False
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1, proc
    line = proc.stderr.strip()
    assert line.startswith(f"verl-wizard: error: {folder}: mid-write"), line
    assert f"verl-wizard new ... --out {folder}" in line and "Review" in line, line
    return True


J = write_journal.JOURNAL
# where the kill lands: the position of the step the child is killed at (just after the step named), and
# whether the folder then carries the journal
POINTS = {
    "right after the first temp file appears": (lambda s: _position(s, "create") + 1, False),
    "right before the journal's rename": (lambda s: _position(s, "rename", J), False),
    "right after the journal's rename": (lambda s: _position(s, "rename", J) + 1, True),
    "right after config.yaml is set aside": (lambda s: _position(s, "rename", "config.yaml") + 1, True),
    "right after answers.yaml is set aside": (lambda s: _position(s, "rename", "answers.yaml") + 1, True),
    "right after the last rename": (lambda s: _position(s, "rename", last=True) + 1, True),
    "right after the journal is gone": (lambda s: _position(s, "unlink", J) + 1, False),
}


@pytest.mark.parametrize("where", list(POINTS))
def test_check_says_mid_write_where_a_kill_left_a_mix_and_new_repairs_it(where, sets, tmp_path):
    old, new, files, steps = sets
    at, journal = POINTS[where]
    out = tmp_path / "run"
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    status = write_in_child(out, files, f"kill@{at(steps)}")
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, status
    left = snapshot(out)
    assert (J in left) == journal, sorted(left)
    if where == "right after config.yaml is set aside":  # the probe's state: a mix of the two sets, with the journal
        assert "config.yaml" not in left and ".config.yaml.vw-old" in left and left["run.sh"] == old["run.sh"]
        assert left["answers.yaml"] == old["answers.yaml"] != new["answers.yaml"], sorted(left)
    if not journal:
        assert visible(left) in (old, new), sorted(left)
    for path in (out, out / "config.yaml", out / "run.sh"):
        assert _mid_write_line(cli("check", str(path)), out) == journal, (where, path.name)
    if where == "right after answers.yaml is set aside":
        assert "answers.yaml" not in left  # `new --answers DIR/answers.yaml` finishes the write before it reads
    # The fix the line names: `new` with the same answers (here the folder's own answers.yaml).
    again = cli("new", "--answers", str(out / "answers.yaml"), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert snapshot(out) == (new if journal or visible(left) == new else old), sorted(snapshot(out))
    assert not _mid_write_line(cli("check", str(out / "run.sh")), out)


def test_the_mid_write_line_in_chinese_names_the_folder_and_the_fix():
    line = render(msg("write.mid_write", folder="/runs/a", journal=write_journal.JOURNAL), "zh")
    assert "写入中途停止" in line and "`verl-wizard new ... --out /runs/a`" in line and "\n" not in line
    assert line != render(msg("write.mid_write", folder="/runs/a", journal=write_journal.JOURNAL), "en")


def test_check_waits_for_a_live_writer_and_never_reads_its_mix(sets, tmp_path):
    """A writer paused mid-swap (config.yaml set aside): `check` waits on the folder's lock, then reads the new set."""
    _, new, files, _ = sets
    out = tmp_path / "run"
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    pid = os.fork()
    if pid == 0:  # the writer: never returns into pytest
        code = 0
        try:
            write_journal.fault_hook = write_journal.parse_fault("sleep=0.5@rename:3")
            write_all(out, files, force=True)
        except BaseException:
            code = 3
        os._exit(code)
    try:
        deadline = time.monotonic() + 30
        while not (out / ".config.yaml.vw-old").exists():  # the live mix: config.yaml set aside, answers.yaml old
            assert time.monotonic() < deadline
            time.sleep(0.005)
        proc = cli("check", str(out / "run.sh"))
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    assert snapshot(out) == new
    fresh = cli("check", str(out / "run.sh"))  # the same folder, the write long done
    assert (proc.returncode, proc.stdout, proc.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert "mid-write" not in proc.stderr


def test_a_journal_left_when_the_lock_is_free_is_what_check_reports(sets, tmp_path):
    """Killed mid-swap, then the lock is free: `check --format json` still exits 2 with the one line, no JSON."""
    _, _, files, _ = sets
    out = tmp_path / "run"
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    status = write_in_child(out, files, "kill@rename:3")
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    proc = cli("check", str(out / "config.yaml"), "--format", "json")
    assert _mid_write_line(proc, out)
