"""Exit codes of every command, and the one exception that means "unusable input" (exit 2)."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """The CLI contract of DESIGN.md section 4."""

    OK = 0
    FINDINGS = 1
    BAD_INPUT = 2
    NEEDS_INPUT = 3
    CANCELLED = 130


class UsageError(Exception):
    """Input the wizard cannot use. The message is one line that names the field and the fix.

    The CLI prints it as `verl-wizard: error: <message>` and exits with ExitStatus.BAD_INPUT.
    """
