"""The fuzz suite's tally: how many inputs each command took, and the slowest one, printed at the end."""

from __future__ import annotations

from tests.fuzz import tally


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if tally.COUNTS:
        total = sum(tally.COUNTS.values())
        parts = ", ".join(f"{name} {count}" for name, count in sorted(tally.COUNTS.items()))
        terminalreporter.write_line(
            f"fuzz: {total} inputs ({parts}); slowest {tally.SLOWEST[0]:.2f} s ({tally.SLOWEST[1]})"
        )
