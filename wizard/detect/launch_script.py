"""Read a bash launch script of verl the way bash would run it, and pull out the Hydra overrides.

`parse_launch_script` finds the `python -m verl.trainer.main_ppo ...` command (also behind `uv run`,
`torchrun`, `ray job submit ... --`), honours the variable assignments made earlier in the script,
expands `$VAR`/`${VAR:-default}` in its arguments, and returns every override in order. It also
reports what bash does differently from what the author meant: a line continuation broken by a
comment or trailing whitespace, a missing backslash that cuts the override list, an empty value,
and a key given twice. Nothing is executed. Standard library only; the shell lexing and
variable expansion live in shell_words.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wizard.detect.hydra_values import parse_override_value, split_override
from wizard.detect.shell_words import (
    MAX_EXPANDED_CHARS,
    Command,
    Expander,
    ExpansionTooLarge,
    Lexer,
    Word,
    assignment_len,
)
from wizard.errors import UsageError

__all__ = ["ENTRY_MODULES", "LaunchScript", "Override", "ScriptProblem", "parse_launch_script"]

ENTRY_MODULES = ("verl.trainer.main_ppo", "verl.trainer.main_ppo_v0")
MAX_SCRIPT_CHARS = 512 * 1024
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "{", "!", "time"})
_VALUE_FLAGS = frozenset({"--cfg", "-c", "--package", "-p", "--config-dir", "-cd", "--experimental-rerun"})


@dataclass(frozen=True)
class Override:
    """One Hydra override as bash passes it: `<prefix><key>=<raw_value>`; `value` is Hydra's reading."""

    key: str
    raw_value: str
    value: Any
    prefix: str  # "", "+", "++" or "~"
    line: int


@dataclass(frozen=True)
class ScriptProblem:
    """Something bash or Hydra does with the script that its author likely did not mean."""

    kind: str  # broken-continuation, missing-backslash, empty-value, duplicate-key, bad-value, ...
    line: int
    message: str


@dataclass
class LaunchScript:
    """The verl entry command of a launch script, read as bash would run it."""

    source: str
    entry_module: str
    config_path: str | None = None
    config_name: str | None = None
    overrides: list[Override] = field(default_factory=list)
    problems: list[ScriptProblem] = field(default_factory=list)
    unresolved_vars: list[str] = field(default_factory=list)

    def as_dotted(self) -> dict[str, Any]:
        """Return {key: value} in the order given; the last value wins and `~key` removes the key."""
        out: dict[str, Any] = {}
        for override in self.overrides:
            if override.prefix == "~":
                out.pop(override.key, None)
            else:
                out[override.key] = override.value
        return out


def _check_text(text: str | bytes, source: str) -> str:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{source} is not a shell script: it is not UTF-8 text") from None
    if len(text) > MAX_SCRIPT_CHARS:
        raise UsageError(
            f"{source} is too large for a launch script ({len(text)} characters, the limit is {MAX_SCRIPT_CHARS})"
        )
    controls = sum(1 for c in text if c == "\ufffd" or (c < " " and c not in "\t\n\r\f\v\x1b"))
    if "\x00" in text or controls > max(8, len(text) // 100):
        raise UsageError(f"{source} is not a shell script: it holds binary data")
    return text


def _unclosed_quote_problems(lexer: Lexer) -> list[ScriptProblem]:
    return [
        ScriptProblem(
            "unterminated-quote",
            line,
            f"line {line}: the {quote} quote opened here is never closed; bash stops with a "
            "syntax error and runs nothing from here on",
        )
        for line, quote in lexer.unclosed_quotes
    ]


def _find_entry(fields: list[str]) -> tuple[int, str] | None:
    if not fields or fields[0] in ("echo", "printf", "cat", ":"):
        return None
    for index, text in enumerate(fields):
        if text == "-m" and index + 1 < len(fields) and fields[index + 1] in ENTRY_MODULES:
            return index + 2, fields[index + 1]
        if text.startswith("-m") and text[2:] in ENTRY_MODULES:
            return index + 1, text[2:]
        m = re.fullmatch(r"(?:.*/)?verl/trainer/(main_ppo(?:_v0)?)\.py", text)
        if m:
            return index + 1, "verl.trainer." + m.group(1)
    return None


def _looks_like_override(text: str) -> bool:
    parts = split_override(text)
    if parts is None:
        return False
    prefix, key, _ = parts
    return bool(prefix) or any(c in key for c in "./@") or key[0].islower()


_CUT_CAUSES = {
    "space": "whitespace after the line-continuation backslash",
    "crlf": "a Windows line ending (CRLF) after the line-continuation backslash",
    "comment": "a # comment after the line-continuation backslash",
    "comment-backslash": "a # comment that swallows the line-continuation backslash",
    "comment-line": "a comment line inside the continued command",
    "blank-line": "an empty line inside the continued command",
}


def _continuation_problem(text: str, commands: list[Command], index: int, expander: Expander) -> ScriptProblem | None:
    """Explain a verl command cut short: the cause, and the override-like lines bash runs on their own."""
    command, lines, orphans = commands[index], text.split("\n"), []
    prev_end = command.end_line
    for later in commands[index + 1 :]:
        if any(g.strip() and not g.lstrip().startswith("#") for g in lines[prev_end : later.line - 1]):
            break
        fields = [(f, w.line) for w in later.words if not w.junk for f, _ in expander.word(w, [])]
        if not fields or not all(_looks_like_override(f) for f, _ in fields):
            break
        orphans.extend(fields)
        prev_end = later.end_line
    keys = [split_override(f)[1] for f, _ in orphans]
    lost = ""
    if keys:
        shown = ", ".join(keys[:6]) + (f" and {len(keys) - 6} more" if len(keys) > 6 else "")
        lost = f"; bash runs lines {orphans[0][1]}-{orphans[-1][1]} as separate commands, so verl never gets {shown}"
    if command.cut:
        line, why = command.cut
        stray = (
            " and passes the text after the backslash to Hydra, which rejects it"
            if why in ("space", "crlf", "comment")
            else ""
        )
        if not stray and not lost:
            return None  # the command ended where the author's overrides end: nothing is lost
        return ScriptProblem(
            "broken-continuation", line, f"line {line}: {_CUT_CAUSES[why]} ends the command here{stray}{lost}"
        )
    if lost:
        line = command.end_line
        return ScriptProblem(
            "missing-backslash", line, f"line {line} does not end with a backslash, so the command ends there{lost}"
        )
    return None


def _read_args(script: LaunchScript, args: list[tuple[str, bool, Word]]) -> None:
    index = 0
    while index < len(args):
        text, clean, word = args[index]
        index += 1
        flag, eq, inline = text.partition("=")
        if word.junk:
            continue
        if flag in ("--config-path", "-cp", "--config-name", "-cn"):
            if not eq and index < len(args):
                inline, index = args[index][0], index + 1
            setattr(script, "config_path" if flag in ("--config-path", "-cp") else "config_name", inline)
            continue
        if text.startswith("-"):
            index += text in _VALUE_FLAGS
            continue
        parts = split_override(text)
        line = word.line
        if parts is None:
            script.problems.append(
                ScriptProblem(
                    "not-an-override", line, f"line {line}: {text!r} is not a key=value override; Hydra rejects it"
                )
            )
            continue
        prefix, key, raw = parts
        value = raw
        if raw is not None:
            try:
                value = parse_override_value(raw)
            except ValueError as exc:
                if clean:
                    script.problems.append(
                        ScriptProblem("bad-value", line, f"line {line}: Hydra rejects the value of {key}={raw}: {exc}")
                    )
            if raw == "" and prefix != "~" and not word.raw.endswith(("''", '""')):
                script.problems.append(
                    ScriptProblem(
                        "empty-value",
                        line,
                        f"line {line}: {prefix}{key}= has an empty value, which Hydra reads as the empty string "
                        "(an unset variable?)",
                    )
                )
        script.overrides.append(Override(key, raw or "", value, prefix, line))


def _duplicates(overrides: list[Override]) -> list[ScriptProblem]:
    seen: dict[str, Override] = {}
    problems = []
    for override in overrides:
        old = seen.pop(override.key, None)
        if override.prefix == "~":
            continue
        if old is not None and repr(old.value) != repr(override.value):
            problems.append(
                ScriptProblem(
                    "duplicate-key",
                    override.line,
                    f"{override.key} is set twice: {old.raw_value!r} on line {old.line} and "
                    f"{override.raw_value!r} on line {override.line}; Hydra keeps the last one",
                )
            )
        seen[override.key] = override
    return problems


def parse_launch_script(text: str | bytes, source: str = "<script>") -> LaunchScript:
    """Read a bash launch script and return its verl entry command with every Hydra override.

    Variables assigned earlier in the script are expanded; unknown ones stay as visible `$VAR`
    placeholders and are listed in `unresolved_vars` (by name; command substitutions by their
    text). Shell-level problems (broken continuations, missing backslashes, empty values, repeated
    keys, values Hydra rejects) are listed in `problems`. Raises UsageError when the text is not a
    shell script (binary data, too large) or has no `python -m verl.trainer.main_ppo` command.
    """
    text = _check_text(text, source)
    try:
        return _read_script(text, source)
    except ExpansionTooLarge:
        raise UsageError(
            f"{source}: its variables expand to more than {MAX_EXPANDED_CHARS} characters; "
            "this is not a launch script the wizard can read"
        ) from None


def _read_script(text: str, source: str) -> LaunchScript:
    lexer = Lexer(text)
    commands, expander = lexer.run(), Expander()
    script: LaunchScript | None = None
    for index, command in enumerate(commands):
        words = command.words
        while words and words[0].parts == [("lit", words[0].raw)] and words[0].raw in _KEYWORDS:
            words = words[1:]
        lengths = [assignment_len(w) for w in words]
        head = words[0].raw if words else ""
        if words and all(lengths):
            for word, length in zip(words, lengths, strict=False):
                expander.assign(word, length)
        elif head in ("export", "declare", "typeset", "readonly", "local"):
            for word, length in zip(words[1:], lengths[1:], strict=False):
                if length:
                    expander.assign(word, length)
        elif head == "unset":
            for word in words[1:]:
                expander.env.pop(word.raw, None)
        else:
            missing: list[str] = []
            fields = [(f, clean, w) for w in words for f, clean in expander.word(w, missing)]
            entry = _find_entry([f for f, _, _ in fields])
            if entry is None:
                continue
            if script is not None:
                script.problems.append(
                    ScriptProblem(
                        "multiple-commands",
                        command.line,
                        f"line {command.line}: another verl command; only the first one is read",
                    )
                )
                continue
            script = LaunchScript(source, entry[1], problems=_unclosed_quote_problems(lexer))
            script.unresolved_vars = list(dict.fromkeys(missing))
            _read_args(script, fields[entry[0] :])
            script.problems.extend(_duplicates(script.overrides))
            cut = _continuation_problem(text, commands, index, expander)
            script.problems.extend([cut] if cut else [])
    if script is None:
        raise UsageError(
            f"{source}: no `python -m verl.trainer.main_ppo` command was found; "
            "give the script that launches training, or its config.yaml"
        )
    script.problems.sort(key=lambda problem: problem.line)
    return script
