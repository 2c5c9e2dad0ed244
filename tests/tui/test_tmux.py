"""A run in a real terminal: tmux drives the installed `verl-wizard` through the workshop preset to files."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.tui.tmux_server import kill_session, new_session, tmux, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.terminal, pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")]


def test_workshop_preset_to_written_files_in_a_real_terminal(tmp_path):
    out = tmp_path / "run"
    command = shutil.which("verl-wizard")
    launcher = shlex.quote(command) if command else f"{shlex.quote(sys.executable)} -m wizard"
    session = f"vw-{os.getpid()}"
    script = f"cd {shlex.quote(str(ROOT))} && {launcher} tui --preset workshop-0.5b-1gpu --out {shlex.quote(str(out))}; echo EXIT=$?; sleep 30"
    new_session(session, 120, 40, script)
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
        kill_session(session)
