"""Data (DATA-*, ROLE-005): training data that verl cannot find, or whose columns it cannot use.

The rows' content (chat shape, reward-model pairs, SFT messages) is judged in data_chats, the prompts'
lengths and the rows per train batch (BATCH-013) in data_lengths; the helpers that read the report live here.

DATA-008 and DATA-010 need only the answers (as do DATA-011..013, in data_paths). The others read
`ctx.data`, the report of wizard.detect.data.report (`inspect_data`), duck-typed here so that core does not import
detect: `files` maps each configured path to a file report with `status` ("read" | "not checked" |
"unreadable"), `note`, `kind`, `columns`, `rows_total`/`rows_exact`/`rows_read`/`complete`, `chats` (column ->
facts with `problems`, `rows`, `unknown_roles`, sorted `lengths`, `length_failures`), `reward` (data_source
values, ground-truth problems), `pairs` (reward-model pairs), `length_label`/`length_exact`. A path the report
does not hold is simply not known, so a fix that changes paths or the prompt column is judged on what was read.
"""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core import verl_schema
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.paths import home_expanded
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule, rule_for
from wizard.core.rules.roles.assign import CUSTOM_REWARD, is_builtin_source
from wizard.i18n.text import Msg, msg

TRAIN, VAL = "data.train_files", "data.val_files"
PROMPT_KEY = "data.prompt_key"
MAX_LEN = "data.max_prompt_length"
FILTER = "data.filter_overlong_prompts"
TRUNCATION = "data.truncation"
B_KEY = "data.train_batch_size"
MAX_SAMPLES = "data.train_max_samples"


def paths_of(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [p for p in (value or []) if isinstance(p, str)]


def _configured(ctx):
    """(key, path) for every train and val path of the answers."""
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        for path in paths_of(value):
            yield key, path


def read_reports(ctx, kinds=("rl", "rm", "sft")):
    """(key, path, report) for every configured path that was read, of one of `kinds`."""
    files = getattr(ctx.data, "files", None) or {}
    if not files:
        return  # nothing was read (cluster mode): skip walking the paths, as every data rule asks
    for key, path in _configured(ctx):
        report = files.get(path)
        if report is not None and report.status == "read" and report.kind in kinds:
            yield key, path, report


def row_text(index) -> Msg:
    return msg("data.row_sampled") if index is None else msg("data.row", index=index)


def rows_total_text(report) -> str:
    return "?" if report.rows_total is None else f"{'' if report.rows_exact else '~'}{report.rows_total}"


def rows_count(report, n: int) -> Msg:
    """n rows of those read: of all of them, or of a sample."""
    if report.complete:
        return msg("data.rows_of", n=n, rows=report.rows_read)
    return msg("data.rows_of_sample", n=n, rows=report.rows_read, total=rows_total_text(report))


def columns_text(columns: list[str]) -> Msg:
    return msg("data.columns", columns=columns[:12]) if columns else msg("data.no_columns")


def placeholder(key: str) -> str | None:
    """verl's own placeholder for a data key (`~/data/rlhf/gsm8k/train.parquet`), read when the key is not set."""
    value = verl_schema.default(key)
    return value if isinstance(value, str) else None


@rule(
    "DATA-010",
    Severity.ERROR,
    title="No training data set (data.train_files empty or verl's placeholder)",
    why="Without data.train_files verl reads its own placeholder ~/data/rlhf/gsm8k/train.parquet, which is not your data and usually does not exist, so the run stops when the dataset is built, after the workers have started.",
)
def check_train_files_set(ctx: RuleContext) -> Iterator[Finding]:
    value = ctx.answers.data.train_files
    default = placeholder(TRAIN)
    if not paths_of(value) or paths_of(value) == [default]:
        shown = default if paths_of(value) else None
        text = (
            msg("data.train_placeholder", placeholder=default)
            if shown
            else msg("data.train_not_set", placeholder=default)
        )
        yield make_finding("DATA-010", [TRAIN], text, [])


@rule(
    "DATA-008",
    Severity.ERROR,
    title="A data path starting with ~",
    why="verl does not expand ~: the path is resolved against the working directory and the file is not found.",
)
def check_tilde_paths(ctx: RuleContext) -> Iterator[Finding]:
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        paths = paths_of(value)
        for i, path in enumerate(paths):
            if not path.startswith("~") or paths == [placeholder(key)]:
                continue  # verl's placeholders are DATA-010's and DATA-011's: expanding ~ would not make them data
            expanded = home_expanded(ctx, path)
            fixes = []
            if expanded != path:
                new = expanded if isinstance(value, str) else paths[:i] + [expanded] + paths[i + 1 :]
                fixes = [Fix({key: new}, msg("fix.expand_home", path=expanded))]
            yield make_finding("DATA-008", [key], msg("data.tilde_path", key=key, path=path), fixes)


@rule(
    "DATA-001",
    Severity.ERROR,
    title="A data file is missing, unreadable, or not parquet/json/jsonl",
    why="verl picks its reader by the file name (.parquet, .json, .jsonl) and stops with 'Unsupported file format' for others; a missing, truncated or non-UTF-8 file fails when the dataset is built, after the workers have started.",
)
def check_unreadable(ctx: RuleContext) -> Iterator[Finding]:
    files = getattr(ctx.data, "files", None) or {}
    if not files:
        return  # nothing was read (cluster mode): skip walking the paths, as every data rule asks
    for key, path in _configured(ctx):
        report = files.get(path)
        if report is not None and report.status == "unreadable":
            missing = isinstance(report.note, Msg) and report.note.key == "data.read.no_such_file"
            hint = msg("data.cluster_hint") if missing else ""
            yield make_finding(
                "DATA-001", [key], msg("data.unreadable", key=key, path=path, note=report.note, hint=hint)
            )


@rule(
    "DATA-009",
    Severity.INFO,
    title="A data file that was not checked here",
    why="Remote paths (hdfs://, s3://, ...) and paths holding a shell variable are read on the machines that run verl; run `verl-wizard data` where the files are to check them.",
)
def info_not_checked(ctx: RuleContext) -> Iterator[Finding]:
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
        yield make_finding("DATA-009", keys, msg("data.not_checked", files=listed))


def _reason(note):
    """Why a file was not checked, without the "not checked here" the note starts with."""
    return note.args.get("reason", note) if isinstance(note, Msg) and note.key == "data.note.not_checked" else note


@rule(
    "DATA-002",
    Severity.ERROR,
    title="The prompt column (data.prompt_key) is missing",
    why="verl reads each prompt from the column named by data.prompt_key and stops with KeyError when the rows have no such column.",
)
def check_prompt_column(ctx: RuleContext) -> Iterator[Finding]:
    prompt_key = ctx.answers.data.prompt_key
    for key, path, report in read_reports(ctx, ("rl",)):
        if prompt_key in report.columns:
            continue
        fixes: list[Fix] = []
        closest: str | Msg = ""
        looks_like: str | Msg = ""
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
        yield make_finding(
            "DATA-002",
            [PROMPT_KEY, key],
            msg(
                "data.no_prompt_column",
                path=path,
                column=prompt_key,
                columns=columns_text(report.columns),
                closest=closest,
                looks_like=looks_like,
            ),
            fixes,
        )


def _reward_from_model_or_elsewhere(m) -> bool:
    return m.reward_model_enable or m.reward_manager == "remote"


@rule(
    "DATA-004",
    Severity.ERROR,
    title="No reward_model.ground_truth for a rule-based reward",
    why="The reward manager passes reward_model.ground_truth of every row to the scoring function; a row without it fails with KeyError in the middle of training.",
)
def check_ground_truth(ctx: RuleContext) -> Iterator[Finding]:
    m = ctx.answers.models
    if _reward_from_model_or_elsewhere(m):
        return
    for key, path, report in read_reports(ctx, ("rl",)):
        reward = report.reward
        if reward is None:
            continue
        n = reward.problems["no_reward_model"] + reward.problems["no_ground_truth"]
        if not n:
            continue
        first = row_text(
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
        yield make_finding(
            "DATA-004",
            [key],
            msg("data.ground_truth", path=path, what=what, count=rows_count(report, n), first=first, scorer=scorer),
        )


@rule_for("ROLE-005")
def check_data_sources(ctx: RuleContext) -> Iterator[Finding]:
    """ROLE-005 from the rows themselves: data_source values that no built-in scorer knows."""
    m = ctx.answers.models
    if _reward_from_model_or_elsewhere(m) or m.custom_reward_path:
        return
    if m.data_source is not None and not is_builtin_source(m.data_source):
        return  # the roles rule already reports the answer's data_source
    for key, path, report in read_reports(ctx, ("rl",)):
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
            count = rows_count(report, sum(reward.sources[s] for s in unknown))
            parts.append(msg("data.sources_in", key=reward.source_key, values=shown, count=count))
        if blank:
            parts.append(msg("data.no_source_in", key=reward.source_key, count=rows_count(report, blank)))
        yield make_finding("ROLE-005", [CUSTOM_REWARD, key], msg("data.unknown_sources", path=path, parts=parts))
