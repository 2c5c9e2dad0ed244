"""The installed `verl-wizard` in a real terminal (tmux): bursts of 40 characters with no pauses keep every key
in a text field, a number field and Review's Output folder, and every way out with unsaved edits asks
(issue 18 items 1-3). One wizard process per test, not per burst."""

from __future__ import annotations

import os
import random
import shlex
import shutil
import string
import time
from pathlib import Path

import pytest
import yaml

from tests.tui.tmux_server import kill_session, new_session, tmux, wait_for

WIZARD = shutil.which("verl-wizard")
pytestmark = [
    pytest.mark.terminal,
    pytest.mark.skipif(shutil.which("tmux") is None or WIZARD is None, reason="tmux or verl-wizard missing"),
]
BURSTS = 20
ASKS = "Quit without saving"  # the quit question's discard button


@pytest.fixture
def wizard(tmp_path):
    session = f"vwt-{os.getpid()}-{tmp_path.name}"
    # 200 columns: a field is wider than a 40-character burst, so the screen shows the whole value.
    # the absolute path: a tmux server started elsewhere has its own PATH
    script = f"cd {shlex.quote(str(tmp_path))} && env -u COLUMNS -u LINES {shlex.quote(WIZARD)} --preset workshop-0.5b-1gpu --out out; "
    new_session(session, 200, 50, script + "echo EXIT=$?; sleep 30")
    # a tmux server started without a client may keep 80x24 whatever -x/-y say: fix the size
    tmux("set-option", "-t", session, "window-size", "manual")
    tmux("resize-window", "-t", session, "-x", "200", "-y", "50")
    wait_for(session, "1/7 Start")
    yield session
    kill_session(session)


def keys(session, *names):
    tmux("send-keys", "-t", session, *names)


def burst(session, text):
    keys(session, "C-e")  # end of the field (tmux's End and C-u do not reach Textual's Input as such)
    tmux("send-keys", "-t", session, "-N", "90", "BSpace")  # clears it
    # no pause: the clear and the burst arrive together, and the backspaces must still apply first
    tmux("send-keys", "-t", session, "-l", text)  # one burst, no pauses


def until(probe, timeout=10.0):
    deadline = time.monotonic() + timeout
    value = probe()
    while time.monotonic() < deadline and not value:
        time.sleep(0.15)
        value = probe()
    return value


def saved(path: Path, section: str, name: str, expected):
    def probe():
        try:
            value = (yaml.safe_load(path.read_text()) or {}).get(section, {}).get(name)
        except (OSError, yaml.YAMLError):
            return None
        return value if value == expected else None

    return until(probe)


def shown(session, text, timeout=5.0):
    return until(lambda: text in tmux("capture-pane", "-p", "-t", session), timeout)


def _bursts_saved(wizard, tmp_path, step, section, name, texts, as_saved):
    answers = tmp_path / "verl-wizard-answers.yaml"
    for text in texts:
        burst(wizard, text)
        keys(wizard, "C-s")
        got = saved(answers, section, name, as_saved(text))
        assert got == as_saved(text), (text, (yaml.safe_load(answers.read_text()) or {}).get(section))
        # the file is written before the next frame is painted: give the screen a moment to catch up
        assert shown(wizard, text), tmux("capture-pane", "-p", "-t", wizard)  # the screen shows it whole
        answers.unlink()


def test_bursts_into_a_text_field_keep_every_key(wizard, tmp_path):
    keys(wizard, "C-n")
    wait_for(wizard, "2/7 Models")
    time.sleep(1)  # the step settles its focus on its first field
    keys(wizard, "Tab")  # the first field (adv estimator) has focus; the actor path is next
    time.sleep(0.5)
    rng = random.Random(18)
    alphabet = string.ascii_lowercase + "/-_.0123456789"
    texts = ["m" + "".join(rng.choice(alphabet) for _ in range(39)) for _ in range(BURSTS)]
    _bursts_saved(wizard, tmp_path, "models", "models", "actor_path", texts, str)


def test_bursts_into_a_number_field_keep_every_key(wizard, tmp_path):
    # Prompts per step allows at most 16777216, so 40 random digits would only be rejected: each burst is 40
    # digits of zeros then an allowed value; the saved number checks the value digits, the screen all 40
    keys(wizard, "C-p")
    time.sleep(0.5)
    tmux("send-keys", "-t", wizard, "-l", "Batch")
    time.sleep(0.5)
    keys(wizard, "Enter")
    wait_for(wizard, "Batch")
    time.sleep(1)  # focus settles on the step's first field, Prompts per step
    rng = random.Random(40)
    texts = [str(rng.randint(1, 16777216)).rjust(40, "0") for _ in range(BURSTS)]
    _bursts_saved(wizard, tmp_path, "batch", "batch", "train_batch_size", texts, int)


def test_bursts_into_the_output_folder_write_where_typed(wizard, tmp_path):
    keys(wizard, "C-p")
    time.sleep(0.5)
    tmux("send-keys", "-t", wizard, "-l", "Review")
    time.sleep(0.5)
    keys(wizard, "Enter")
    wait_for(wizard, "Write files")
    time.sleep(1)
    rng = random.Random(3)
    alphabet = string.ascii_lowercase + "-_0123456789"
    texts = ["o" + "".join(rng.choice(alphabet) for _ in range(39)) for _ in range(BURSTS)]
    for text in texts:
        burst(wizard, text)
        keys(wizard, "C-p")  # Write from the palette while the burst may still be queued
        tmux("send-keys", "-t", wizard, "-l", "Write files")
        time.sleep(0.4)
        keys(wizard, "Enter")
        run_sh = tmp_path / text / "run.sh"
        assert until(run_sh.exists), sorted(p.name for p in tmp_path.iterdir())
        assert text in wait_for(wizard, text)
    written = {p.name for p in tmp_path.iterdir() if p.is_dir()}
    assert written == set(texts)  # no folder named after a prefix


def _edited(wizard):
    keys(wizard, "C-n")
    wait_for(wizard, "2/7 Models")
    time.sleep(1)
    keys(wizard, "Tab")
    time.sleep(0.3)
    tmux("send-keys", "-t", wizard, "-l", "x")
    time.sleep(0.5)


def test_ctrl_q_with_unsaved_edits_asks(wizard):
    _edited(wizard)
    keys(wizard, "C-q")
    wait_for(wizard, ASKS)
    keys(wizard, "Escape")  # stay
    time.sleep(0.5)
    keys(wizard, "Escape")  # at top level with unsaved edits: asks again, never quits
    screen = wait_for(wizard, ASKS)
    assert "EXIT=" not in screen


def test_the_palettes_quit_with_unsaved_edits_asks(wizard):
    _edited(wizard)
    keys(wizard, "C-p")
    time.sleep(0.5)
    tmux("send-keys", "-t", wizard, "-l", "Quit")
    time.sleep(0.5)
    keys(wizard, "Enter")
    screen = wait_for(wizard, ASKS)
    assert "EXIT=" not in screen


def test_esc_after_closing_a_dropdown_or_help_does_not_quit(wizard):
    _edited(wizard)
    keys(wizard, "BTab")  # back to the adv estimator, a dropdown
    time.sleep(0.3)
    keys(wizard, "Enter")  # opens it
    time.sleep(0.5)
    keys(wizard, "Escape")  # closes it
    time.sleep(0.5)
    keys(wizard, "F1")
    time.sleep(0.8)
    keys(wizard, "Escape")  # closes help
    time.sleep(0.5)
    screen = tmux("capture-pane", "-p", "-t", wizard)
    assert ASKS not in screen and "EXIT=" not in screen and "2/7 Models" in screen


def _paste(session, text: str, tmp_path: Path) -> None:
    """Paste `text` as a terminal does: tmux's bracketed paste (-p), which the wizard asked the terminal for."""
    buffer = tmp_path / "paste.txt"
    buffer.write_text(text)
    tmux("load-buffer", "-b", "vw", str(buffer))
    tmux("paste-buffer", "-p", "-b", "vw", "-t", session)


def test_pastes_with_control_characters_keep_their_text_in_order(wizard, tmp_path):
    # issue 32 item 7: `Qwen/ESC[31mabc` was saved as `^[31mabcQwen/`, the ESC read as the start of keys
    answers = tmp_path / "verl-wizard-answers.yaml"
    keys(wizard, "C-n")
    wait_for(wizard, "2/7 Models")
    time.sleep(1)
    keys(wizard, "Tab")  # the actor path
    time.sleep(0.5)
    for pasted, expected in [
        ("Qwen/\x1b[31mabc\x1b[0m", "Qwen/abc"),
        ("Qwen/\x01abc\nsecond line\n", "Qwen/abc"),
        ("my\tmodel", "my\tmodel"),  # a TAB in a paste is text: the focus stays, the next key goes here too
    ]:
        burst(wizard, "")
        _paste(wizard, pasted, tmp_path)
        tmux("send-keys", "-t", wizard, "-l", "Z")
        keys(wizard, "C-s")
        got = saved(answers, "models", "actor_path", expected + "Z")
        assert got == expected + "Z", (pasted, (yaml.safe_load(answers.read_text()) or {}).get("models"))
        answers.unlink()
