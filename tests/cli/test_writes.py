"""`new` writes every file or none, one writer at a time, and says what became of an earlier set's files.

Real failures where the system can make them: a file-size limit (the disk "fills up" at the fourth file),
an immutable file (chattr +i, as root), a folder where a file goes, SIGKILL through the writer's fault hook
(VERL_WIZARD_WRITE_FAULT) in real processes, and two real processes writing into one folder at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time

import pytest

from tests.cli.helpers import ROOT, cli
from tests.emit.test_writer_crash import snapshot, visible

PRESET = ["--preset", "grpo-8b-1x8"]


def spawn(*args: str, fault: str | None = None, fsize: int | None = None) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("VERL_WIZARD_WRITE_FAULT", None)
    if fault:
        env["VERL_WIZARD_WRITE_FAULT"] = fault

    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.Popen(
        [sys.executable, "-m", "wizard", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=limit,  # only setrlimit, in the child before exec
    )


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    proc = spawn(*args, **kw)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def one_line_exit_2(proc, *words) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_a_disk_that_fills_up_at_the_fourth_file_leaves_nothing_in_a_fresh_folder(tmp_path):
    """The file-size limit makes the 4 KiB job.sbatch fail (EFBIG) after three smaller files were written."""
    out = tmp_path / "run"
    proc = run("new", *PRESET, "--target", "slurm", "--out", str(out), fsize=3000)
    one_line_exit_2(proc, "nothing was changed", "File too large")
    assert visible(snapshot(out)) == {} and snapshot(out) in (None, {})
    # The same limit over an existing set: the old set stays, whole.
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    before = snapshot(out)
    proc = run("new", *PRESET, "--target", "slurm", "--out", str(out), "--force", fsize=3000)
    one_line_exit_2(proc, "nothing was changed")
    assert snapshot(out) == before


def test_force_over_a_folder_where_a_file_goes_changes_nothing(tmp_path):
    assert cli("new", *PRESET, "--out", str(tmp_path)).returncode == 0
    (tmp_path / "run.sh").unlink()
    (tmp_path / "run.sh").mkdir()
    before = snapshot_all(tmp_path)
    proc = cli("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(tmp_path), "--force")
    one_line_exit_2(proc, "run.sh", "is a folder")
    assert snapshot_all(tmp_path) == before


def snapshot_all(folder) -> dict[str, bytes | str]:
    return {e.name: ("<folder>" if e.is_dir() else open(e.path, "rb").read()) for e in os.scandir(folder)}


def _chattr(flag: str, path) -> bool:
    chattr = shutil.which("chattr")
    return bool(chattr) and subprocess.run([chattr, flag, str(path)], capture_output=True).returncode == 0


def test_force_over_an_immutable_file_changes_nothing(tmp_path):
    assert cli("new", *PRESET, "--out", str(tmp_path)).returncode == 0
    if not _chattr("+i", tmp_path / "answers.yaml"):
        pytest.skip("chattr +i needs root and a file system that supports it")
    try:
        before = snapshot(tmp_path)
        proc = cli("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(tmp_path), "--force")
        one_line_exit_2(proc, "answers.yaml", "Operation not permitted", "nothing was changed")
        assert snapshot(tmp_path) == before
    finally:
        _chattr("-i", tmp_path / "answers.yaml")


@pytest.mark.parametrize(
    ("step", "ends_as"),
    [("write:3", "old"), ("rename:1", "old"), ("rename:4", "new"), ("rename:9", "new")],
)  # before the commit point (the journal's rename is the first rename), then mid-swap
def test_a_real_process_killed_mid_write_is_finished_or_undone_by_the_next(step, ends_as, tmp_path):
    out = tmp_path / "run"
    assert cli("new", *PRESET, "--target", "slurm", "--out", str(out)).returncode == 0
    old = snapshot(out)
    killed = run(
        "new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(out), "--force", fault=f"kill@{step}"
    )
    assert killed.returncode == -9, (killed.returncode, killed.stderr)
    fresh = tmp_path / "fresh"
    assert cli("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(fresh)).returncode == 0
    new = snapshot(fresh)
    # The next writer (here one that only reads, so it writes nothing new) recovers the folder first.
    again = cli("new", *PRESET, "--target", "slurm", "--out", str(out))
    assert snapshot(out) == {"old": old, "new": new}[ends_as], sorted(snapshot(out))
    assert again.returncode == (0 if ends_as == "old" else 2)


def _wait_until_locked(out, proc) -> None:
    """The first writer holds the lock once its first temp file is there (it pauses at its first rename)."""
    deadline = time.monotonic() + 60
    while not (out.exists() and any(n.endswith(".tmp") for n in os.listdir(out))):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)


def test_two_writers_at_once_without_force_one_wins_the_other_exits_2(tmp_path):
    out = tmp_path / "run"
    first = spawn("new", *PRESET, "--out", str(out), fault="sleep=2@rename:1")
    _wait_until_locked(out, first)
    second = run("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(out))
    assert first.wait(timeout=60) == 0
    one_line_exit_2(second, "--force")
    fresh = tmp_path / "fresh"
    assert cli("new", *PRESET, "--out", str(fresh)).returncode == 0
    assert snapshot(out) == snapshot(fresh)


def test_two_forced_writers_at_once_leave_one_whole_set(tmp_path):
    out = tmp_path / "run"
    first = spawn("new", *PRESET, "--out", str(out), "--force", fault="sleep=2@rename:1")
    _wait_until_locked(out, first)
    second = run("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(out), "--force")
    assert first.wait(timeout=60) == 0 and second.returncode == 0, second.stderr
    fresh = tmp_path / "fresh"
    assert cli("new", *PRESET, "--set", "data.train_batch_size=512", "--out", str(fresh)).returncode == 0
    assert snapshot(out) == snapshot(fresh)  # the later writer's set, whole


def test_racing_writers_never_both_win_and_never_mix(tmp_path):
    sets = {}
    for size in (256, 512):
        fresh = tmp_path / f"fresh{size}"
        assert cli("new", *PRESET, "--set", f"data.train_batch_size={size}", "--out", str(fresh)).returncode == 0
        sets[size] = snapshot(fresh)
    for round_ in range(3):
        out = tmp_path / f"race{round_}"
        procs = [spawn("new", *PRESET, "--set", f"data.train_batch_size={size}", "--out", str(out)) for size in sets]
        codes = sorted(p.wait(timeout=120) for p in procs)
        for p in procs:
            with contextlib.suppress(ValueError):
                p.communicate()
        assert codes == [0, 2], codes
        assert snapshot(out) in sets.values()


def test_a_rewrite_for_another_target_removes_or_names_the_old_manifest(tmp_path):
    assert cli("new", *PRESET, "--target", "slurm", "--out", str(tmp_path)).returncode == 0
    assert (tmp_path / "job.sbatch").is_file()
    proc = cli("new", *PRESET, "--target", "local", "--out", str(tmp_path), "--format", "json", "--force")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["removed"] == ["job.sbatch"] and "job.sbatch" not in doc["written"]
    assert not (tmp_path / "job.sbatch").exists()
    # An edited manifest of the earlier set is kept, and said so.
    assert cli("new", *PRESET, "--target", "ray-job", "--out", str(tmp_path), "--force").returncode == 0
    with open(tmp_path / "ray-job.sh", "a") as f:
        f.write("# my change\n")
    proc = cli("new", *PRESET, "--target", "local", "--out", str(tmp_path), "--force")
    assert proc.returncode == 0 and "note: kept ray-job.sh" in proc.stdout
    assert (tmp_path / "ray-job.sh").read_text().endswith("# my change\n")
    # Without --force, removing the earlier set's manifest counts as replacing: refused, named.
    assert cli("new", *PRESET, "--target", "slurm", "--out", str(tmp_path / "s")).returncode == 0
    one_line_exit_2(cli("new", *PRESET, "--target", "local", "--out", str(tmp_path / "s")), "job.sbatch")


def test_a_folder_written_before_the_record_existed_names_the_manifest_it_leaves(tmp_path):
    """A folder from an older writer (no record of its set): a manifest for another target is named, not removed."""
    assert cli("new", *PRESET, "--target", "slurm", "--out", str(tmp_path)).returncode == 0
    (tmp_path / ".verl-wizard-files.json").unlink()
    proc = cli("new", *PRESET, "--target", "local", "--out", str(tmp_path), "--force")
    assert proc.returncode == 0 and "note: kept job.sbatch" in proc.stdout and (tmp_path / "job.sbatch").exists()


def test_written_files_follow_the_umask(tmp_path):
    old = os.umask(0o027)
    try:
        assert cli("new", *PRESET, "--out", str(tmp_path)).returncode == 0
    finally:
        os.umask(old)
    assert (tmp_path / "config.yaml").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "run.sh").stat().st_mode & 0o777 == 0o750
