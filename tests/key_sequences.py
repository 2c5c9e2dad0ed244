"""Random key sequences over the wizard's steps, their shrinking, and the comparison of two saved answers (issue 32
item 1): shared by the property tests that type each sequence as one burst and a key at a time, in tmux
(tests/tui/test_key_bursts_terminal.py) and in a served wizard's browser tab (tests/serve/).

A sequence is a list of key names in the driver's own spelling (tmux's `BSpace`, Playwright's `Backspace`): `Keys`
names them. The walk between steps stays within FIRST..LAST (Models..Deployment), counted from the step given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from wizard.core.step_names import STEPS as STEP_NAMES
from wizard.i18n import en

# The steps' English titles in the wizard's order, as its header shows them ("4/7 Batch").
STEPS = tuple(en.STRINGS[f"step.{step}"] for step in STEP_NAMES)
FIRST, LAST = 1, len(STEPS) - 2  # a walk stays between Models and Deployment (the steps with fields)
BATCH = STEPS.index("Batch")  # where the tests start it
PRINTABLE = "0123456789abcdefghijklmnopqrstuvwxyz"
ENTER_SHARE = 0.05  # of all keys, where the driver's Keys name Enter (taken from the printable keys' share)


@dataclass(frozen=True)
class Keys:
    """One driver's names for the keys a sequence uses; enter None: sequences without Enter."""

    backspace: str
    arrows: tuple[str, ...]
    tab: str
    backtab: str
    next_step: str
    prev_step: str
    enter: str | None = None


TMUX = Keys("BSpace", ("Left", "Right", "Up", "Down"), "Tab", "BTab", "C-n", "C-b")
# A served tab's step keys are PageDown/PageUp (in a browser ctrl+n is the browser's); Enter toggles a switch and
# opens or picks in a select (elsewhere it does what Enter does there: a step list's Enter goes to that step).
PLAYWRIGHT = Keys(
    "Backspace",
    ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"),
    "Tab",
    "Shift+Tab",
    "PageDown",
    "PageUp",
    enter="Enter",
)


def walked(step: int, sequence: list[str], keys: Keys = TMUX) -> int:
    """The step a sequence's step keys lead to from `step` (Enter's moves are not foreseen)."""
    for key in sequence:
        if key == keys.next_step:
            step = min(step + 1, len(STEPS) - 1)
        elif key == keys.prev_step:
            step = max(step - 1, 0)
    return step


def random_sequence(rng: random.Random, step: int, keys: Keys = TMUX) -> tuple[list[str], int]:
    """3 to 14 keys, and the step they end on (they never step outside Models..Deployment)."""
    sequence = []
    for _ in range(rng.randint(3, 14)):
        roll = rng.random()
        if roll < 0.45:
            # Enter takes the place of a character drawn all the same: every later draw stays as without Enter (the
            # tmux test's sequences stay those of its seeds).
            character = rng.choice(PRINTABLE)
            key = keys.enter if keys.enter and roll < ENTER_SHARE else character
        elif roll < 0.65:
            key = keys.backspace
        elif roll < 0.75:
            key = rng.choice(keys.arrows)
        elif roll < 0.87:
            key = keys.tab
        elif roll < 0.92:
            key = keys.backtab
        else:
            key = keys.next_step if (rng.random() < 0.5 and step < LAST) or step <= FIRST else keys.prev_step
        step = walked(step, [key], keys)
        sequence.append(key)
    return sequence, step


def shrink(sequence: list[str], fails: Callable[[list[str], int], bool], tries: int) -> list[str] | None:
    """A shorter sequence that still fails (None: the sequence alone does not fail). fails(candidate, n) runs a
    candidate from a fresh start, n counting the runs from 0 (the whole sequence); at most `tries` candidates."""
    attempts = iter(range(tries))
    if not fails(sequence, 0):
        return None
    chunk = max(len(sequence) // 2, 1)
    while chunk >= 1:
        at = 0
        while at < len(sequence):
            candidate = sequence[:at] + sequence[at + chunk :]
            n = next(attempts, None)
            if n is None:
                return sequence
            if candidate and fails(candidate, n + 1):
                sequence = candidate
            else:
                at += chunk
        chunk //= 2
    return sequence


def differences(burst: dict, paced: dict) -> list[str]:
    """Where two saved answers differ, a line per field: `section.name: burst X, paced Y`."""
    lines = []
    for section in sorted(set(burst) | set(paced)):
        a, b = burst.get(section) or {}, paced.get(section) or {}
        if not isinstance(a, dict) or not isinstance(b, dict):
            if a != b:
                lines.append(f"{section}: burst {a!r}, paced {b!r}")
            continue
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                lines.append(f"{section}.{name}: burst {a.get(name)!r}, paced {b.get(name)!r}")
    return lines
