"""JSON and JSON-lines rows for wizard.detect.data.read: an incremental UTF-8, incremental JSON reader.

Accepted, as the JSON loader verl uses accepts them: an array of objects, objects one per line (or
concatenated), and one column-oriented object ({"col": [v0, v1, ...]}). A single object of scalars is
refused. An array is read from its start; JSON lines larger than the budget are sampled from its head and
from windows spread over the rest of the file (only when every object sat on one line, so a seek lands
between rows).
"""

from __future__ import annotations

import codecs
import itertools
import json
from collections.abc import Iterator
from typing import Any

from wizard.detect.data.stream import CHUNK, DataReadError, RowStream
from wizard.i18n.text import msg

WINDOWS = 8  # JSON-lines windows spread over a file larger than the byte budget


class _Chars:
    """UTF-8 text of a binary file, decoded incrementally, with byte and line positions for errors."""

    def __init__(self, f, stream: RowStream, start: int = 0):
        self.f, self.stream = f, stream
        self.decoder = codecs.getincrementaldecoder("utf-8")()
        self.buf, self.pos, self.eof = "", 0, False
        self.line = 1
        self.base = start
        self.newline = self.spans_lines = False

    def fill(self, want: int = CHUNK) -> bool:
        """Read more text; False at the end of the file."""
        if self.eof:
            return False
        data = self.f.read(max(want, CHUNK))
        offset = self.base
        self.base += len(data)
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise DataReadError(msg("data.read.not_utf8", offset=offset + exc.start)) from None
        if data and data.startswith(b"\xef\xbb\xbf") and offset == 0:
            text = text.lstrip("\ufeff")
        self.line += self.buf.count("\n", 0, self.pos)
        self.buf = self.buf[self.pos :] + text
        self.pos = 0
        if not data:
            self.eof = True
        return bool(data)

    def skip_ws(self) -> str:
        """The next non-blank character ('' at the end), not consumed; `newline` says if a line ended on the way."""
        self.newline = False
        while True:
            n = len(self.buf)
            while self.pos < n and self.buf[self.pos] in " \t\r\n":
                if self.buf[self.pos] == "\n":
                    self.newline = True
                self.pos += 1
            if self.pos < n:
                return self.buf[self.pos]
            if not self.fill():
                return ""

    def value(self, decoder: json.JSONDecoder, limit: int) -> Any:
        want = CHUNK
        while True:
            try:
                value, end = decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos > limit:
                    raise DataReadError(
                        msg("data.read.row_too_large", mib=limit >> 20, line=self.where_line())
                    ) from None
                if self.fill(want):
                    want *= 2  # doubling keeps a long row linear, not quadratic
                    continue
                raise DataReadError(msg("data.read.json_row_syntax", line=self.where_line(), error=exc.msg)) from None
            except (RecursionError, ValueError) as exc:
                raise DataReadError(
                    msg("data.read.row_at_line_unusable", line=self.where_line(), why=_unusable(exc))
                ) from None
            self.spans_lines = "\n" in self.buf[self.pos : end]
            self.pos = end
            return value

    def consumed(self) -> int:
        """Bytes of the file used so far (characters past the read-ahead; exact for ASCII)."""
        return self.base - (len(self.buf) - self.pos)

    def where_line(self, at: int | None = None) -> int:
        return self.line + self.buf.count("\n", 0, self.pos if at is None else at)


def _unusable(exc: BaseException):
    """Why a row that parses as JSON text cannot become a value (Python's own limits), for the message."""
    if isinstance(exc, RecursionError):
        return msg("data.read.too_deep")
    return msg("data.read.number_too_long")


def open_json(stream: RowStream) -> None:
    """Set up `stream` to yield the rows of a .json or .jsonl file; raises DataReadError when it is not rows."""
    if stream.size == 0:
        raise DataReadError(msg("data.read.empty"))
    rows = _json_rows(stream)
    # The first row is read now: a file that is not rows fails at open, and its keys name the columns.
    head = list(itertools.islice(rows, 1))

    def all_rows() -> Iterator[dict]:
        yield from head
        yield from rows

    stream._rows = all_rows  # noqa: SLF001 - the stream's own row source, set by its reader


def _as_row(value: Any, index: int) -> dict:
    if not isinstance(value, dict):
        raise DataReadError(msg("data.read.row_not_object", index=index, type=type(value).__name__))
    return value


def _json_rows(stream: RowStream) -> Iterator[dict]:
    decoder = json.JSONDecoder()
    budget = stream.budget
    limit = max(budget.max_bytes, 8 << 20)
    seen: dict[str, None] = {}
    with open(stream.path, "rb") as f:
        chars = _Chars(f, stream)
        first = chars.skip_ws()
        if first == "":
            raise DataReadError(msg("data.read.blank"))
        if first == "[":
            chars.pos += 1
            yield from _array_rows(stream, chars, decoder, limit, seen)
            return
        if first != "{":
            raise DataReadError(msg("data.read.not_rows", first=first))
        value = chars.value(decoder, limit)
        after = chars.skip_ws()
        if after == "" and (chars.spans_lines or _wrapper_key(value)):
            yield from _single_object(stream, value, seen)
            return
        one_per_line = chars.newline and not chars.spans_lines
        yield from _lines_rows(stream, chars, decoder, limit, seen, value, one_per_line)


def _note(seen: dict, row: dict, stream: RowStream) -> None:
    for key in row:
        if key not in seen:
            seen[key] = None
            stream.columns.append(key)


def _spent(stream: RowStream, share: float = 1.0) -> bool:
    b = stream.budget
    return stream.rows_read >= b.max_rows * share or stream.bytes_read >= b.max_bytes * share or stream.out_of_time()


def _array_rows(stream, chars, decoder, limit, seen) -> Iterator[dict]:
    while True:
        c = chars.skip_ws()
        if c == "]":
            stream.complete, stream.where = True, "all rows"
            stream.total_rows, stream.total_exact = stream.rows_read, True
            return
        if c == "":
            raise DataReadError(msg("data.read.array_not_closed", rows=stream.rows_read))
        row = _as_row(chars.value(decoder, limit), stream.rows_read)
        _note(seen, row, stream)
        stream.index = stream.rows_read
        stream.rows_read += 1
        stream.bytes_read = chars.consumed()
        yield row
        c = chars.skip_ws()
        if c == ",":
            chars.pos += 1
        elif c == "":
            raise DataReadError(msg("data.read.array_not_closed", rows=stream.rows_read))
        elif c != "]":
            raise DataReadError(msg("data.read.json_array_syntax", line=chars.where_line(), row=stream.rows_read - 1))
        if _spent(stream):
            stream.where = f"the first {stream.rows_read} rows (a JSON array is read from the start)"
            _estimate_total(stream)
            return


def _wrapper_key(value: dict) -> str | None:
    """The key of a list of row-like objects (not chat messages) inside a lone object, as in {"data": [...]}."""
    for key, inner in value.items():
        if isinstance(inner, list) and inner and all(isinstance(x, dict) and "role" not in x for x in inner):
            return key
    return None


def _single_object(stream, value: dict, seen) -> Iterator[dict]:
    columns = list(value.values())
    if columns and all(isinstance(v, list) for v in columns) and len({len(v) for v in columns}) == 1:
        # The column-oriented form {"col": [v0, v1, ...], ...} that the JSON loader also accepts.
        for i in range(len(columns[0])):
            row = {k: v[i] for k, v in value.items()}
            _note(seen, row, stream)
            stream.index = i
            stream.rows_read += 1
            yield row
        stream.complete, stream.where = True, "all rows (column-oriented JSON)"
        stream.bytes_read = stream.size
        stream.total_rows, stream.total_exact = stream.rows_read, True
        return
    inner = _wrapper_key(value)
    hint = msg("data.read.wrapped_rows", key=inner) if inner else ""
    raise DataReadError(msg("data.read.single_object", hint=hint))


def _lines_rows(stream, chars, decoder, limit, seen, first: dict, one_per_line: bool) -> Iterator[dict]:
    """Concatenated objects; sampled windows further on only when every object so far sat on one line."""
    row = _as_row(first, 0)
    _note(seen, row, stream)
    stream.index = 0
    stream.rows_read += 1
    stream.bytes_read = chars.consumed()
    yield row
    head_share = 0.5 if stream.size > stream.budget.max_bytes else 1.0
    gap_seen = True  # the caller already skipped the blank space after the first object
    while True:
        c = chars.skip_ws()
        if not gap_seen and not chars.newline:
            one_per_line = False
        gap_seen = False
        if c == "":
            stream.complete, stream.where = True, "all rows"
            stream.total_rows, stream.total_exact = stream.rows_read, True
            return
        if c != "{":
            raise DataReadError(msg("data.read.not_object_per_line", line=chars.where_line(), found=c))
        row = _as_row(chars.value(decoder, limit), stream.rows_read)
        one_per_line = one_per_line and not chars.spans_lines
        _note(seen, row, stream)
        stream.index = stream.rows_read
        stream.rows_read += 1
        stream.bytes_read = chars.consumed()
        yield row
        if _spent(stream, head_share if one_per_line else 1.0):
            break
    head_rows, head_bytes = stream.rows_read, chars.consumed()
    if head_share < 1.0 and one_per_line and not stream.out_of_time():
        yield from _windows(stream, head_bytes, seen)
    if head_share < 1.0 and stream.rows_read > head_rows:
        stream.where = f"the first {head_bytes >> 20} MiB ({head_rows} rows) and {stream.rows_read - head_rows} rows from {WINDOWS} places further on"
    else:
        stream.where = f"the first {stream.rows_read} rows"
    _estimate_total(stream)


def _windows(stream: RowStream, start: int, seen) -> Iterator[dict]:
    """JSON lines from WINDOWS places spread over the rest of the file, each starting after a newline."""
    b = stream.budget
    per_window_bytes = max(CHUNK, int(b.max_bytes * 0.5 / WINDOWS))
    per_window_rows = max(1, int(b.max_rows * 0.5 / WINDOWS))
    span = stream.size - start
    with open(stream.path, "rb") as f:
        for w in range(WINDOWS):
            offset = start + (span * (w + 1)) // (WINDOWS + 1)
            f.seek(max(offset - 1, 0))
            skipped = f.readline()  # the rest of a line cut by the seek
            stream.bytes_read += len(skipped)
            got = used = 0
            while got < per_window_rows and used < per_window_bytes and not stream.out_of_time():
                line = f.readline(per_window_bytes)
                if not line:
                    break
                used += len(line)
                stream.bytes_read += len(line)
                at = f.tell() - len(line)
                try:
                    text = line.decode("utf-8").strip()
                except UnicodeDecodeError as exc:
                    raise DataReadError(msg("data.read.not_utf8", offset=at + exc.start)) from None
                if not text:
                    continue
                try:
                    value = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise DataReadError(msg("data.read.json_line_syntax", byte=at, error=exc.msg)) from None
                except (RecursionError, ValueError) as exc:
                    raise DataReadError(msg("data.read.row_near_byte_unusable", byte=at, why=_unusable(exc))) from None
                row = _as_row(value, stream.rows_read)
                _note(seen, row, stream)
                stream.index = None
                stream.rows_read += 1
                got += 1
                yield row


def _estimate_total(stream: RowStream) -> None:
    if stream.rows_read and stream.bytes_read:
        stream.total_rows = max(stream.rows_read, round(stream.size * stream.rows_read / stream.bytes_read))
    stream.total_exact = False
