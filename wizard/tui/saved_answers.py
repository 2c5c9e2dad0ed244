"""Answers saved to this machine's disk, and the typed texts an answers file cannot hold (not valid values):
what the app remembers of a save and says after it, and the exit report says again."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.i18n.text import msg


@dataclass(frozen=True)
class SavedAnswers:
    """An answers file saved to this machine, and the typed texts it could not hold (not valid values)."""

    path: str
    left_out: tuple[str, ...] = ()


def kept_out(workspace) -> tuple[str, ...]:
    """The fields whose typed text is not a value (KEY-006/007): an answers file keeps their earlier value."""
    return tuple(f"{address} {text!r}" for address, (text, _) in workspace.rejected.items())


def kept_out_line(left_out: tuple[str, ...]) -> str:
    """The line that names them, after the save's note and in the exit report."""
    return str(msg("save.kept_out", items=list(left_out)))
