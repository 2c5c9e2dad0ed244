"""Fuzzed data files for `verl-wizard data`: rows written as jsonl, json or parquet, then maybe damaged."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.inputs import rows

FORMATS = ("jsonl", "json", "parquet")


def _parquet_bytes(data: list) -> bytes | None:
    """The rows as a parquet file, or None when pyarrow cannot type them (mixed columns)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist([r if isinstance(r, dict) else {"value": r} for r in data])
        sink = io.BytesIO()
        pq.write_table(table, sink)
        return sink.getvalue()
    except Exception:
        return None


def encode(data: list, fmt: str) -> tuple[str, bytes]:
    """(suffix, bytes) of the rows in a format; falls back to jsonl when parquet cannot hold them."""
    if fmt == "parquet":
        payload = _parquet_bytes(data)
        if payload is not None:
            return ".parquet", payload
        fmt = "jsonl"
    if fmt == "json":
        return ".json", json.dumps(data, default=str, allow_nan=True).encode()
    return ".jsonl", "".join(json.dumps(r, default=str, allow_nan=True) + "\n" for r in data).encode()


@st.composite
def data_files(draw) -> tuple[str, bytes]:
    """(file name, bytes): rows in a format, often intact, sometimes cut or flipped, sometimes lying about the suffix."""
    suffix, payload = encode(draw(rows()), draw(st.sampled_from(FORMATS)))
    damage = draw(st.sampled_from(["none", "none", "truncate", "flip", "prefix", "suffix-lie", "empty"]))
    if damage == "truncate" and payload:
        payload = payload[: draw(st.integers(0, len(payload) - 1))]
    elif damage == "flip" and payload:
        i = draw(st.integers(0, len(payload) - 1))
        payload = payload[:i] + bytes([payload[i] ^ draw(st.integers(1, 255))]) + payload[i + 1 :]
    elif damage == "prefix":
        payload = draw(st.sampled_from([b"\xef\xbb\xbf", b"\x00", b"PAR1", b"[", b"\xff\xfe"])) + payload
    elif damage == "suffix-lie":
        suffix = draw(st.sampled_from([".parquet", ".json", ".jsonl", ".csv", ""]))
    elif damage == "empty":
        payload = b""
    return "train" + suffix, payload


def write(folder: Path, name: str, payload: bytes) -> Path:
    path = folder / name
    path.write_bytes(payload)
    return path
