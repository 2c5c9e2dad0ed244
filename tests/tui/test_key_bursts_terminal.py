"""Typing speed never changes the result (issue 32 item 1): the installed wizard in a real terminal (tmux).

Random key sequences over the steps' fields (digits and letters, Backspace, arrows, Tab, shift+Tab, ctrl+n,
ctrl+b) go to two wizards started alike: to one as a single burst (one `tmux send-keys` call, ctrl+s at its
end), to the other a key at a time, each once the screen has settled, then ctrl+s. The answers files they
save must be identical after every sequence. The sequences run one after another in the same two
processes (each pair of states stays equal while the files do). Seeded; on a failure the sequence is
shrunk on fresh pairs of wizards and printed with the seed and its place.

CI's conformance tier runs it (`pytest -m conformance`): VERL_WIZARD_KEY_SEQUENCES sequences (default 200:
278 s on 2 CPUs at a load average of 8, most of it the paced side), stopping early once
VERL_WIZARD_KEY_SECONDS (default 240) have passed (it prints how many ran); VERL_WIZARD_KEY_SEED the seed.
"""

from __future__ import annotations

import os
import random
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.agreement.tiers import skip_unless_conformance
from tests.key_sequences import BATCH, STEPS, differences, random_sequence, walked
from tests.key_sequences import shrink as shrink_sequence
from tests.tui.tmux_server import kill_session, new_session, tmux, wait_for

WIZARD = shutil.which("verl-wizard") or str(Path(sys.executable).with_name("verl-wizard"))
pytestmark = [
    pytest.mark.terminal,
    pytest.mark.skipif(shutil.which("tmux") is None or not Path(WIZARD).exists(), reason="tmux or verl-wizard missing"),
]
SEQUENCES = int(os.environ.get("VERL_WIZARD_KEY_SEQUENCES", "200"))
SECONDS = float(os.environ.get("VERL_WIZARD_KEY_SECONDS", "240"))
SEED = int(os.environ.get("VERL_WIZARD_KEY_SEED", "32"))
PRESET = "workshop-grpo-0.5b-1gpu"
PACE_S = 0.06  # the paced side's least pause after a key
SHRINK_TRIES = 24
ANSWERS = "verl-wizard-answers.yaml"
_started = 0


class Wizard:
    """The installed wizard in a tmux session of its own, in its own folder (where ctrl+s saves the answers)."""

    def __init__(self, folder: Path) -> None:
        global _started
        _started += 1
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.session = f"vwk-{os.getpid()}-{_started}"
        script = f"cd {shlex.quote(str(folder))} && env -u COLUMNS -u LINES {shlex.quote(WIZARD)} --preset {PRESET} --out out; sleep 30"
        new_session(self.session, 160, 45, script)
        tmux("set-option", "-t", self.session, "window-size", "manual")
        tmux("resize-window", "-t", self.session, "-x", "160", "-y", "45")
        wait_for(self.session, "1/7 Start")
        self.step = 0

    def close(self) -> None:
        kill_session(self.session)

    def screen(self) -> str:
        return tmux("capture-pane", "-p", "-t", self.session)

    def burst(self, keys: list[str]) -> None:
        """All the keys in one send-keys call, then ctrl+s (in the same call)."""
        (self.folder / ANSWERS).unlink(missing_ok=True)
        tmux("send-keys", "-t", self.session, *keys, "C-s")
        self.step = walked(self.step, keys)

    def paced(self, keys: list[str]) -> None:
        """A key at a time, each once the screen stopped changing (a step change: once the new step shows)."""
        (self.folder / ANSWERS).unlink(missing_ok=True)
        for key in keys:
            tmux("send-keys", "-t", self.session, key)
            self.step = walked(self.step, [key])
            if key in ("C-n", "C-b"):
                wait_for(self.session, f"{self.step + 1}/7 {STEPS[self.step]}", timeout=30)
            self._settle()
        tmux("send-keys", "-t", self.session, "C-s")

    def _settle(self) -> None:
        time.sleep(PACE_S)
        before, deadline = self.screen(), time.monotonic() + 2
        while time.monotonic() < deadline:
            time.sleep(0.04)
            now = self.screen()
            if now == before:
                return
            before = now

    def saved(self, timeout: float = 30) -> dict:
        """The answers ctrl+s saved (waits for the file)."""
        path, deadline = self.folder / ANSWERS, time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                answers = yaml.safe_load(path.read_text())
            except (OSError, yaml.YAMLError):
                answers = None
            if isinstance(answers, dict):
                return answers
            time.sleep(0.1)
        raise AssertionError(f"no answers saved in {self.folder}; the screen was:\n{self.screen()}")

    def to_batch(self) -> None:
        for _ in range(BATCH - self.step):
            tmux("send-keys", "-t", self.session, "C-n")
            self.step += 1
            wait_for(self.session, f"{self.step + 1}/7 {STEPS[self.step]}", timeout=30)
        time.sleep(0.5)  # the step settles its focus on its first field


class Pair:
    """Two wizards side by side at the Batch step: one takes each sequence as a burst, the other paced."""

    def __init__(self, folder: Path) -> None:
        self.burst_side, self.paced_side = Wizard(folder / "burst"), Wizard(folder / "paced")
        try:
            for side in (self.burst_side, self.paced_side):
                side.to_batch()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.burst_side.close()
        self.paced_side.close()

    def differences(self, keys: list[str]) -> list[str]:
        self.burst_side.burst(keys)  # works while the paced side types
        self.paced_side.paced(keys)
        return differences(self.burst_side.saved(), self.paced_side.saved())


def fails_fresh(folder: Path, keys: list[str]) -> bool:
    pair = Pair(folder)
    try:
        return bool(pair.differences(keys))
    finally:
        pair.close()


def shrink(folder: Path, keys: list[str]) -> list[str] | None:
    """A shorter sequence that still fails on a fresh pair at Batch (None: the sequence alone does not fail)."""
    return shrink_sequence(keys, lambda candidate, n: fails_fresh(folder / f"s{n}", candidate), SHRINK_TRIES)


@pytest.mark.conformance
def test_a_burst_saves_the_answers_that_the_same_keys_typed_slowly_save(request, tmp_path):
    skip_unless_conformance(request)
    rng = random.Random(SEED)
    pair = Pair(tmp_path / "run")
    step, started, place, found = BATCH, time.monotonic(), 0, []
    try:
        while place < SEQUENCES and not found and time.monotonic() - started < SECONDS:
            place += 1
            keys, step = random_sequence(rng, step)
            found = pair.differences(keys)
        if not found:
            print(f"{place} sequences (seed {SEED}) in {time.monotonic() - started:.0f} s: the same answers")
            return
        screens = f"burst side:\n{pair.burst_side.screen()}\npaced side:\n{pair.paced_side.screen()}"
    finally:
        pair.close()
    shrunk = shrink(tmp_path / "shrink", keys)
    alone = "does not fail alone on a fresh pair" if shrunk is None else f"shrunk (fresh pair at Batch): {shrunk}"
    raise AssertionError(
        f"sequence {place} of seed {SEED}: {' '.join(keys)}\n{alone}\n" + "\n".join(found) + "\n" + screens
    )
