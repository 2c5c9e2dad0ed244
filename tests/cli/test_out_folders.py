"""Which folders --out may name (wizard.commands.paths.out_problem): not /, the system's trees, the shared
top-level folders or the home folder itself; their ordinary subfolders and any scratch folder are fine. The
TUI's --out is refused before the app starts, like `new`'s (tests/cli/test_odd_values.py)."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import pytest

from wizard.commands.tui import refuse_missing
from wizard.emit.out_folders import out_problem
from wizard.emit.writer import write_all
from wizard.errors import UsageError


@pytest.mark.parametrize(
    "out",
    [
        "/",
        "/etc",
        "/etc/verl",
        "/usr",
        "/usr/local/runs",
        "/bin",
        "/sbin/x",
        "/lib",
        "/lib64/x",
        "/boot",
        "/libx32/y",
        "/dev/shm/run",
        "/proc/1",
        "/sys/x",
        "/run/user",
        "/var",
        "/var/lib/runs",
        "/home",
        "/mnt",
        "/opt",
        "/srv",
        "/tmp",
        "/etc/../etc/x",
    ],
)
def test_system_and_shared_folders_are_refused(out):
    problem = out_problem(out)
    assert problem is not None and "is a system folder" in problem.render("en"), out
    assert "系统文件夹" in problem.render("zh")


@pytest.mark.parametrize(
    "out",
    [
        "/var/tmp/run",
        "/var/lib/ci/work/repo/runs",
        "/opt/runs/grpo",
        "/srv/verl/run",
        "/mnt/data/run",
        "/home/someone/run",
        "runs/a",
        "./x",
    ],
)
def test_ordinary_folders_are_fine(out):
    assert out_problem(out) is None


def test_the_temp_folder_inside_is_fine_and_a_link_to_etc_is_not(tmp_path):
    assert out_problem(str(Path(tempfile.gettempdir()) / "verl-run")) is None
    (tmp_path / "etc-link").symlink_to("/etc")
    assert "/etc is a system folder" in out_problem(str(tmp_path / "etc-link" / "run")).render("en")


def test_the_home_folder_itself_is_refused_and_a_folder_inside_it_is_not(monkeypatch, tmp_path):
    home = tmp_path / "home" / "me"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    assert "your home folder itself" in out_problem(str(home)).render("en")
    assert "your home folder itself" in out_problem("~").render("en")
    assert out_problem(str(home / "verl-run")) is None


def test_the_writer_refuses_a_system_folder_for_every_door():
    # The TUI's Review folder is typed after start-up and reaches only the writer. /proc cannot be written even
    # by root, so a regression shows as "cannot write" and never leaves a file in a system folder.
    with pytest.raises(UsageError, match="/proc is a system folder"):
        write_all("/proc/verl-wizard-test/run", {"config.yaml": "x: 1\n"})


def test_the_writer_still_writes_a_folder_of_ones_own(tmp_path):
    assert write_all(tmp_path / "run", {"config.yaml": "x: 1\n"}).written == ["config.yaml"]


def test_the_tui_refuses_a_system_folder_before_it_starts():
    args = argparse.Namespace(out="/etc", preset=None, answers=None, topology=None)
    with pytest.raises(UsageError, match="--out /etc: /etc is a system folder"):
        refuse_missing(args)
    refuse_missing(argparse.Namespace(out="verl-run", preset=None, answers=None, topology=None))
    assert not os.path.exists("verl-run")
