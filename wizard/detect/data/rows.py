"""Row checks for the three kinds of data verl reads, counted over the rows a scan sees.

- `rl` (verl.trainer.main_ppo, RLHFDataset): one prompt per row, the prompt column (data.prompt_key) a
  chat list of {role, content}; `data_source` (data.reward_fn_key) picks the built-in scorer;
  `reward_model.ground_truth` is what the reward function compares against.
- `rm` (RMDataset): `prompt`, `chosen` and `rejected` per row.
- `sft` (MultiTurnSFTDataset): a `messages` chat list with user and assistant turns.

Each checker counts problems and remembers the first row that shows each one; the rules
(wizard.core.rules.data.columns, data_chats, data_lengths) turn the counts into findings. Nothing here raises on bad values.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

KINDS = ("rl", "rm", "sft")
KNOWN_ROLES = ("system", "user", "assistant", "tool")
# Column names that often hold the prompt when data.prompt_key does not match.
PROMPT_LIKE = (
    "prompt",
    "question",
    "query",
    "problem",
    "instruction",
    "input",
    "messages",
    "conversations",
    "conversation",
    "text",
    "chat",
)
MAX_SOURCES = 50  # distinct data_source values remembered per file


def detect_kind(columns: list[str], prompt_key: str = "prompt", messages_key: str = "messages") -> str:
    """rm when chosen and rejected are there, rl when the prompt column is, sft for a messages column."""
    cols = set(columns)
    if {"chosen", "rejected"} <= cols:
        return "rm"
    if prompt_key in cols:
        return "rl"
    if messages_key in cols:
        return "sft"
    return "rl"


def candidate_columns(columns: list[str], wanted: str, limit: int = 3) -> list[str]:
    """Columns that may be the one meant by `wanted`: the closest names first, then usual prompt names."""
    close = difflib.get_close_matches(wanted, columns, n=limit, cutoff=0.6)
    usual = [c for c in columns if c.lower() in PROMPT_LIKE and c not in close]
    return (close + usual)[:limit]


def message_text(message: dict) -> str:
    """The text of a message; multimodal content lists contribute their text parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text") or "" for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def _blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, dict)):
        return not value
    return False


@dataclass
class Counts:
    """Problem name -> rows, and the first row index that shows each problem."""

    counts: Counter = field(default_factory=Counter)
    first: dict[str, int | None] = field(default_factory=dict)  # None: a row of a sampled window

    def hit(self, problem: str, row: int | None) -> None:
        self.counts[problem] += 1
        self.first.setdefault(problem, row)

    def __getitem__(self, problem: str) -> int:
        return self.counts.get(problem, 0)


@dataclass
class ChatFacts:
    """What one column looks like as a chat list (the RL prompt, or SFT messages)."""

    column: str
    need_assistant: bool = False
    rows: int = 0
    good: int = 0
    problems: Counts = field(default_factory=Counts)
    unknown_roles: Counter = field(default_factory=Counter)
    example: str | None = None  # a short repr of the first bad value
    lengths: list[int] = field(default_factory=list)  # prompt tokens of the well-formed rows, sorted at the end
    length_failures: int = 0  # rows the chat template refused (verl counts them as over-long)
    length_failure: str = ""
    length_stride: int = 1  # 1: every well-formed row was measured; k: every k-th (long prompts, big sample)

    def add(self, row: int | None, value: Any) -> list | None:
        """Check one row's value; returns the messages when they are a well-formed chat list."""
        self.rows += 1
        before = sum(self.problems.counts.values())
        messages = self._check(row, value)
        if sum(self.problems.counts.values()) > before and self.example is None:
            self.example = f"row {row}: {_short_repr(value)}"
        if messages is not None:
            self.good += 1
        return messages

    def _check(self, row: int | None, value: Any) -> list | None:
        p = self.problems
        if value is None:
            p.hit("missing", row)
            return None
        if isinstance(value, str):
            p.hit("plain_string", row)
            return None
        if isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, list):
            p.hit("not_list", row)
            return None
        if not value:
            p.hit("empty_list", row)
            return None
        ok, roles = True, []
        for message in value:
            if not isinstance(message, dict) or not isinstance(message.get("role"), str) or "content" not in message:
                if isinstance(message, dict) and "from" in message and "value" in message:
                    p.hit("sharegpt", row)
                else:
                    p.hit("bad_message", row)
                return None
            role = message["role"]
            roles.append(role)
            if role not in KNOWN_ROLES:
                self.unknown_roles[role] += 1
                p.hit("unknown_role", row)
                ok = False
            elif role in ("user", "assistant") and not message_text(message).strip() and not _has_media(message):
                p.hit("empty_content", row)
                ok = False
        if "user" not in roles:
            p.hit("no_user", row)
            ok = False
        if self.need_assistant and "assistant" not in roles:
            p.hit("no_assistant", row)
            ok = False
        return value if ok else None

    def finish(self) -> None:
        self.lengths.sort()

    def to_json(self) -> dict[str, Any]:
        return {
            "column": self.column,
            "rows": self.rows,
            "well_formed": self.good,
            "problems": dict(self.problems.counts),
            "first_row": dict(self.problems.first),
            "unknown_roles": dict(self.unknown_roles),
            "example": self.example,
            "template_failures": self.length_failures,
            "length_stride": self.length_stride,
        }


def _has_media(message: dict) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(p, dict) and p.get("type") not in (None, "text") for p in content
    )


def _short_repr(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class RewardFacts:
    """RL rows: which data_source values occur, and whether reward_model.ground_truth is there."""

    source_key: str = "data_source"
    rows: int = 0
    sources: Counter = field(default_factory=Counter)
    more_sources: bool = False
    problems: Counts = field(default_factory=Counts)

    def add(self, row: int | None, record: dict) -> None:
        self.rows += 1
        source = record.get(self.source_key)
        if _blank(source):
            self.problems.hit("no_source", row)
        else:
            source = str(source)
            if source in self.sources or len(self.sources) < MAX_SOURCES:
                self.sources[source] += 1
            else:
                self.more_sources = True
        reward = record.get("reward_model")
        if reward is None:
            self.problems.hit("no_reward_model", row)
        elif not isinstance(reward, dict) or _blank(reward.get("ground_truth")):
            self.problems.hit("no_ground_truth", row)

    def to_json(self) -> dict[str, Any]:
        return {
            "source_key": self.source_key,
            "rows": self.rows,
            "data_sources": dict(self.sources.most_common(20)),
            "more_sources": self.more_sources or len(self.sources) > 20,
            "problems": dict(self.problems.counts),
            "first_row": dict(self.problems.first),
        }


@dataclass
class PairFacts:
    """Reward-model rows: a prompt with a chosen and a rejected response."""

    rows: int = 0
    problems: Counts = field(default_factory=Counts)

    def add(self, row: int | None, record: dict) -> None:
        self.rows += 1
        for key in ("prompt", "chosen", "rejected"):
            if key not in record or record[key] is None:
                self.problems.hit(f"no_{key}", row)
            elif _blank(record[key]):
                self.problems.hit(f"empty_{key}", row)
        chosen, rejected = record.get("chosen"), record.get("rejected")
        if chosen is not None and not _blank(chosen) and chosen == rejected:
            self.problems.hit("identical", row)

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows, "problems": dict(self.problems.counts), "first_row": dict(self.problems.first)}
