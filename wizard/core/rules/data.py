"""Data (DATA-*) and rows per train batch (BATCH-013): training data that verl cannot read, or reads wrongly.

DATA-008 needs only the answers. The others read `ctx.data`, the report of wizard.detect.data
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

from wizard.core.findings import Fix, error, info, warning
from wizard.core.paths import home_expanded
from wizard.core.rules.catalogue import why
from wizard.core.rules.roles import CUSTOM_REWARD, is_builtin_source

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


def _row(index) -> str:
    return "a sampled row" if index is None else f"row {index}"


def _total(report) -> str:
    return "?" if report.rows_total is None else f"{'' if report.rows_exact else '~'}{report.rows_total}"


def _scope(report) -> str:
    """Which rows the numbers are about, after "in N of": all of them, or a sample."""
    if report.complete:
        return f"{report.rows_read} rows"
    return f"{report.rows_read} rows sampled from {_total(report)}"


def check_tilde_paths(ctx):
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        paths = _paths(value)
        for i, path in enumerate(paths):
            if not path.startswith("~"):
                continue
            expanded = home_expanded(ctx, path)
            fixes = []
            if expanded != path:
                new = expanded if isinstance(value, str) else paths[:i] + [expanded] + paths[i + 1 :]
                fixes = [Fix({key: new}, f"use {expanded} (this machine's home; check it is the same on the cluster)")]
            yield error(
                "DATA-008", [key], f"{key}: {path!r} starts with ~, which verl does not expand", why("DATA-008"), fixes
            )


def check_unreadable(ctx):
    files = getattr(ctx.data, "files", None) or {}
    if not files:
        return  # nothing was read (cluster mode): skip walking the paths, as every data rule asks
    for key, path in _configured(ctx):
        report = files.get(path)
        if report is not None and report.status == "unreadable":
            hint = " (use --mode cluster if the file lives on the cluster)" if "no such file" in report.note else ""
            yield error("DATA-001", [key], f"{key}: {path}: {report.note}{hint}", why("DATA-001"))


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
        listed = "; ".join(f"{path} ({note.replace('not checked here: ', '')})" for _, path, note in skipped[:4])
        yield info("DATA-009", keys, f"data files not checked here: {listed}", why("DATA-009"))


def check_prompt_column(ctx):
    prompt_key = ctx.answers.data.prompt_key
    for key, path, report in _read(ctx, ("rl",)):
        if prompt_key in report.columns:
            continue
        fixes, hint = [], ""
        for name, facts in report.chats.items():
            if name == prompt_key:
                continue
            if facts.rows and facts.good == facts.rows:
                fixes.append(Fix({PROMPT_KEY: name}, f"read prompts from column {name!r}"))
            elif not hint:
                hint = f"; the closest column {name!r} is not a chat list (convert it with `verl-wizard data convert`)"
        if "messages" in report.columns:
            hint += "; this looks like SFT data (a messages column), which main_ppo does not read"
        elif {"chosen", "rejected"} <= set(report.columns):
            hint += "; this looks like reward-model pairs (chosen/rejected), which main_ppo does not read"
        columns = ", ".join(report.columns[:12]) or "none"
        yield error(
            "DATA-002",
            [PROMPT_KEY, key],
            f"{path}: no column {prompt_key!r} (data.prompt_key); its columns are {columns}{hint}",
            why("DATA-002"),
            fixes,
        )


CHAT_PROBLEMS = {  # problem -> (what is wrong, what to do)
    "plain_string": (
        "is a plain string, not a chat list",
        "verl's chat template would walk it one character at a time; "
        "write [{'role': 'user', 'content': ...}] (`verl-wizard data convert` does it)",
    ),
    "missing": ("is empty (null)", "every row needs its messages"),
    "not_list": ("is neither a chat list nor a string", "write [{'role': 'user', 'content': ...}]"),
    "empty_list": ("is an empty list", "every row needs at least a user message"),
    "bad_message": ("holds items that are not {role, content} messages", "each message needs a role and a content"),
    "sharegpt": (
        "holds ShareGPT-style {from, value} messages",
        "rename them to {role, content} (human -> user, gpt -> assistant)",
    ),
    "empty_content": ("has a user or assistant message with empty content", "fill or drop those rows"),
    "no_user": ("has no user message", "chat templates expect at least one user turn"),
    "no_assistant": (
        "has no assistant message",
        "SFT learns from the assistant turns; without one a row teaches nothing",
    ),
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
            f"{path}: {column!r} {what} in {n} of {_scope(report)} (first: {first}); {advice}",
            why(rule_id),
        )
    if facts.unknown_roles:
        roles = ", ".join(
            f"{r!r}" + (f" (did you mean {ROLE_HINTS[r]!r}?)" if r in ROLE_HINTS else "")
            for r, _ in facts.unknown_roles.most_common(4)
        )
        n = facts.problems["unknown_role"]
        first = _row(facts.problems.first.get("unknown_role"))
        yield error(
            rule_id,
            paths,
            f"{path}: {column!r} uses unknown role {roles} in {n} of {_scope(report)} (first: {first}); "
            "chat templates know system, user, assistant and tool",
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
        what = "no reward_model column" if "reward_model" not in report.columns else "no reward_model.ground_truth"
        scorer = "your custom reward function" if m.custom_reward_path else "the built-in scorer"
        yield error(
            "DATA-004",
            [key],
            f"{path}: {what} in {n} of {_scope(report)} (first: {first}); {scorer} is called with "
            "reward_model.ground_truth of every row and fails without it",
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
            parts.append(
                f"{reward.source_key} {shown} in {sum(reward.sources[s] for s in unknown)} of {_scope(report)}"
            )
        if blank:
            parts.append(f"no {reward.source_key} in {blank} of {_scope(report)}")
        yield error(
            "ROLE-005",
            [CUSTOM_REWARD, key],
            f"{path}: {' and '.join(parts)}: no built-in scorer knows it, and there is no reward model or "
            "custom reward function (set reward.custom_reward_function.path)",
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
            f"p50 {_pct(facts.lengths, 50)}, p95 {_pct(facts.lengths, 95)}, max {facts.lengths[-1]}"
            if facts.lengths
            else "none measured"
        )
        how = report.length_label or "estimate"
        share = over / _measured(facts)
        counted = f"{over} of {_measured(facts)} prompts" + (
            "" if report.complete else f" (sampled from {_total(report)} rows)"
        )
        if getattr(facts, "length_stride", 1) > 1:
            counted += f" (every {facts.length_stride}th prompt measured)"
        failures = (
            f" ({facts.length_failures} refused by the chat template: {facts.length_failure})"
            if facts.length_failures
            else ""
        )
        if d.filter_overlong_prompts:
            left = ""
            if not report.complete and report.rows_total:
                left = f", about {round(report.rows_total * share)} of {report.rows_total} rows in the file"
            message = (
                f"{path}: {counted} are longer than max_prompt_length {d.max_prompt_length}{failures} "
                f"({dist}; {how}); filter_overlong_prompts drops them{left}"
            )
            make = warning if share >= 0.1 else info
        else:
            message = (
                f"{path}: {counted} are longer than max_prompt_length {d.max_prompt_length}{failures} ({dist}; {how}); "
                f"with filter_overlong_prompts=false verl 0.9 truncates them (truncation={d.truncation}; its agent loop "
                "keeps the last tokens with a warning), so the model sees cut prompts"
            )
            make = warning
        fixes = []
        if not d.filter_overlong_prompts:
            fixes.append(Fix({FILTER: True}, f"drop the {over} over-long prompts when loading"))
        if facts.lengths and facts.lengths[-1] > d.max_prompt_length and not facts.length_failures:
            new = 64 * math.ceil(facts.lengths[-1] / 64)
            fixes.append(
                Fix({MAX_LEN: new}, f"max_prompt_length {new} (the longest prompt read is {facts.lengths[-1]} tokens)")
            )
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
    how = "rows" if exact else "rows (estimated from the bytes read)"
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
        how = f"rows left after filter_overlong_prompts{' (projected from a sample)' if sampled else ''}"
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
            fixes.append(Fix({B_KEY: value}, f"train_batch_size {value}"))
    if filtered:
        fixes.append(Fix({FILTER: False}, "keep over-long prompts (verl truncates them instead)"))
    yield error(
        "BATCH-013",
        [B_KEY, TRAIN],
        f"the training data has {rows} {how} but train_batch_size is {B}: {rows} // {B} = 0 training steps per epoch",
        why("BATCH-013"),
        fixes,
    )


PAIR_PROBLEMS = {
    "no_prompt": "no prompt",
    "no_chosen": "no chosen response",
    "no_rejected": "no rejected response",
    "empty_prompt": "an empty prompt",
    "empty_chosen": "an empty chosen response",
    "empty_rejected": "an empty rejected response",
}


def check_pairs(ctx):
    for key, path, report in _read(ctx, ("rm",)):
        missing = [c for c in ("prompt", "chosen", "rejected") if c not in report.columns]
        if missing:
            yield error(
                "DATA-006",
                [key],
                f"{path}: reward-model pairs need prompt, chosen and rejected columns; missing "
                f"{', '.join(missing)} (columns: {', '.join(report.columns[:12])})",
                why("DATA-006"),
            )
            continue
        pairs = report.pairs
        for problem, text in PAIR_PROBLEMS.items():
            if pairs.problems[problem]:
                yield error(
                    "DATA-006",
                    [key],
                    f"{path}: {text} in {pairs.problems[problem]} of {_scope(report)} "
                    f"(first: {_row(pairs.problems.first.get(problem))})",
                    why("DATA-006"),
                )
        if pairs.problems["identical"]:
            yield warning(
                "DATA-006",
                [key],
                f"{path}: chosen equals rejected in {pairs.problems['identical']} of {_scope(report)} "
                f"(first: {_row(pairs.problems.first.get('identical'))}): no preference to learn",
                why("DATA-006"),
            )


def check_messages(ctx):
    for key, path, report in _read(ctx, ("sft",)):
        column = getattr(report, "messages_key", "messages")
        facts = report.chats.get(column)
        if column not in report.columns or facts is None:
            close = [c for c in report.chats if c != column]
            hint = f"; the closest column is {close[0]!r}" if close else ""
            yield error(
                "DATA-007",
                [key],
                f"{path}: SFT data needs a {column!r} column with a chat list of user and assistant "
                f"turns; its columns are {', '.join(report.columns[:12]) or 'none'}{hint}",
                why("DATA-007"),
            )
            continue
        yield from _chat_findings("DATA-007", [key], path, column, facts, report)


FAMILIES = ("DATA", "BATCH", "ROLE")  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [
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
