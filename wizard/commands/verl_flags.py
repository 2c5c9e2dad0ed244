"""The `--verl PYTHON|auto` and `--timeout S` flags, declared once for `check`, `new` and the TUI.

Standard library only: `verl-wizard` with no arguments imports this module to declare the TUI's flags, and its
first paint must not load what asking verl needs (wizard.commands.verl_ask, wizard.detect.env.verl_verdict).
"""

from __future__ import annotations

import argparse
import math

# wizard.detect.env.verl_verdict.DEFAULT_DEADLINE_S, which this module cannot import (it is not light);
# tests/cli/test_tui_verl_flag.py holds the two equal.
DEFAULT_TIMEOUT_S = 60.0


def seconds(text: str) -> float:
    """--timeout: a finite number of seconds from 1 to 600 (nan, inf and 0.001 are refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 1 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give seconds between 1 and 600")
    return value


def add_flags(p: argparse.ArgumentParser) -> None:
    """Declare --verl and --timeout on a command's parser."""
    p.add_argument(
        "--verl",
        metavar="PYTHON|auto",
        help="also ask the verl installed for this interpreter (a path, a name on PATH, or auto: the active venv's "
        "python, else the first python3/python on PATH with verl) for its own verdict, in a child process",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=DEFAULT_TIMEOUT_S,
        help="with --verl: seconds (1-600) verl may take to import and compose (default 60)",
    )
