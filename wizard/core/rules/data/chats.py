"""The rows' content (DATA-003, DATA-006, DATA-007): prompts that are not chats, reward-model pairs with a side
missing or empty, SFT rows without usable messages. Reads `ctx.data` as wizard.core.rules.data.columns describes."""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Severity, warning
from wizard.core.rule_context import RuleContext
from wizard.core.rules.data.columns import PROMPT_KEY, columns_text, read_reports, row_text, rows_count
from wizard.core.rules.declare import make_finding, rule, why
from wizard.i18n.text import msg

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
    def problem(name: str, what, advice):
        """One finding for the rows with this problem: how many, the first of them, what to do."""
        return make_finding(
            rule_id,
            paths,
            msg(
                "data.chat_problem",
                path=path,
                column=column,
                what=what,
                count=rows_count(report, facts.problems[name]),
                first=row_text(facts.problems.first.get(name)),
                advice=advice,
            ),
        )

    for name, (what, advice) in CHAT_PROBLEMS.items():
        if facts.problems[name]:
            yield problem(name, what, advice)
    if facts.unknown_roles:
        roles = [
            msg("data.role_hint", role=r, hint=ROLE_HINTS[r]) if r in ROLE_HINTS else repr(r)
            for r, _ in facts.unknown_roles.most_common(4)
        ]
        yield problem("unknown_role", msg("data.chat.unknown_roles", roles=roles), msg("data.advice.unknown_roles"))


@rule(
    "DATA-003",
    Severity.ERROR,
    title="Prompts are not chat lists of {role, content}",
    why="The prompt must be a list of {role, content} messages. verl does not reject a plain string: the chat template walks it one character at a time and the model trains on garbage; bad roles, missing users or empty contents break or mislead the template.",
)
def check_prompt_shape(ctx: RuleContext) -> Iterator[Finding]:
    prompt_key = ctx.answers.data.prompt_key
    for key, path, report in read_reports(ctx, ("rl",)):
        facts = report.chats.get(prompt_key)
        if facts is not None and prompt_key in report.columns:
            yield from _chat_findings("DATA-003", [PROMPT_KEY, key], path, prompt_key, facts, report)


PAIR_PROBLEMS = {
    "no_prompt": msg("data.pair.no_prompt"),
    "no_chosen": msg("data.pair.no_chosen"),
    "no_rejected": msg("data.pair.no_rejected"),
    "empty_prompt": msg("data.pair.empty_prompt"),
    "empty_chosen": msg("data.pair.empty_chosen"),
    "empty_rejected": msg("data.pair.empty_rejected"),
}


@rule(
    "DATA-006",
    Severity.ERROR,
    title="Reward-model pairs without prompt, chosen and rejected",
    why="Pairwise reward-model data needs a prompt, a chosen and a rejected response in every row; a missing or empty side fails or teaches nothing.",
)
def check_pairs(ctx: RuleContext) -> Iterator[Finding]:
    for key, path, report in read_reports(ctx, ("rm",)):
        missing = [c for c in ("prompt", "chosen", "rejected") if c not in report.columns]
        if missing:
            yield make_finding(
                "DATA-006", [key], msg("data.pairs_columns", path=path, missing=missing, columns=report.columns[:12])
            )
            continue
        pairs = report.pairs
        for problem, text in PAIR_PROBLEMS.items():
            if pairs.problems[problem]:
                yield make_finding(
                    "DATA-006",
                    [key],
                    msg(
                        "data.pair_problem",
                        path=path,
                        what=text,
                        count=rows_count(report, pairs.problems[problem]),
                        first=row_text(pairs.problems.first.get(problem)),
                    ),
                )
        if pairs.problems["identical"]:
            yield warning(
                "DATA-006",
                [key],
                msg(
                    "data.pairs_identical",
                    path=path,
                    count=rows_count(report, pairs.problems["identical"]),
                    first=row_text(pairs.problems.first.get("identical")),
                ),
                why("DATA-006"),
            )


@rule(
    "DATA-007",
    Severity.ERROR,
    title="SFT data without a messages list of user and assistant turns",
    why="verl's multi-turn SFT dataset reads a chat list from the messages column and trains on the assistant turns; without one there is nothing to learn or the run stops.",
)
def check_messages(ctx: RuleContext) -> Iterator[Finding]:
    for key, path, report in read_reports(ctx, ("sft",)):
        column = getattr(report, "messages_key", "messages")
        facts = report.chats.get(column)
        if column not in report.columns or facts is None:
            close = [c for c in report.chats if c != column]
            closest = msg("data.closest_column", column=close[0]) if close else ""
            yield make_finding(
                "DATA-007",
                [key],
                msg(
                    "data.no_messages_column",
                    path=path,
                    column=column,
                    columns=columns_text(report.columns),
                    closest=closest,
                ),
            )
            continue
        yield from _chat_findings("DATA-007", [key], path, column, facts, report)
