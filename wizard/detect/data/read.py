"""Stream rows out of parquet, json and jsonl files in bounded memory and time.

verl picks the reader by the file name's ending (`.parquet`, `.json`, `.jsonl`, case-sensitive) and
refuses anything else. Here a file is opened with `open_rows`, which returns a `RowStream`: its columns
and row count are known up front where the format says so (parquet metadata), and iterating it yields
row dicts until the budget (rows, bytes, seconds) is spent. Large files are sampled, not read whole:
parquet from row groups spread over the file, JSON lines from windows spread over the file. A file
that cannot be read raises `DataReadError` with one line that says why; nothing else escapes.
pyarrow is imported only when a parquet file is opened.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from wizard.detect.data.json_rows import open_json
from wizard.detect.data.stream import CHUNK, Budget, DataReadError, RowStream, format_of
from wizard.detect.input_files import problem_message
from wizard.i18n.text import msg


def open_rows(path: str, budget: Budget) -> RowStream:
    """Open `path` for sampling: columns are known after this (parquet: the schema; JSON: the first row)."""
    fmt = format_of(path)
    if fmt is None:
        raise DataReadError(msg("data.read.not_a_data_file"))
    problem = problem_message(path)
    if problem is not None:  # a named pipe would block the reader, a device would never end
        raise DataReadError(problem)
    stream = RowStream(path, fmt, budget)
    if fmt == "parquet":
        _open_parquet(stream)
    else:
        open_json(stream)
    return stream


# --- parquet ---------------------------------------------------------------------------------


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def _open_parquet(stream: RowStream) -> None:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DataReadError(msg("data.read.needs_pyarrow")) from None
    try:
        pf = pq.ParquetFile(stream.path, buffer_size=CHUNK, pre_buffer=False)
        meta = pf.metadata
        names = list(pf.schema_arrow.names)
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a bad footer
        raise DataReadError(msg("data.read.bad_parquet", error=_short(exc))) from None
    stream.columns = names
    stream.total_rows, stream.total_exact = meta.num_rows, True
    stream._rows = lambda: _parquet_rows(stream, pf, names if stream.selected is None else stream.selected)  # noqa: SLF001 - the stream's own row source, set by its reader


def _spread(n_items: int, k: int) -> list[int]:
    """k indices spread evenly over range(n_items), first and last included."""
    if k >= n_items:
        return list(range(n_items))
    if k <= 1:
        return [0]
    return sorted({round(i * (n_items - 1) / (k - 1)) for i in range(k)})


def _parquet_rows(stream: RowStream, pf, columns: list[str]) -> Iterator[dict]:
    meta, budget = pf.metadata, stream.budget
    starts, at = {}, 0
    for g in range(meta.num_row_groups):
        starts[g] = at
        at += meta.row_group(g).num_rows
    groups = [g for g in range(meta.num_row_groups) if meta.row_group(g).num_rows > 0]
    total = stream.total_rows or 0
    if total <= budget.max_rows:
        chosen, per_group = groups, None
    else:
        chosen = _spread(len(groups), min(len(groups), 16))
        chosen = [groups[i] for i in chosen]
        per_group = math.ceil(budget.max_rows / len(chosen))
    if not columns:
        stream.where, stream.complete = "no column needed decoding", True
        return
    stopped = False
    try:
        for g in chosen:
            taken = 0
            for batch in pf.iter_batches(
                batch_size=min(1024, per_group or 1024), row_groups=[g], columns=columns, use_threads=False
            ):
                if per_group is not None:
                    batch = batch.slice(0, per_group - taken)
                stream.bytes_read += batch.nbytes
                for row in batch.to_pylist():
                    stream.index = starts[g] + taken
                    stream.rows_read += 1
                    taken += 1
                    yield row
                if per_group is not None and taken >= per_group:
                    break
                if stream.rows_read >= budget.max_rows or stream.bytes_read >= budget.max_bytes or stream.out_of_time():
                    stopped = True
                    break
            if stopped or stream.out_of_time():
                stopped = True
                break
    except DataReadError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types mid-file
        raise DataReadError(msg("data.read.parquet_after", rows=stream.rows_read, error=_short(exc))) from None
    stream.complete = per_group is None and stream.rows_read == total
    if stream.complete:
        stream.where = "all rows"
    elif per_group is None:
        stream.where = f"the first {stream.rows_read} rows (budget reached)"
    else:
        stream.where = f"up to {per_group} rows from each of {len(chosen)} of {len(groups)} row groups"
