"""The shell-level problems of a launch script's verl command: what bash does that its author did not mean.

A line continuation cut by blanks, a Windows line ending, a comment or an empty line; a missing
backslash (the override-like lines after the command run as commands of their own); an unclosed
quote; a key given twice with different values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wizard.detect.script.bash import tree
from wizard.detect.script.bash.scan import split_raw
from wizard.detect.script.hydra_values import split_override
from wizard.detect.script.reading import CUT_TAIL, prepare, script_path
from wizard.i18n.text import Msg, msg

_CAUSES = {
    "space": "script.cut.space",
    "crlf": "script.cut.crlf",
    "comment": "script.cut.comment",
    "comment-backslash": "script.cut.comment_backslash",
    "comment-line": "script.cut.comment_line",
    "blank-line": "script.cut.blank_line",
}


@dataclass(frozen=True)
class ScriptProblem:
    """Something bash or Hydra does with the script that its author likely did not mean."""

    kind: str  # broken-continuation, missing-backslash, empty-value, duplicate-key, bad-value, ...
    line: int
    message: str | Msg
    key: str | None = None  # the one key it is about, where it is about one (refused-value)


def problems_of(text: str, step, script, trust_quotes: bool = True) -> list:
    """`trust_quotes`: report the unclosed quotes the grammar finds (False when bash says otherwise)."""
    problems = []
    if step.file == script_file(script):
        quotes = _quotes(text) if trust_quotes else []
        if quotes:  # bash stops at the open quote: nothing from there on runs
            script.overrides[:] = [o for o in script.overrides if o.line < quotes[0].line]
            script.problems[:] = [p for p in script.problems if p.line < quotes[0].line]
        problems.extend(quotes)
        cut = _continuation(text.split("\n"), step)
        if cut is not None:
            problems.append(ScriptProblem(*cut))
    problems.extend(_duplicates(script.overrides))
    return problems


def script_file(script) -> str:
    return script_path(script.source)


def _quotes(text: str) -> list:
    root = tree.parse(prepare(text).encode("utf-8"))
    return [
        ScriptProblem("unterminated-quote", line, msg("script.unclosed_quote", line=line, quote=quote))
        for line, quote in tree.missing_quotes(root)
    ]


def piped_away(text: str, step, verl_step):
    """A problem when `step` is the next command of verl's pipe (`... | tee log key=value`) and takes overrides."""
    if step.file != verl_step.file or step.line != verl_step.end_line or not step.raws:
        return None
    lines = text.split("\n")
    on_line = lines[step.line - 1] if step.line - 1 < len(lines) else ""
    # a pipe into this command (not `||`, not `;` or `&&` before another command on the same line)
    if not re.search(r"(?<!\|)\|&?\s*" + re.escape(step.raws[0]) + r"(\s|$)", on_line):
        return None
    keys = [key for w in step.raws[1:] if (key := _override_key(w)) is not None]
    if not keys:
        return None
    line = step.line
    return ScriptProblem(
        "piped-away", line, msg("script.piped_away", line=line, keys=keys, n=len(keys), command=step.raws[0])
    )


def _override_key(word: str) -> str | None:
    """The key of a word that looks like a Hydra override (not a flag or a stray word); None otherwise."""
    parts = split_override(word.strip("'\""))
    if parts is None:
        return None
    prefix, key, _ = parts
    return key if bool(prefix) or any(c in key for c in "./@") or key[:1].islower() else None


def _looks_like_override(word: str) -> bool:
    return _override_key(word) is not None


def _orphans(lines: list[str], after: int) -> list[tuple[str, int]]:
    """The override-like words on the lines after line `after` that bash runs as commands of their own."""
    found: list[tuple[str, int]] = []
    for number in range(after + 1, len(lines) + 1):
        line = lines[number - 1].rstrip("\r")
        body = CUT_TAIL.sub("", line).rstrip()
        if body.endswith("\\"):
            body = body[:-1]
        stripped = body.strip()
        if not stripped or stripped.startswith("#"):
            if found:
                continue
            continue
        words = [w for w in split_raw(stripped) if w not in ('"$@"', "$@", '"$*"', "$*", '"${@}"', "${@}")]
        if "#" in stripped:
            words = [w for w in words[: next((k for k, w in enumerate(words) if w.startswith("#")), len(words))]]
        if not words or not all(_looks_like_override(w) for w in words):
            break
        found.extend((w, number) for w in words)
    return found


def _continuation(lines: list[str], step):
    """(kind, line, message) when the verl command ends before the author's overrides do."""
    end = step.end_line
    last = lines[end - 1] if end - 1 < len(lines) else ""
    cause, where = None, end
    m = CUT_TAIL.search(last)
    if m:
        cause = "comment" if m.group(2) else ("crlf" if "\r" in m.group(1) else "space")
    else:
        body = last.rstrip("\r")
        hash_at = _comment_start(body)
        if hash_at is not None and body.rstrip().endswith("\\"):
            cause = "comment-backslash"
        elif body.rstrip().endswith("\\") and end < len(lines):
            nxt = lines[end].strip()
            where = end + 1
            cause = "comment-line" if nxt.startswith("#") else "blank-line" if not nxt else None
    orphans = _orphans(lines, where)
    keys = [key for w, _ in orphans if (key := _override_key(w)) is not None]  # every orphan has one
    lost = None
    if keys:
        more = msg("script.lost_more", n=len(keys) - 6) if len(keys) > 6 else ""
        lost = msg("script.lost", first=orphans[0][1], last=orphans[-1][1], keys=keys[:6], more=more)
    if cause is not None:
        stray = cause in ("space", "crlf", "comment")
        if not stray and lost is None:
            return None  # the command ended where the author's overrides end: nothing is lost
        return (
            "broken-continuation",
            where,
            msg(
                "script.broken_continuation",
                line=where,
                cause=msg(_CAUSES[cause]),
                stray=msg("script.cut.stray") if stray else "",
                lost=lost or "",
            ),
        )
    if lost is not None:
        return ("missing-backslash", end, msg("script.missing_backslash", line=end, lost=lost))
    return None


def _comment_start(line: str) -> int | None:
    """Where an unquoted # comment starts on the line, or None."""
    quote = None
    for k, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
            continue
        if c in "'\"":
            quote = c
        elif c == "#" and (k == 0 or line[k - 1] in " \t"):
            return k
    return None


def _duplicates(overrides) -> list:
    seen: dict = {}
    problems = []
    for override in overrides:
        old = seen.pop(override.key, None)
        if override.prefix == "~":
            continue
        if old is not None and old.known and override.known and repr(old.value) != repr(override.value):
            problems.append(
                ScriptProblem(
                    "duplicate-key",
                    override.line,
                    msg(
                        "script.duplicate_key",
                        name=override.key,
                        old=old.raw_value,
                        old_line=old.line,
                        new=override.raw_value,
                        new_line=override.line,
                    ),
                )
            )
        seen[override.key] = override
    return problems
