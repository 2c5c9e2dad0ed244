"""Conformance tier: the workshop flow, `verl-wizard --preset workshop-grpo-0.5b-1gpu --lang zh`, to files verl takes.

tmux drives the installed wizard in Chinese from Start to Review and writes through the palette; the written
config.yaml has no error finding (`check`) and verl 0.9.1 accepts it. Without tmux the same preset goes
through `new`, so the files verl judges are the same either way (same answers, same bytes).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.tui.tmux_server import kill_session, new_session
from tests.tui.tmux_server import tmux as _tmux
from tests.tui.tmux_server import wait_for as _wait

pytestmark = [pytest.mark.conformance, pytest.mark.terminal, pytest.mark.usefixtures("verl_python")]

PRESET = "workshop-grpo-0.5b-1gpu"
ROOT = Path(__file__).resolve().parents[2]


def _write_through_tui(out: Path) -> None:
    command = shutil.which("verl-wizard")
    launcher = shlex.quote(command) if command else f"{shlex.quote(sys.executable)} -m wizard"
    session = f"vw-workshop-{os.getpid()}"
    script = f"cd {shlex.quote(str(ROOT))} && {launcher} --preset {PRESET} --lang zh --out {shlex.quote(str(out))}"
    new_session(session, 120, 40, script + "; echo EXIT=$?; sleep 30")
    try:
        _wait(session, "1/7")
        for step in range(2, 8):
            _tmux("send-keys", "-t", session, "C-n")
            _wait(session, f"{step}/7")
        _tmux("send-keys", "-t", session, "C-p")
        time.sleep(1)
        _tmux("send-keys", "-t", session, "-l", "写出文件")
        time.sleep(0.8)
        _tmux("send-keys", "-t", session, "Enter")
        deadline = time.monotonic() + 30
        while not (out / "RUN.md").exists() and time.monotonic() < deadline:
            time.sleep(0.3)
        assert (out / "config.yaml").is_file(), _tmux("capture-pane", "-p", "-t", session)
    finally:
        kill_session(session)


def test_workshop_grpo_preset_in_chinese_to_files_verl_accepts(tmp_path, run_wizard, start_harness):
    out = tmp_path / "workshop"
    if shutil.which("tmux"):
        _write_through_tui(out)
    else:
        proc = run_wizard("new", "--preset", PRESET, "--out", str(out))
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {"config.yaml", "run.sh", "answers.yaml", "RUN.md"} <= {p.name for p in out.iterdir()}
    proc = run_wizard("check", str(out / "config.yaml"), "--mode", "cluster", "--format", "json")
    errors = [f for f in json.loads(proc.stdout)["findings"] if f["severity"] == "error"]
    assert errors == [] and proc.returncode == 0, proc.stdout
    verdict = start_harness([out]).result()[str(out)]
    assert verdict["ok"] is True, verdict
