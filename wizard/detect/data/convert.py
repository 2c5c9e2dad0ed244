"""Convert a question/answer file into verl's RL format (the common case users ask for).

One output row per input row, as verl's own gsm8k preprocessing writes it:
`{"data_source": NAME, "prompt": [{"role": "user", "content": QUESTION}], "ability": ...,
"reward_model": {"style": "rule", "ground_truth": ANSWER}, "extra_info": {"split", "index", "question", "answer"}}`,
with an optional system message and a prompt template around the question. The input is streamed
(parquet, json or jsonl) and written in batches, so any size converts in bounded memory; the output is
written to a temporary file beside OUT and renamed at the end, so a failure leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any

from wizard.detect.data.read import Budget, DataReadError, open_rows

EVERYTHING = Budget(max_rows=1 << 62, max_bytes=1 << 62, seconds=1e12)
WRITE_BATCH = 10_000


class ConvertError(Exception):
    """Input the converter cannot use; one line naming the row or column and the fix."""


@dataclass
class ConvertResult:
    rows: int
    out: str


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float, bool)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def _schema():
    import pyarrow as pa

    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    return pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", pa.list_(message)),
            ("ability", pa.string()),
            ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
            (
                "extra_info",
                pa.struct(
                    [("split", pa.string()), ("index", pa.int64()), ("question", pa.string()), ("answer", pa.string())]
                ),
            ),
        ]
    )


def convert_to_rl(
    src: str,
    out: str,
    *,
    question_key: str,
    answer_key: str,
    data_source: str,
    system: str | None = None,
    template: str | None = None,
    ability: str = "",
    split: str = "train",
) -> ConvertResult:
    """Write `out` (parquet) from `src`; raises ConvertError (bad rows, columns) or DataReadError (unreadable input)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConvertError("writing parquet needs pyarrow: pip install pyarrow") from None
    if template is not None and "{question}" not in template:
        raise ConvertError("--template must contain {question}, where the question goes")
    stream = open_rows(src, EVERYTHING)
    for key, flag in ((question_key, "--question-key"), (answer_key, "--answer-key")):
        if stream.columns and key not in stream.columns:
            close = difflib.get_close_matches(key, stream.columns, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; its columns are {', '.join(stream.columns[:12])}"
            raise ConvertError(f"{flag} {key}: no such column in {src}{hint}")
    stream.select([question_key, answer_key])
    schema = _schema()
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(out):
        raise ConvertError(f"--out {out}: is a folder; give the name of the .parquet file to write")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".convert-", suffix=".parquet", dir=folder)
    except OSError as exc:
        raise ConvertError(
            f"--out {out}: cannot write in {folder} ({exc.strerror or exc}); choose another --out"
        ) from None
    os.close(fd)
    rows = 0
    try:
        with pq.ParquetWriter(tmp, schema) as writer:
            batch: list[dict] = []
            for record in stream:
                where = f"row {stream.index if stream.index is not None else rows}"
                question, answer = _text(record.get(question_key)), _text(record.get(answer_key))
                if question is None or not question.strip():
                    raise ConvertError(f"{src}: {where} has no {question_key!r}; every row needs a question")
                if answer is None or not answer.strip():
                    raise ConvertError(f"{src}: {where} has no {answer_key!r}; a rule-based reward needs the answer")
                content = template.replace("{question}", question) if template is not None else question
                prompt = ([{"role": "system", "content": system}] if system else []) + [
                    {"role": "user", "content": content}
                ]
                batch.append(
                    {
                        "data_source": data_source,
                        "prompt": prompt,
                        "ability": ability,
                        "reward_model": {"style": "rule", "ground_truth": answer},
                        "extra_info": {"split": split, "index": rows, "question": question, "answer": answer},
                    }
                )
                rows += 1
                if len(batch) >= WRITE_BATCH:
                    writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                    batch.clear()
            if batch:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
        if rows == 0:
            raise ConvertError(f"{src}: no rows to convert")
        _publish(tmp, out)
    except OSError as exc:  # a full or read-only file system, a target that cannot be replaced
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ConvertError(f"--out {out}: cannot write it ({exc.strerror or exc}); nothing was written") from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return ConvertResult(rows=rows, out=out)


def _publish(tmp: str, out: str) -> None:
    """Give the finished file the mode the umask asks for (mkstemp makes it 0600), flush it to disk, rename it."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, out)


__all__ = ["ConvertError", "ConvertResult", "DataReadError", "convert_to_rl"]
