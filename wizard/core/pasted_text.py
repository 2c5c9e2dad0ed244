"""What a paste into a one-line field keeps: text copied from a terminal or an editor, without what no answer holds.

Text copied out of a terminal brings its colour codes along (`ESC [ 31 m`), a line copied from an editor its line
break, a copied table its other lines. None of them is part of a model name, a path or a number, and no field may
hold them (wizard.core.text_chars). A paste keeps its text in order and leaves out: whole escape sequences, every
other character no answer may hold (TAB stays: answers may hold it), and every line after the first that has text.
What was left out is returned so the user is told, never silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wizard.core.text_chars import char_name

# ECMA-48's sequences as terminals send and print them: CSI (ESC [ params intermediates final), OSC/DCS/APC/PM/SOS
# strings up to BEL or ST, and two-character escapes (ESC and one character from @ to ~, or a charset designator).
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[()*+][ -~]"
    r"|\x1b[ -~]"
)
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")


@dataclass(frozen=True)
class Pasted:
    """A paste as a one-line field takes it, and what was left out of it."""

    text: str
    sequences: int = 0  # escape sequences (terminal colour codes and the like) left out
    characters: tuple[str, ...] = ()  # other characters left out, named as `U+0001 (SOH)`, each once, in order
    lines: int = 1  # lines of the paste that hold text; only the first is kept

    @property
    def changed(self) -> bool:
        """Whether anything was left out."""
        return bool(self.sequences or self.characters or self.lines > 1)


def for_one_line(text: str) -> Pasted:
    """The paste `text` as a one-line field takes it (see the module's docstring)."""
    lines = [line for line in _LINE_BREAK.split(text) if line.strip()]
    first = lines[0] if lines else ""
    sequences = len(_ESCAPE_SEQUENCE.findall(first))
    first = _ESCAPE_SEQUENCE.sub("", first)
    kept: list[str] = []
    named: list[str] = []
    for char in first:
        name = char_name(ord(char))
        if name is None:
            kept.append(char)
            continue
        label = f"U+{ord(char):04X} ({name})"
        if label not in named:
            named.append(label)
    return Pasted("".join(kept), sequences, tuple(named), max(len(lines), 1))
