"""Counts of the inputs the fuzz tests ran (hypothesis's shrinking included), for the terminal summary."""

from __future__ import annotations

import collections

COUNTS: collections.Counter = collections.Counter()
SLOWEST: list = [0.0, ""]


def record(command: str, seconds: float, argv: list[str]) -> None:
    COUNTS[command] += 1
    if seconds > SLOWEST[0]:
        SLOWEST[:] = [seconds, " ".join(argv)]


def merge(counts: dict[str, int], slowest: list) -> None:
    """Add another process's tally (a pytest-xdist worker's) to this one."""
    COUNTS.update(counts)
    if slowest[0] > SLOWEST[0]:
        SLOWEST[:] = list(slowest)
