"""A run in a real terminal: tmux drives the installed `verl-wizard` through the workshop preset to files."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


def wait_for(session: str, text: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.3)
    raise AssertionError(f"{text!r} did not appear; the screen was:\n{screen}")


def test_workshop_preset_to_written_files_in_a_real_terminal(tmp_path):
    out = tmp_path / "run"
    command = shutil.which("verl-wizard")
    launcher = shlex.quote(command) if command else f"{shlex.quote(sys.executable)} -m wizard"
    session = f"vw-{os.getpid()}"
    script = f"cd {shlex.quote(str(ROOT))} && {launcher} tui --preset workshop-0.5b-1gpu --out {shlex.quote(str(out))}; echo EXIT=$?; sleep 30"
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", script)
    try:
        start = wait_for(session, "1/7 Start")
        assert "Loaded workshop-0.5b-1gpu" in start  # the preset shows as chosen on the Start step
        tmux("send-keys", "-t", session, "C-n")
        wait_for(session, "2/7 Models")
        for _ in range(5):
            tmux("send-keys", "-t", session, "C-n")
            time.sleep(0.3)
        wait_for(session, "7/7 Review")
        tmux("send-keys", "-t", session, "C-p")
        wait_for(session, "Search")
        tmux("send-keys", "-t", session, "-l", "Write files")
        time.sleep(0.5)
        tmux("send-keys", "-t", session, "Enter")
        deadline = time.monotonic() + 30
        while not (out / "RUN.md").exists() and time.monotonic() < deadline:
            time.sleep(0.3)
        assert sorted(p.name for p in out.iterdir()) == [
            ".verl-wizard-files.json",
            "RUN.md",
            "answers.yaml",
            "config.yaml",
            "run.sh",
        ]
        tmux("send-keys", "-t", session, "C-q")  # nothing unsaved after the write: ctrl+q quits at once
        screen = wait_for(session, "EXIT=0")
        assert "Written by verl-wizard:" in screen and "./run.sh" in screen
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
