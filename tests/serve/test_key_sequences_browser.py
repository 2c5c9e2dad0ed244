"""Typing speed never changes the result in a browser tab either (issue 32 item 1): `verl-wizard serve` in
headless Chromium, driven by Playwright.

Random key sequences over the steps' fields (tests/key_sequences.py, as the tmux test draws them, with Enter too:
printable keys, Backspace, arrows, Tab, shift+Tab, Enter, and a served tab's step keys PageDown/PageUp) go to two
tabs of one served wizard: to one as a burst (Playwright key presses with no pause between them, ctrl+s at the
end), to the other a key at a time, each once the tab's screen has settled (a step key: once the new step shows),
then ctrl+s. The answers each tab downloads must be identical after every sequence. The sequences run one after
another in the same two tabs (their states stay equal while the answers do); where Enter on the step list took
them out of Models..Deployment, two fresh tabs start again at Batch. Seeded; on a failure the sequence is shrunk
on fresh pairs of tabs and printed with the seed and its place.

CI's browser tier runs it: VERL_WIZARD_BROWSER_KEY_SEQUENCES sequences (default 50), VERL_WIZARD_BROWSER_KEY_SEED
the seed.
"""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest
import yaml

from tests.key_sequences import BATCH, FIRST, LAST, PLAYWRIGHT, STEPS, differences, random_sequence, shrink
from tests.serve.helpers import need_browser

pytestmark = pytest.mark.browser
SEQUENCES = int(os.environ.get("VERL_WIZARD_BROWSER_KEY_SEQUENCES", "50"))
SEED = int(os.environ.get("VERL_WIZARD_BROWSER_KEY_SEED", "32"))
PRESET = "workshop-grpo-0.5b-1gpu"
PACE_S = 0.06  # the paced side's least pause after a key
SHRINK_TRIES = 16
ANSWERS = "verl-wizard-answers.yaml"
HEADER = re.compile(rf"(\d)/{len(STEPS)} ")
STEP_KEYS = (PLAYWRIGHT.next_step, PLAYWRIGHT.prev_step)


class Side:
    """A tab of the served wizard at the Batch step, and the answers it downloaded so far."""

    def __init__(self, browser, url: str) -> None:
        self.browser = browser
        self.tab = browser.open(url)
        self.page = self.tab.page
        self._taken = 0  # answers downloads of this tab already read
        self.tab.wait_for(f"1/{len(STEPS)} {STEPS[0]}")
        self.tab.focus()
        for step in range(1, BATCH + 1):
            self.page.keyboard.press(PLAYWRIGHT.next_step)
            self.tab.wait_for(f"{step + 1}/{len(STEPS)} {STEPS[step]}")
        self.page.wait_for_timeout(500)  # the step settles its focus on its first field

    def close(self) -> None:
        self.tab.close()

    def step(self) -> int:
        """The step the tab's header shows (0 = Start), -1 without one (a dialog over it)."""
        found = HEADER.search(self.tab.text())
        return int(found[1]) - 1 if found else -1

    def burst(self, keys: list[str]) -> None:
        """Every key pressed with no pause between them, then ctrl+s."""
        for key in [*keys, "Control+s"]:
            self.page.keyboard.press(key)

    def paced(self, keys: list[str]) -> None:
        """A key at a time, each once the screen stopped changing (a step key: once the step it leads to shows)."""
        for key in keys:
            before = self.step()
            self.page.keyboard.press(key)
            if key in STEP_KEYS and before >= 0:
                after = min(before + 1, len(STEPS) - 1) if key == PLAYWRIGHT.next_step else max(before - 1, 0)
                self.tab.wait_for(f"{after + 1}/{len(STEPS)} {STEPS[after]}")
            self.page.wait_for_timeout(PACE_S * 1000)
            self.tab.settle()
        self.page.keyboard.press("Control+s")

    def saved(self, timeout: float = 30) -> dict:
        """The answers of this tab's next ctrl+s (waits for its download)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mine = [d for d in self.browser.downloads if d.suggested_filename == ANSWERS and _opener(d) == self.page]
            if len(mine) > self._taken:
                self._taken += 1
                answers = yaml.safe_load(Path(mine[self._taken - 1].path()).read_text())
                assert isinstance(answers, dict), answers
                return answers
            self.page.wait_for_timeout(50)
        raise AssertionError(f"no answers downloaded; the screen was:\n{self.tab.text()}")


def _opener(download):
    # serve hands a download to the browser in a window that the tab opens
    page = download.page
    return page.opener() or page


class Pair:
    """Two tabs side by side at the Batch step: one takes each sequence as a burst, the other paced."""

    def __init__(self, browser, url: str) -> None:
        self.burst_side = Side(browser, url)
        try:
            self.paced_side = Side(browser, url)
        except BaseException:
            self.burst_side.close()
            raise

    def close(self) -> None:
        self.burst_side.close()
        self.paced_side.close()

    def differences(self, keys: list[str]) -> list[str]:
        self.burst_side.burst(keys)  # works while the paced side types
        self.paced_side.paced(keys)
        return differences(self.burst_side.saved(), self.paced_side.saved())

    def screens(self) -> str:
        return f"burst side:\n{self.burst_side.tab.text()}\npaced side:\n{self.paced_side.tab.text()}"


def fails_fresh(browser, url: str, keys: list[str]) -> bool:
    pair = Pair(browser, url)
    try:
        return bool(pair.differences(keys))
    finally:
        pair.close()


def test_a_burst_in_a_browser_tab_saves_the_answers_that_the_same_keys_typed_slowly_save(serve, tmp_path):
    need_browser()
    from tests.serve.browser import Browser

    served = serve("--preset", PRESET)
    browser = Browser(tmp_path / "profile")
    try:
        rng = random.Random(SEED)
        pair = Pair(browser, served.url)
        step, started, place, found, fresh = BATCH, time.monotonic(), 0, [], 0
        try:
            while place < SEQUENCES and not found:
                place += 1
                keys, _ = random_sequence(rng, step, PLAYWRIGHT)
                try:
                    found = pair.differences(keys)
                except AssertionError as error:  # a tab saved nothing: its screen is in the message
                    raise AssertionError(f"sequence {place} of seed {SEED}: {' '.join(keys)}\n{error}") from None
                step = pair.paced_side.step()
                if not found and not FIRST <= step <= LAST:  # Enter on the step list went to Start or Review
                    pair.close()
                    pair, step, fresh = Pair(browser, served.url), BATCH, fresh + 1
            if not found:
                took = time.monotonic() - started
                print(f"{place} sequences (seed {SEED}, {fresh} fresh pairs) in {took:.0f} s: the same answers")
                return
            screens = pair.screens()
        finally:
            pair.close()
        shrunk = shrink(keys, lambda candidate, n: fails_fresh(browser, served.url, candidate), SHRINK_TRIES)
    finally:
        browser.close()
    alone = "does not fail alone on a fresh pair" if shrunk is None else f"shrunk (fresh pair at Batch): {shrunk}"
    raise AssertionError(
        f"sequence {place} of seed {SEED}: {' '.join(keys)}\n{alone}\n" + "\n".join(found) + "\n" + screens
    )
