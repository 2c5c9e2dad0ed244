"""Reading on past a statement the tree-sitter grammar mis-parses (bash accepts it; the tree has an ERROR).

tree-sitter-bash fails on some valid bash (`f{ab() { :; }`, a last line `{a` without a newline), and its
recovery can swallow the commands after the bad spot into one broken node, so the verl command would be
lost. `pieces` cuts such a top-level statement into whole lines and parses greedy runs of them again on
their own: a run that parses cleanly is read as usual, a line that never does is skipped (the reader
notes it). A run after a skipped line that opened a block (`if`, a loop, `{`) is only possibly run: the
skipped line may have been its condition. Line numbers stay those of the script.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wizard.detect.script.bash import tree

MAX_LINES = 200  # a broken statement longer than this is skipped whole
MAX_SPAN = 40  # lines one run may take
MAX_PARSES = 3000  # parses of one reading's recovery (about a tenth of a second)
_OPENS = re.compile(rb"^\s*(if|while|until|for|case|select|function)\b|(\{|\(|\bthen|\bdo|\belse|\bin)\s*(#.*)?$")


@dataclass
class Piece:
    """Lines first..last (1-based) of the script: `source` to read (None: skipped), `maybe` when possibly run."""

    first: int
    last: int
    source: bytes | None
    maybe: bool = False


class Allowance:
    """Parses the recovery of one reading may still make (a script of many broken statements stays cheap)."""

    def __init__(self, parses: int = MAX_PARSES) -> None:
        self.left = parses


def pieces(src: bytes, node, allowance: Allowance) -> list[Piece]:
    """The statement's lines as runs to read and lines skipped; all skipped once the allowance is spent."""
    first, last = node.start_point[0], node.end_point[0]  # 0-based rows
    lines = src.split(b"\n")
    last = min(last, len(lines) - 1)
    if last - first + 1 > MAX_LINES:
        return [Piece(first + 1, last + 1, None)]
    out: list[Piece] = []
    opened = False
    row = first
    while row <= last:
        for end in range(row + 1, min(last + 1, row + MAX_SPAN) + 1):
            allowance.left -= 1
            if allowance.left < 0:
                return [Piece(first + 1, last + 1, None)]
            chunk = b"\n" * row + b"\n".join(lines[row:end])
            if not tree.parse(chunk).has_error:
                out.append(Piece(row + 1, end, chunk + b"\n", opened))
                row = end
                break
        else:
            if out and out[-1].source is None:
                out[-1].last = row + 1
            else:
                out.append(Piece(row + 1, row + 1, None))
            opened = opened or bool(_OPENS.search(lines[row]))
            row += 1
    return out
