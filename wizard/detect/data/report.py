"""Read the training data a run will use and report what verl would make of it.

`scan_file` reads one parquet/json/jsonl file within a budget (sampling large files: the report says
how much was read) and counts what the rules need: the columns, the kind of data (rl, rm, sft), the
shape of every prompt, data_source values, ground truths, reward-model pairs and prompt lengths in
tokens. `inspect_data(answers, mode)` is the hook `check`, `new` and the TUI call: it scans the local
train and val files of the answers and returns {"data": DataReport}; remote paths and, in cluster mode,
every path are "not checked here". Bad data never raises here: it becomes a report the rules turn into
findings (DATA-*, BATCH-013). The `data` command calls `scan_file` directly and turns a `DataReadError`
into exit 2.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field
from typing import Any

from wizard.detect.data.read import Budget, DataReadError, format_of, open_rows
from wizard.detect.data.rows import ChatFacts, PairFacts, RewardFacts, candidate_columns, detect_kind, message_text
from wizard.detect.data.tokens import EstimateCounter, TokenizerError, load_counter, percentile
from wizard.detect.input_files import problem_message
from wizard.i18n.text import Msg, msg, render

HOOK_BUDGET = Budget(max_rows=2_000, max_bytes=8 << 20, seconds=2.0)
COMMAND_BUDGET = Budget()
BATCH = 256  # conversations tokenized together
MEASURE_CHARS = 4_000_000  # prompt characters tokenized per column before measuring every n-th row instead
REMOTE = ("hdfs://", "s3://", "s3a://", "gs://", "gcs://", "oss://", "http://", "https://", "abfs://", "az://")


@dataclass
class FileReport:
    """What one data file holds, as far as it was read (`where` says how far)."""

    path: str
    role: str = "file"  # train | val | file
    status: str = "read"  # read | not checked | unreadable
    note: str | Msg = ""  # why it was not read: a message of wizard/i18n/messages/data.py
    format: str | None = None
    kind: str | None = None
    kind_source: str = ""  # given | detected
    columns: list[str] = field(default_factory=list)
    rows_total: int | None = None
    rows_exact: bool = False
    rows_read: int = 0
    bytes_read: int = 0
    size: int = 0
    complete: bool = False
    where: str = ""
    seconds: float = 0.0
    prompt_key: str = "prompt"
    messages_key: str = "messages"
    chats: dict[str, ChatFacts] = field(default_factory=dict)
    reward: RewardFacts | None = None
    pairs: PairFacts | None = None
    length_label: str | Msg = ""
    length_exact: bool = False

    @property
    def read(self) -> bool:
        return self.status == "read"

    def to_json(self) -> dict[str, Any]:
        doc = {
            k: getattr(self, k)
            for k in (
                "path",
                "role",
                "status",
                "note",
                "format",
                "kind",
                "kind_source",
                "columns",
                "rows_total",
                "rows_exact",
                "rows_read",
                "bytes_read",
                "size",
                "complete",
                "where",
                "prompt_key",
                "messages_key",
                "length_label",
                "length_exact",
            )
        }
        doc["note"], doc["length_label"] = render(self.note), render(self.length_label)
        doc["seconds"] = round(self.seconds, 3)
        doc["chats"] = {name: facts.to_json() for name, facts in self.chats.items()}
        doc["lengths"] = {name: length_summary(facts.lengths) for name, facts in self.chats.items() if facts.lengths}
        doc["reward"] = self.reward.to_json() if self.reward else None
        doc["pairs"] = self.pairs.to_json() if self.pairs else None
        return doc


@dataclass
class DataReport:
    """Every data file of a run, keyed by the path exactly as the config spells it."""

    files: dict[str, FileReport] = field(default_factory=dict)
    length_label: str | Msg = ""

    def to_json(self) -> dict[str, Any]:
        return {"files": [f.to_json() for f in self.files.values()], "length_label": render(self.length_label)}


def length_summary(lengths: list[int]) -> dict[str, int | None]:
    return {
        "rows": len(lengths),
        "p50": percentile(lengths, 50),
        "p95": percentile(lengths, 95),
        "max": lengths[-1] if lengths else None,
    }


# --- one file ----------------------------------------------------------------------------------


def scan_file(
    path: str,
    *,
    resolved: str | None = None,
    role: str = "file",
    kind: str | None = None,
    prompt_key: str = "prompt",
    messages_key: str = "messages",
    source_key: str = "data_source",
    counter=None,
    budget: Budget = COMMAND_BUDGET,
) -> FileReport:
    """Read `path` (or `resolved`, its local form) within `budget`; raises DataReadError when it cannot be read."""
    started = time.monotonic()
    local = resolved or path
    problem = local_problem(local)
    if problem:
        raise DataReadError(problem)
    try:
        stream = open_rows(local, budget)
    except OSError as exc:
        raise DataReadError(msg("data.read.cannot_read", error=str(exc.strerror or exc))) from None
    report = FileReport(
        path=path, role=role, format=stream.format, prompt_key=prompt_key, messages_key=messages_key, size=stream.size
    )
    report.kind, report.kind_source = (
        (kind, "given") if kind else (detect_kind(stream.columns, prompt_key, messages_key), "detected")
    )
    chats = _plan_chats(report.kind, stream.columns, prompt_key, messages_key)
    report.chats = {c.column: c for c in chats}
    needed = list(report.chats)
    if report.kind == "rl":
        report.reward = RewardFacts(source_key=source_key)
        needed += [source_key, "reward_model"]
    elif report.kind == "rm":
        report.pairs = PairFacts()
        needed += ["prompt", "chosen", "rejected"]
    stream.select(needed)
    expected = min(budget.max_rows, stream.total_rows or budget.max_rows)
    meters = (
        {c.column: _Meter(counter, c, expected) for c in chats if report.kind == "rl"} if counter is not None else {}
    )
    try:
        for row in stream:
            index = stream.index
            for facts in chats:
                messages = facts.add(index, row.get(facts.column))
                if messages is not None and facts.column in meters:
                    meters[facts.column].add(messages)
            if report.reward is not None:
                report.reward.add(index, row)
            if report.pairs is not None:
                report.pairs.add(index, row)
    except OSError as exc:
        raise DataReadError(
            msg("data.read.failed_after", rows=stream.rows_read, error=str(exc.strerror or exc))
        ) from None
    for meter in meters.values():
        meter.flush()
    for facts in chats:
        facts.finish()
    report.columns = list(stream.columns)
    report.rows_total, report.rows_exact = stream.total_rows, stream.total_exact
    report.rows_read, report.bytes_read = stream.rows_read, stream.bytes_read
    report.complete, report.where = stream.complete, stream.where
    if counter is not None:
        report.length_label, report.length_exact = counter.label, counter.exact
    report.seconds = time.monotonic() - started
    return report


def _plan_chats(kind: str, columns: list[str], prompt_key: str, messages_key: str) -> list[ChatFacts]:
    """The chat-list columns worth checking: the configured one, and look-alikes when it is absent."""
    if kind == "rm":
        return []
    key, need_assistant = (messages_key, True) if kind == "sft" else (prompt_key, False)
    names = [key] + ([] if key in columns else [c for c in candidate_columns(columns, key) if c != key])
    return [ChatFacts(column=name, need_assistant=need_assistant) for name in names]


class _Meter:
    """Counts prompt tokens for one column in batches, every `stride`-th well-formed row once the first
    rows show that measuring them all would pass MEASURE_CHARS characters (tokenizing is the slow part)."""

    def __init__(self, counter, facts: ChatFacts, expected_rows: int):
        self.counter, self.facts, self.expected = counter, facts, max(1, expected_rows)
        self.pending: list = []
        self.seen = self.chars = self.taken = 0
        self.stride = 1

    def add(self, messages: list) -> None:
        self.seen += 1
        if (self.seen - 1) % self.stride:
            return
        self.pending.append(messages)
        self.taken += 1
        self.chars += sum(len(message_text(m)) for m in messages)
        if self.taken == BATCH and self.stride == 1 and self.counter.exact:  # the estimate is cheap: measure every row
            per_row = self.chars / self.taken
            self.stride = max(1, math.ceil(self.expected * per_row / MEASURE_CHARS))
        if len(self.pending) >= BATCH:
            self.flush()

    def flush(self) -> None:
        facts = self.facts
        if self.pending:
            for n in self.counter.count_batch(self.pending):
                if n is None:
                    facts.length_failures += 1
                    facts.length_failure = facts.length_failure or getattr(self.counter, "last_error", "")
                else:
                    facts.lengths.append(n)
            self.pending = []
        facts.length_stride = self.stride


def local_problem(path: str) -> Msg | None:
    """Why a local path cannot be a data file verl reads (missing, a folder, a format verl refuses); None if fine."""
    problem = problem_message(path)
    if problem is not None and problem.key in ("data.read.no_such_file", "data.read.folder"):
        return problem
    if format_of(path) is None:
        ending = os.path.splitext(path)[1] or msg("data.read.no_ending")
        return msg("data.read.bad_ending", ending=ending)
    return problem


# --- the hook: every data file of the answers ------------------------------------------------------


def not_checked_reason(path: str, mode: str) -> Msg | None:
    """Why a configured path is not read on this machine, or None when it should be."""
    if path.startswith(REMOTE) or "://" in path:
        return msg("data.not_checked.remote", scheme=path.split("://")[0])
    if "$" in path:
        return msg("data.not_checked.variable")
    if mode == "cluster":
        return msg("data.not_checked.cluster")
    return None


def data_paths(answers) -> list[tuple[str, str]]:
    """(role, path) for every train and val file the answers name, in order, without repeats."""
    seen, out = set(), []
    for role, value in (("train", answers.data.train_files), ("val", answers.data.val_files)):
        for path in [value] if isinstance(value, str) else list(value or []):
            if isinstance(path, str) and path and path not in seen:
                seen.add(path)
                out.append((role, path))
    return out


def data_inputs(answers, mode: str = "local") -> tuple:
    """Everything inspect_data reads from the answers (a cache key)."""
    extra = answers.extra
    return (
        mode,
        tuple(data_paths(answers)),
        answers.models.actor_path,
        answers.data.prompt_key,
        repr(extra.get("actor_rollout_ref.model.tokenizer_path")),
        repr(extra.get("data.apply_chat_template_kwargs")),
        repr(extra.get("data.reward_fn_key")),
    )


def inspect_data(answers, mode: str = "local") -> dict[str, Any]:
    """{"data": DataReport} for the rules: local files scanned within a small budget; never raises on bad data."""
    report = DataReport()
    counter = None
    extra = answers.extra
    for role, path in data_paths(answers):
        reason = not_checked_reason(path, mode)
        if reason:
            note = msg("data.note.not_checked", reason=reason)
            report.files[path] = FileReport(path=path, role=role, status="not checked", note=note)
            continue
        if counter is None:
            counter = counter_for_model(
                extra.get("actor_rollout_ref.model.tokenizer_path") or answers.models.actor_path,
                extra.get("data.apply_chat_template_kwargs"),
            )
            report.length_label = counter.label
        local = os.path.expanduser(path)
        if path.startswith("~") and not os.path.exists(local):
            note = msg("data.note.not_checked", reason=msg("data.not_checked.home_missing", path=local))
            report.files[path] = FileReport(path=path, role=role, status="not checked", note=note)
            continue
        try:
            report.files[path] = scan_file(
                path,
                resolved=local,
                role=role,
                kind="rl",
                prompt_key=answers.data.prompt_key,
                source_key=str(extra.get("data.reward_fn_key") or "data_source"),
                counter=counter,
                budget=HOOK_BUDGET,
            )
        except DataReadError as exc:
            report.files[path] = FileReport(path=path, role=role, status="unreadable", note=exc.message)
        except Exception as exc:  # noqa: BLE001 - never let a strange file stop `check`: it is a finding
            report.files[path] = FileReport(
                path=path,
                role=role,
                status="unreadable",
                note=msg("data.read.could_not", error=f"{type(exc).__name__}: {str(exc)[:120]}"),
            )
    return {"data": report}


def counter_for_model(model_path: str | None, template_kwargs=None):
    """The actor's own tokenizer when its folder is on this machine (what verl will use), else the estimate."""
    if isinstance(model_path, str) and os.path.isfile(os.path.join(os.path.expanduser(model_path), "tokenizer.json")):
        try:
            return load_counter(model_path, template_kwargs if isinstance(template_kwargs, dict) else None)
        except TokenizerError:
            pass
    return EstimateCounter()


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # pragma: no cover


def _read_bytes(report: FileReport) -> str:
    if report.format == "parquet":  # only the needed columns are decoded; compressed pages are smaller on disk
        return f"{_size(report.bytes_read)} decoded from a {_size(report.size)} file"
    return f"{_size(report.bytes_read)} of {_size(report.size)}"


def summary_lines(report: FileReport, max_prompt_length: int | None = None) -> list[str]:
    """A few lines for people (the `data` command, the TUI's Data step): what was read and what it holds."""
    if not report.read:
        return [f"{report.path}: {report.status}: {report.note}"]
    total = "?" if report.rows_total is None else f"{'' if report.rows_exact else '~'}{report.rows_total:,}"
    lines = [
        f"{report.path}: {report.format}, {report.kind} data ({report.kind_source}), {total} rows",
        f"  read: {report.where} ({report.rows_read:,} rows, {_read_bytes(report)}, {report.seconds:.2f} s)",
        f"  columns: {', '.join(report.columns) or 'none'}",
    ]
    if report.reward is not None and (report.reward.sources or report.reward.more_sources):
        shown = ", ".join(f"{s} ({n:,})" for s, n in report.reward.sources.most_common(5))
        more = ", ..." if report.reward.more_sources or len(report.reward.sources) > 5 else ""
        lines.append(f"  {report.reward.source_key}: {shown}{more}")
    for name, facts in report.chats.items():
        if not facts.lengths:
            continue
        s = length_summary(facts.lengths)
        line = f"  {name!r} tokens ({report.length_label}): p50 {s['p50']}, p95 {s['p95']}, max {s['max']}"
        if max_prompt_length is not None:
            over = sum(1 for n in facts.lengths if n > max_prompt_length) + facts.length_failures
            line += (
                f"; over max_prompt_length {max_prompt_length}: {over} of {len(facts.lengths) + facts.length_failures}"
            )
        lines.append(line)
    return lines
