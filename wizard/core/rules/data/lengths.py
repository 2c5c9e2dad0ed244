"""How much data (DATA-005, BATCH-013): prompts longer than data.max_prompt_length, and fewer rows (after
subsampling and filtering) than one train batch. Reads `ctx.data` as wizard.core.rules.data.columns describes."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity, info, warning
from wizard.core.rule_context import RuleContext
from wizard.core.rules.data.columns import (
    B_KEY,
    FILTER,
    MAX_LEN,
    MAX_SAMPLES,
    TRAIN,
    paths_of,
    read_reports,
    rows_total_text,
)
from wizard.core.rules.declare import make_finding, rule, why
from wizard.i18n.text import Msg, msg


def _over(facts, limit: int) -> int:
    """Rows longer than `limit` tokens, plus rows the chat template refused (verl counts those as too long)."""
    return len(facts.lengths) - bisect.bisect_right(facts.lengths, limit) + facts.length_failures


def _pct(values: list[int], q: int) -> int:
    """Nearest-rank percentile of sorted, non-empty values."""
    return values[min(len(values), max(1, math.ceil(len(values) * q / 100))) - 1]


def _measured(facts) -> int:
    return len(facts.lengths) + facts.length_failures


@rule(
    "DATA-005",
    Severity.WARNING,
    title="Prompts longer than max_prompt_length",
    why="With filter_overlong_prompts verl drops over-long prompts when it loads the data (fewer rows, maybe none); without it verl 0.9 cuts them to max_prompt_length tokens, so the model sees prompts missing part of their text.",
)
def hint_prompt_lengths(ctx: RuleContext) -> Iterator[Finding]:
    d = ctx.answers.data
    for key, path, report in read_reports(ctx, ("rl",)):
        facts = report.chats.get(d.prompt_key)
        if facts is None or not _measured(facts):
            continue
        over = _over(facts, d.max_prompt_length)
        if not over:
            continue
        dist = (
            msg("data.lengths", p50=_pct(facts.lengths, 50), p95=_pct(facts.lengths, 95), max=facts.lengths[-1])
            if facts.lengths
            else msg("data.lengths_none")
        )
        how = report.length_label or msg("data.length.unlabelled")
        share = over / _measured(facts)
        stride = getattr(facts, "length_stride", 1)
        counted = msg(
            "data.prompts_counted",
            over=over,
            measured=_measured(facts),
            sampled="" if report.complete else msg("data.prompts_sampled", total=rows_total_text(report)),
            stride=msg("data.prompts_stride", stride=stride) if stride > 1 else "",
        )
        refused = (
            msg("data.prompts_refused", n=facts.length_failures, error=facts.length_failure)
            if facts.length_failures
            else ""
        )
        if d.filter_overlong_prompts:
            left: str | Msg = ""
            if not report.complete and report.rows_total:
                left = msg("data.rows_left", left=round(report.rows_total * share), total=report.rows_total)
            message = msg(
                "data.long_prompts_dropped",
                path=path,
                counted=counted,
                limit=d.max_prompt_length,
                refused=refused,
                dist=dist,
                how=how,
                left=left,
            )
            make = warning if share >= 0.1 else info
        else:
            message = msg(
                "data.long_prompts_cut",
                path=path,
                counted=counted,
                limit=d.max_prompt_length,
                refused=refused,
                dist=dist,
                how=how,
                truncation=d.truncation,
            )
            make = warning
        fixes = []
        if not d.filter_overlong_prompts:
            fixes.append(Fix({FILTER: True}, msg("data.fix.filter_prompts", n=over)))
        if facts.lengths and facts.lengths[-1] > d.max_prompt_length and not facts.length_failures:
            new = 64 * math.ceil(facts.lengths[-1] / 64)
            fixes.append(Fix({MAX_LEN: new}, msg("data.fix.max_prompt_length", value=new, longest=facts.lengths[-1])))
        yield make("DATA-005", [MAX_LEN, FILTER, key], message, why("DATA-005"), fixes)


def _train_rows(ctx):
    """(rows left after subsampling and filtering, how they were counted) over all train files; None if unknown."""
    d = ctx.answers.data
    paths = paths_of(d.train_files)
    files = getattr(ctx.data, "files", None) or {}
    given = [files.get(p) for p in paths]
    if not paths or any(r is None or r.status != "read" or r.rows_total is None for r in given):
        return None
    reports = [r for r in given if r is not None]  # all of them, as the test above says
    rows = sum(r.rows_total for r in reports)
    exact = all(r.rows_exact for r in reports)
    max_samples = ctx.answers.extra.get(MAX_SAMPLES)
    if isinstance(max_samples, int) and 0 < max_samples < rows:
        rows, exact = max_samples, True
    how = msg("data.rows.exact") if exact else msg("data.rows.estimated")
    if d.filter_overlong_prompts:
        kept = 0.0
        for r in reports:
            facts = r.chats.get(d.prompt_key)
            if facts is None or not _measured(facts) or not r.length_exact:
                return rows, how, False
            kept += r.rows_total * (1 - _over(facts, d.max_prompt_length) / _measured(facts))
        scale = rows / sum(r.rows_total for r in reports) if sum(r.rows_total for r in reports) else 0
        sampled = not all(r.complete and getattr(r.chats.get(d.prompt_key), "length_stride", 1) == 1 for r in reports)
        rows = round(kept * scale)
        how = msg("data.rows.filtered_projected" if sampled else "data.rows.filtered")
        return rows, how, True
    return rows, how, False


@rule(
    "BATCH-013",
    Severity.ERROR,
    title="Fewer rows than one train batch",
    why="verl's dataloader drops the last incomplete batch, so steps per epoch = rows // train_batch_size: with fewer rows (after filter_overlong_prompts) nothing is trained.",
)
def check_rows_per_batch(ctx: RuleContext) -> Iterator[Finding]:
    counted = _train_rows(ctx)
    if counted is None:
        return
    rows, how, filtered = counted
    B = ctx.answers.batch.train_batch_size
    if rows >= B:
        return
    fixes = []
    if rows > 0:
        candidates = [2 ** int(math.log2(rows))]
        n_gpus = ctx.plan.n_gpus
        if n_gpus and rows >= n_gpus:
            candidates.append(rows // n_gpus * n_gpus)
        for value in dict.fromkeys(sorted(candidates, reverse=True)):
            fixes.append(Fix({B_KEY: value}, msg("fix.set", key="train_batch_size", value=value)))
    if filtered:
        fixes.append(Fix({FILTER: False}, msg("data.fix.keep_long_prompts")))
    yield make_finding("BATCH-013", [B_KEY, TRAIN], msg("data.rows_per_batch", rows=rows, how=how, B=B), fixes)
