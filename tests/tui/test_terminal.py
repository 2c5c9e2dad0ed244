"""The installed `verl-wizard` in a real terminal (tmux): bursts of typing keep every key, and quitting with
unsaved edits asks (issue 18 items 1-3)."""

from __future__ import annotations

import os
import random
import shlex
import shutil
import string
import time

import pytest
import yaml

from tests.tui.test_tmux import tmux, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("verl-wizard") is None, reason="tmux or verl-wizard missing"
)


@pytest.fixture
def wizard(tmp_path):
    session = f"vwt-{os.getpid()}"
    script = (
        f"cd {shlex.quote(str(tmp_path))} && verl-wizard --preset workshop-0.5b-1gpu --out out; echo EXIT=$?; sleep 30"
    )
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "40", script)
    wait_for(session, "1/7 Start")
    yield session
    tmux("kill-session", "-t", session)


def keys(session, *names):
    tmux("send-keys", "-t", session, *names)


@pytest.mark.xfail(reason="unfinished: in tmux the actor path is not reliably focused by this script yet", strict=False)
def test_bursts_of_forty_characters_keep_every_key(wizard, tmp_path):
    keys(wizard, "C-n")
    wait_for(wizard, "2/7 Models")
    time.sleep(1)  # the step settles its focus on its first field
    keys(wizard, "Tab")  # the first field (adv estimator) has focus; the actor path is next
    time.sleep(0.5)
    answers = tmp_path / "verl-wizard-answers.yaml"
    rng = random.Random(18)
    for _ in range(20):
        text = "m" + "".join(rng.choice(string.ascii_lowercase + "/-_.0123456789") for _ in range(39))
        keys(wizard, "End")
        keys(wizard, "C-u")
        tmux("send-keys", "-t", wizard, "-l", text)  # one burst, no pauses
        keys(wizard, "C-s")
        deadline = time.monotonic() + 10
        saved = None
        while time.monotonic() < deadline:
            if answers.exists():
                saved = (yaml.safe_load(answers.read_text()) or {}).get("models", {}).get("actor_path")
                if saved == text:
                    break
            time.sleep(0.2)
        assert saved == text
        answers.unlink()


def test_ctrl_q_with_unsaved_edits_asks(wizard):
    keys(wizard, "C-n")
    wait_for(wizard, "2/7 Models")
    time.sleep(1)  # the step settles its focus on its first field
    keys(wizard, "Tab")
    time.sleep(0.3)
    tmux("send-keys", "-t", wizard, "-l", "x")
    time.sleep(0.5)
    keys(wizard, "C-q")
    wait_for(wizard, "Save answers: verl-wizard-answers.yaml?")
    keys(wizard, "Escape")  # stay
    time.sleep(0.5)
    keys(wizard, "Escape")  # at top level with unsaved edits: asks again, never quits
    screen = wait_for(wizard, "Save answers: verl-wizard-answers.yaml?")
    assert "EXIT=" not in screen
