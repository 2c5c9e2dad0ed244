"""What a data reader yields: a `RowStream` of row dicts within a `Budget`, or a `DataReadError` of one line.

Below the readers of each format (read.py opens parquet, json_rows.py JSON and JSON lines), which all fill one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from wizard.i18n.text import Msg, render

FORMATS = {".parquet": "parquet", ".json": "json", ".jsonl": "jsonl"}
CHUNK = 1 << 20


class DataReadError(Exception):
    """A data file that cannot be read as verl would read it; the message (a catalogue message) is one line."""

    def __init__(self, message: Msg | str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return render(self.message)


@dataclass(frozen=True)
class Budget:
    """How much of one file to read: rows, decoded bytes and wall-clock seconds (whichever ends first)."""

    max_rows: int = 20_000
    max_bytes: int = 64 << 20
    seconds: float = 10.0


def format_of(path: str) -> str | None:
    """'parquet' | 'json' | 'jsonl' by the name's ending, as verl decides; None for anything else."""
    for ending, fmt in FORMATS.items():
        if path.endswith(ending):
            return fmt
    return None


class RowStream:
    """Rows of one file. `columns`, `total_rows` and `total_exact` are final once iteration ends."""

    def __init__(self, path: str, fmt: str, budget: Budget):
        self.path = path
        self.format = fmt
        self.budget = budget
        self.size = os.path.getsize(path)
        self.columns: list[str] = []
        self.total_rows: int | None = None
        self.total_exact = False
        self.rows_read = 0
        self.index: int | None = None  # the file row of the row just yielded; None where unknown
        self.bytes_read = 0
        self.complete = False
        self.where = ""
        self._deadline = time.monotonic() + budget.seconds
        self._rows: Callable[[], Iterator[dict]] = lambda: iter(())
        self.selected: list[str] | None = None

    def out_of_time(self) -> bool:
        return time.monotonic() > self._deadline

    def select(self, columns: list[str]) -> None:
        """Decode only these columns (parquet); JSON rows always come whole."""
        self.selected = [c for c in columns if c in self.columns]

    def __iter__(self) -> Iterator[dict]:
        return self._rows()
