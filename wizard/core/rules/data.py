"""Data (DATA-*) and rows per train batch (BATCH-013): training data that verl cannot read, or reads wrongly.

DATA-008 and DATA-010 need only the answers. The others read `ctx.data`, the report of wizard.detect.data
(`inspect_data`), duck-typed here so that core does not import detect: `files` maps each configured
path to a file report with `status` ("read" | "not checked" | "unreadable"), `note`, `kind`, `columns`,
`rows_total`/`rows_exact`/`rows_read`/`complete`, `chats` (column -> facts with `problems`, `rows`,
`unknown_roles`, sorted `lengths`, `length_failures`), `reward` (data_source values, ground-truth
problems), `pairs` (reward-model pairs), `length_label`/`length_exact`. A path the report does not
hold is simply not known, so a fix that changes paths or the prompt column is judged on what was read.
"""

from __future__ import annotations

import bisect
import math

from wizard.core import verl_schema
from wizard.core.findings import Fix, error, info, warning
from wizard.core.paths import home_expanded
from wizard.core.rules.catalogue import why
from wizard.core.rules.roles import CUSTOM_REWARD, is_builtin_source
from wizard.i18n.text import Msg, msg

TRAIN, VAL = "data.train_files", "data.val_files"
PROMPT_KEY = "data.prompt_key"
MAX_LEN = "data.max_prompt_length"
FILTER = "data.filter_overlong_prompts"
TRUNCATION = "data.truncation"
B_KEY = "data.train_batch_size"
MAX_SAMPLES = "data.train_max_samples"
ROLE_HINTS = {
    "human": "user",
    "gpt": "assistant",
    "bot": "assistant",
    "model": "assistant",
    "ai": "assistant",
    "chatgpt": "assistant",
    "function": "tool",
    "observation": "tool",
    "developer": "system",
}


def _paths(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [p for p in (value or []) if isinstance(p, str)]


def _configured(ctx):
    """(key, path) for every train and val path of the answers."""
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        for path in _paths(value):
            yield key, path


def _read(ctx, kinds=("rl", "rm", "sft")):
    """(key, path, report) for every configured path that was read, of one of `kinds`."""
    files = getattr(ctx.data, "files", None) or {}
    if not files:
        return  # nothing was read (cluster mode): skip walking the paths, as every data rule asks
    for key, path in _configured(ctx):
        report = files.get(path)
        if report is not None and report.status == "read" and report.kind in kinds:
            yield key, path, report


def _row(index) -> Msg:
    return msg("data.row_sampled") if index is None else msg("data.row", index=index)


def _total(report) -> str:
    return "?" if report.rows_total is None else f"{'' if report.rows_exact else '~'}{report.rows_total}"


def _count(report, n: int) -> Msg:
    """n rows of those read: of all of them, or of a sample."""
    if report.complete:
        return msg("data.rows_of", n=n, rows=report.rows_read)
    return msg("data.rows_of_sample", n=n, rows=report.rows_read, total=_total(report))


def _columns(columns: list[str]) -> Msg:
    return msg("data.columns", columns=columns[:12]) if columns else msg("data.no_columns")


def _placeholder(key: str) -> str | None:
    """verl's own placeholder for a data key (`~/data/rlhf/gsm8k/train.parquet`), read when the key is not set."""
    value = verl_schema.default(key)
    return value if isinstance(value, str) else None


def check_train_files_set(ctx):
    value = ctx.answers.data.train_files
    placeholder = _placeholder(TRAIN)
    if not _paths(value) or _paths(value) == [placeholder]:
        shown = placeholder if _paths(value) else None
        text = (
            msg("data.train_placeholder", placeholder=placeholder)
            if shown
            else msg("data.train_not_set", placeholder=placeholder)
        )
        yield error("DATA-010", [TRAIN], text, why("DATA-010"), [])


def check_tilde_paths(ctx):
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        paths = _paths(value)
        for i, path in enumerate(paths):
            if not path.startswith("~") or (key == TRAIN and paths == [_placeholder(TRAIN)]):
                continue  # verl's placeholder is DATA-010's: expanding ~ would not make it real data
            expanded = home_expanded(ctx, path)
            fixes = []
            if expanded != path:
                new = expanded if isinstance(value, str) else paths[:i] + [expanded] + paths[i + 1 :]
                fixes = [Fix({key: new}, msg("fix.expand_home", path=expanded))]
            yield error("DATA-008", [key], msg("data.tilde_path", key=key, path=path), why("DATA-008"), fixes)


def check_unreadable(ctx):
    files = getattr(ctx.data, "files", None) or {}
    if not files:
        return  # nothing was read (cluster mode): skip walking the paths, as every data rule asks
    for key, path in _configured(ctx):
        report = files.get(path)
        if report is not None and report.status == "unreadable":
            missing = isinstance(report.note, Msg) and report.note.key == "data.read.no_such_file"
            hint = msg("data.cluster_hint") if missing else ""
            yield error(
                "DATA-001",
                [key],
                msg("data.unreadable", key=key, path=path, note=report.note, hint=hint),
                why("DATA-001"),
            )


def info_not_checked(ctx):
    """Local mode only: a path that could not be checked on this machine (remote, or holding a variable)."""
    if ctx.mode != "local":
        return
    files = getattr(ctx.data, "files", None) or {}
    skipped = [
        (key, path, files[path].note)
        for key, path in _configured(ctx)
        if path in files and files[path].status == "not checked"
    ]
    if skipped:
        keys = list(dict.fromkeys(key for key, _, _ in skipped))
        listed = [msg("data.not_checked_file", path=path, reason=_reason(note)) for _, path, note in skipped[:4]]
        yield info("DATA-009", keys, msg("data.not_checked", files=listed), why("DATA-009"))


def _reason(note):
    """Why a file was not checked, without the "not checked here" the note starts with."""
    return note.args.get("reason", note) if isinstance(note, Msg) and note.key == "data.note.not_checked" else note


def check_prompt_column(ctx):
    prompt_key = ctx.answers.data.prompt_key
    for key, path, report in _read(ctx, ("rl",)):
        if prompt_key in report.columns:
            continue
        fixes, closest, looks_like = [], "", ""
        for name, facts in report.chats.items():
            if name == prompt_key:
                continue
            if facts.rows and facts.good == facts.rows:
                fixes.append(Fix({PROMPT_KEY: name}, msg("data.fix.prompt_column", column=name)))
            elif not closest:
                closest = msg("data.closest_not_chat", column=name)
        if "messages" in report.columns:
            looks_like = msg("data.looks_like_sft")
        elif {"chosen", "rejected"} <= set(report.columns):
            looks_like = msg("data.looks_like_pairs")
        yield error(
            "DATA-002",
            [PROMPT_KEY, key],
            msg(
                "data.no_prompt_column",
                path=path,
                column=prompt_key,
                columns=_columns(report.columns),
                closest=closest,
                looks_like=looks_like,
            ),
            why("DATA-002"),
            fixes,
        )


CHAT_PROBLEMS = {  # problem -> (what is wrong, what to do)
    "plain_string": (msg("data.chat.plain_string"), msg("data.advice.plain_string")),
    "missing": (msg("data.chat.missing"), msg("data.advice.missing")),
    "not_list": (msg("data.chat.not_list"), msg("data.advice.not_list")),
    "empty_list": (msg("data.chat.empty_list"), msg("data.advice.empty_list")),
    "bad_message": (msg("data.chat.bad_message"), msg("data.advice.bad_message")),
    "sharegpt": (msg("data.chat.sharegpt"), msg("data.advice.sharegpt")),
    "empty_content": (msg("data.chat.empty_content"), msg("data.advice.empty_content")),
    "no_user": (msg("data.chat.no_user"), msg("data.advice.no_user")),
    "no_assistant": (msg("data.chat.no_assistant"), msg("data.advice.no_assistant")),
}


def _chat_findings(rule_id, paths, path, column, facts, report):
    for problem, (what, advice) in CHAT_PROBLEMS.items():
        n = facts.problems[problem]
        if not n:
            continue
        first = _row(facts.problems.first.get(problem))
        yield error(
            rule_id,
            paths,
            msg(
                "data.chat_problem",
                path=path,
                column=column,
                what=what,
                count=_count(report, n),
                first=first,
                advice=advice,
            ),
            why(rule_id),
        )
    if facts.unknown_roles:
        roles = [
            msg("data.role_hint", role=r, hint=ROLE_HINTS[r]) if r in ROLE_HINTS else repr(r)
            for r, _ in facts.unknown_roles.most_common(4)
        ]
        n = facts.problems["unknown_role"]
        first = _row(facts.problems.first.get("unknown_role"))
        yield error(
            rule_id,
            paths,
            msg(
                "data.chat_problem",
                path=path,
                column=column,
                what=msg("data.chat.unknown_roles", roles=roles),
                count=_count(report, n),
                first=first,
                advice=msg("data.advice.unknown_roles"),
            ),
            why(rule_id),
        )


def check_prompt_shape(ctx):
    prompt_key = ctx.answers.data.prompt_key
    for key, path, report in _read(ctx, ("rl",)):
        facts = report.chats.get(prompt_key)
        if facts is not None and prompt_key in report.columns:
            yield from _chat_findings("DATA-003", [PROMPT_KEY, key], path, prompt_key, facts, report)


def _reward_from_model_or_elsewhere(m) -> bool:
    return m.reward_model_enable or m.reward_manager == "remote"


def check_ground_truth(ctx):
    m = ctx.answers.models
    if _reward_from_model_or_elsewhere(m):
        return
    for key, path, report in _read(ctx, ("rl",)):
        reward = report.reward
        if reward is None:
            continue
        n = reward.problems["no_reward_model"] + reward.problems["no_ground_truth"]
        if not n:
            continue
        first = _row(
            min(
                (
                    reward.problems.first.get(p)
                    for p in ("no_reward_model", "no_ground_truth")
                    if reward.problems.first.get(p) is not None
                ),
                default=None,
            )
        )
        what = msg("data.no_reward_model_column" if "reward_model" not in report.columns else "data.no_ground_truth")
        scorer = msg("data.scorer.custom" if m.custom_reward_path else "data.scorer.builtin")
        yield error(
            "DATA-004",
            [key],
            msg("data.ground_truth", path=path, what=what, count=_count(report, n), first=first, scorer=scorer),
            why("DATA-004"),
        )


def check_data_sources(ctx):
    """ROLE-005 from the rows themselves: data_source values that no built-in scorer knows."""
    m = ctx.answers.models
    if _reward_from_model_or_elsewhere(m) or m.custom_reward_path:
        return
    if m.data_source is not None and not is_builtin_source(m.data_source):
        return  # the roles rule already reports the answer's data_source
    for key, path, report in _read(ctx, ("rl",)):
        reward = report.reward
        if reward is None:
            continue
        unknown = [s for s in reward.sources if not is_builtin_source(s)]
        blank = reward.problems["no_source"]
        if not unknown and not blank:
            continue
        parts = []
        if unknown:
            shown = ", ".join(repr(s) for s in unknown[:3]) + (" ..." if len(unknown) > 3 else "")
            count = _count(report, sum(reward.sources[s] for s in unknown))
            parts.append(msg("data.sources_in", key=reward.source_key, values=shown, count=count))
        if blank:
            parts.append(msg("data.no_source_in", key=reward.source_key, count=_count(report, blank)))
        yield error(
            "ROLE-005",
            [CUSTOM_REWARD, key],
            msg("data.unknown_sources", path=path, parts=parts),
            why("ROLE-005"),
        )


def _over(facts, limit: int) -> int:
    """Rows longer than `limit` tokens, plus rows the chat template refused (verl counts those as too long)."""
    return len(facts.lengths) - bisect.bisect_right(facts.lengths, limit) + facts.length_failures


def _pct(values: list[int], q: int) -> int:
    """Nearest-rank percentile of sorted, non-empty values."""
    return values[min(len(values), max(1, math.ceil(len(values) * q / 100))) - 1]


def _measured(facts) -> int:
    return len(facts.lengths) + facts.length_failures


def hint_prompt_lengths(ctx):
    d = ctx.answers.data
    for key, path, report in _read(ctx, ("rl",)):
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
            sampled="" if report.complete else msg("data.prompts_sampled", total=_total(report)),
            stride=msg("data.prompts_stride", stride=stride) if stride > 1 else "",
        )
        refused = (
            msg("data.prompts_refused", n=facts.length_failures, error=facts.length_failure)
            if facts.length_failures
            else ""
        )
        if d.filter_overlong_prompts:
            left = ""
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
    paths = _paths(d.train_files)
    files = getattr(ctx.data, "files", None) or {}
    reports = [files.get(p) for p in paths]
    if not paths or any(r is None or r.status != "read" or r.rows_total is None for r in reports):
        return None
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


def check_rows_per_batch(ctx):
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
    yield error(
        "BATCH-013",
        [B_KEY, TRAIN],
        msg("data.rows_per_batch", rows=rows, how=how, B=B),
        why("BATCH-013"),
        fixes,
    )


PAIR_PROBLEMS = {
    "no_prompt": msg("data.pair.no_prompt"),
    "no_chosen": msg("data.pair.no_chosen"),
    "no_rejected": msg("data.pair.no_rejected"),
    "empty_prompt": msg("data.pair.empty_prompt"),
    "empty_chosen": msg("data.pair.empty_chosen"),
    "empty_rejected": msg("data.pair.empty_rejected"),
}


def check_pairs(ctx):
    for key, path, report in _read(ctx, ("rm",)):
        missing = [c for c in ("prompt", "chosen", "rejected") if c not in report.columns]
        if missing:
            yield error(
                "DATA-006",
                [key],
                msg("data.pairs_columns", path=path, missing=missing, columns=report.columns[:12]),
                why("DATA-006"),
            )
            continue
        pairs = report.pairs
        for problem, text in PAIR_PROBLEMS.items():
            if pairs.problems[problem]:
                yield error(
                    "DATA-006",
                    [key],
                    msg(
                        "data.pair_problem",
                        path=path,
                        what=text,
                        count=_count(report, pairs.problems[problem]),
                        first=_row(pairs.problems.first.get(problem)),
                    ),
                    why("DATA-006"),
                )
        if pairs.problems["identical"]:
            yield warning(
                "DATA-006",
                [key],
                msg(
                    "data.pairs_identical",
                    path=path,
                    count=_count(report, pairs.problems["identical"]),
                    first=_row(pairs.problems.first.get("identical")),
                ),
                why("DATA-006"),
            )


def check_messages(ctx):
    for key, path, report in _read(ctx, ("sft",)):
        column = getattr(report, "messages_key", "messages")
        facts = report.chats.get(column)
        if column not in report.columns or facts is None:
            close = [c for c in report.chats if c != column]
            closest = msg("data.closest_column", column=close[0]) if close else ""
            yield error(
                "DATA-007",
                [key],
                msg(
                    "data.no_messages_column",
                    path=path,
                    column=column,
                    columns=_columns(report.columns),
                    closest=closest,
                ),
                why("DATA-007"),
            )
            continue
        yield from _chat_findings("DATA-007", [key], path, column, facts, report)


FAMILIES = ("DATA", "BATCH", "ROLE")  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [
    check_train_files_set,
    check_tilde_paths,
    check_unreadable,
    info_not_checked,
    check_prompt_column,
    check_prompt_shape,
    check_ground_truth,
    check_data_sources,
    hint_prompt_lengths,
    check_rows_per_batch,
    check_pairs,
    check_messages,
]
