"""Read a bash launch script of verl the way bash would run it, and pull out the Hydra overrides.

`parse_launch_script` finds the `python -m verl.trainer.main_ppo ...` command (also behind `uv run`,
`torchrun`, `ray job submit ... --`), honours the variable assignments made earlier in the script,
expands `$VAR`/`${VAR:-default}` in its arguments, and returns every override in order. It also
reports what bash does differently from what the author meant: a line continuation broken by a
comment or trailing whitespace, a missing backslash that cuts the override list, an empty value,
and a key given twice. Nothing is executed. Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wizard.detect.hydra_values import parse_override_value, split_override
from wizard.errors import UsageError

__all__ = ["ENTRY_MODULES", "LaunchScript", "Override", "ScriptProblem", "parse_launch_script"]

ENTRY_MODULES = ("verl.trainer.main_ppo", "verl.trainer.main_ppo_v0")
MAX_SCRIPT_CHARS = 512 * 1024
_MAX_VAR_CHARS = 64 * 1024
_MAX_EXPANDED_CHARS = 4 * 1024 * 1024
_MAX_EXPANSION_DEPTH = 16
_NAME_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=")
_PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!-])(?:(:?[-=+?])(.*))?", re.DOTALL)
_PLAIN_RUN = re.compile(r"[^\s\\'\"$`#;&|()<>]+")
_REST_IS_BLANK = re.compile(r"[ \t\r]*(#[^\n]*)?(?:\n|$)")
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


@dataclass
class _Word:
    parts: list[tuple[str, str]]  # ("lit"|"qlit", text) or ("var"|"qvar", expansion source text)
    line: int
    raw: str
    junk: bool = False  # made by an escaped blank at the end of a line, not by the author's intent


@dataclass
class _Command:
    words: list[_Word]
    line: int
    end_line: int
    cut: tuple[int, str] | None  # (line, why) when a line continuation was meant but broken


class _Lexer:
    """Splits the script into simple commands of words, as bash's parser does, one pass, no execution."""

    def __init__(self, text: str) -> None:
        self.t, self.i, self.line = text, 0, 1
        self.commands: list[_Command] = []
        self.problems: list[ScriptProblem] = []
        self.words: list[_Word] = []
        self.parts: list[tuple[str, str]] | None = None
        self.word_start = self.word_line = self.cmd_line = 0
        self.cut: tuple[int, str] | None = None
        self.joined = self.junk_rest = self.word_junk = False
        self.skip_target = False
        self.heredoc: bool | None = None  # set while the next word is a here-document delimiter
        self.pending_heredocs: list[tuple[str, bool]] = []

    def run(self) -> list[_Command]:
        t = self.t
        while self.i < len(t):
            c = t[self.i]
            if c == "\\":
                self._backslash()
            elif c == "'":
                self._single()
            elif c == '"':
                self._double()
            elif c in "$`":
                self._start()
                end = self._scan_expansion(self.i)
                span = t[self.i:end]
                self.parts.append(("var", span) if len(span) > 1 else ("lit", span))
                self.line += span.count("\n")
                self.i = end
            elif c in " \t":
                self._flush()
                self.i += 1
            elif c == "\n":
                self._newline()
            elif c == "#" and self.parts is None:
                self._comment()
            elif c in ";&|()<>":
                self._operator(c)
            else:
                run = _PLAIN_RUN.match(t, self.i)
                text = run.group() if run else c
                self._start()
                self.parts.append(("lit", text))
                self.i += len(text)
        self._flush()
        self._end_command()
        return self.commands

    def _start(self) -> None:
        if self.parts is None:
            self.parts, self.word_start, self.word_line = [], self.i, self.line
            self.joined, self.word_junk = False, self.junk_rest

    def _flush(self) -> None:
        if self.parts is None:
            return
        word = _Word(self.parts, self.word_line, self.t[self.word_start:self.i], self.word_junk)
        self.parts = None
        if self.skip_target:
            self.skip_target = False
            if self.heredoc is not None:
                delimiter = "".join(text for _, text in word.parts)
                self.pending_heredocs.append((delimiter, self.heredoc))
                self.heredoc = None
            return
        if not self.words:
            self.cmd_line = word.line
        self.words.append(word)

    def _end_command(self) -> None:
        if self.words:
            self.commands.append(_Command(self.words, self.cmd_line, self.line, self.cut))
        self.words, self.cut, self.skip_target, self.heredoc = [], None, False, None

    def _backslash(self) -> None:
        t, i = self.t, self.i
        nxt = t[i + 1] if i + 1 < len(t) else ""
        if nxt == "\n":
            self.i, self.line, self.joined = i + 2, self.line + 1, True
            return
        rest = _REST_IS_BLANK.match(t, i + 1) if nxt in " \t\r" else None
        if rest:
            why = "comment" if rest.group(1) else ("crlf" if "\r" in rest.group() else "space")
            self.cut = (self.line, why)
            if self.parts is None:
                self.junk_rest = True
        self._start()
        self.parts.append(("qlit", nxt))
        self.i = i + 1 + len(nxt)

    def _single(self) -> None:
        self._start()
        end = self.t.find("'", self.i + 1)
        if end < 0:
            self._unterminated("'")
            end = len(self.t)
        body = self.t[self.i + 1:end]
        self.parts.append(("qlit", body))
        self.line += body.count("\n")
        self.i = end + 1

    def _double(self) -> None:
        self._start()
        t, k, buf, first = self.t, self.i + 1, [], len(self.parts)
        while k < len(t) and t[k] != '"':
            ch = t[k]
            if ch == "\\" and k + 1 < len(t) and t[k + 1] in '$`"\\\n':
                if t[k + 1] == "\n":
                    self.line += 1
                else:
                    buf.append(t[k + 1])
                k += 2
            elif ch in "$`" and (end := self._scan_expansion(k)) > k + 1:
                self.parts.extend([("qlit", "".join(buf))] if buf else [])
                self.parts.append(("qvar", t[k:end]))
                self.line += t.count("\n", k, end)
                buf, k = [], end
            else:
                self.line += ch == "\n"
                buf.append(ch)
                k += 1
        if k >= len(t):
            self._unterminated('"')
        if buf or self.parts[first:] == []:
            self.parts.append(("qlit", "".join(buf)))
        self.i = k + 1

    def _unterminated(self, quote: str) -> None:
        self.problems.append(ScriptProblem(
            "unterminated-quote", self.line,
            f"line {self.line}: the {quote} quote opened here is never closed; bash stops with a "
            "syntax error and runs nothing from here on"))

    def _scan_expansion(self, k: int) -> int:
        """Index just past the `$...`/backtick expansion that starts at k (k + 1 for a lone `$`)."""
        t = self.t
        if t[k] == "`":
            end = t.find("`", k + 1)
            return len(t) if end < 0 else end + 1
        nxt = t[k + 1:k + 2]
        if nxt in ("(", "{"):
            close, depth, j = ")" if nxt == "(" else "}", 0, k + 1
            while j < len(t):
                ch = t[j]
                if ch == "\\":
                    j += 1
                elif ch == "'" and nxt == "(":
                    j = t.find("'", j + 1)
                    if j < 0:
                        return len(t)
                elif ch == nxt:
                    depth += 1
                elif ch == close:
                    depth -= 1
                    if depth == 0:
                        return j + 1
                j += 1
            return len(t)
        name = re.match(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]", t[k + 1:k + 64])
        return k + 1 + (len(name.group()) if name else 0)

    def _newline(self) -> None:
        self._flush()
        if self.words and self.joined and not self.cut:
            self.cut = (self.line, "blank-line")
        self._end_command()
        self.i, self.line, self.junk_rest = self.i + 1, self.line + 1, False
        for delimiter, strip_tabs in self.pending_heredocs:
            while self.i < len(self.t):
                end = self.t.find("\n", self.i)
                end = len(self.t) if end < 0 else end
                body = self.t[self.i:end]
                self.i, self.line = end + 1, self.line + 1
                if (body.lstrip("\t") if strip_tabs else body) == delimiter:
                    break
        self.pending_heredocs = []

    def _comment(self) -> None:
        end = self.t.find("\n", self.i)
        end = len(self.t) if end < 0 else end
        if self.words and self.t[self.i:end].rstrip(" \t\r").endswith("\\"):
            self.cut = (self.line, "comment-backslash")
        elif self.words and self.joined:
            self.cut = (self.line, "comment-line")
        self.i = end

    def _operator(self, c: str) -> None:
        t = self.t
        is_redirect = c in "<>" or t.startswith("&>", self.i)
        if is_redirect and c != "&" and self.parts and len(self.parts) == 1 and self.parts[0][1].isdigit():
            self.parts = None  # the file descriptor of `2>&1`
        self._flush()
        if is_redirect:
            op = re.match(r"&>>?|<<<|<<-?|<>|<&|>>|>&|>\||[<>]", t[self.i:self.i + 3]).group()
            self.skip_target = True
            self.heredoc = op == "<<-" if op in ("<<", "<<-") else None
            self.i += len(op)
            return
        self._end_command()
        self.i += 2 if t[self.i:self.i + 2] in ("&&", "||", ";;", "|&") else 1


def _check_text(text: str | bytes, source: str) -> str:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"{source} is not a shell script: it is not UTF-8 text") from None
    if len(text) > MAX_SCRIPT_CHARS:
        raise UsageError(f"{source} is too large for a launch script "
                         f"({len(text)} characters, the limit is {MAX_SCRIPT_CHARS})")
    controls = sum(1 for c in text if c == "\ufffd" or (c < " " and c not in "\t\n\r\f\v\x1b"))
    if "\x00" in text or controls > max(8, len(text) // 100):
        raise UsageError(f"{source} is not a shell script: it holds binary data")
    return text


class _TooMuchText(Exception):
    pass


class _Expander:
    """Bash parameter expansion over the shell variables the script set so far."""

    def __init__(self) -> None:
        self.env: dict[str, tuple[str, tuple[str, ...]]] = {}  # name -> (value, unresolved inside it)
        self.budget = _MAX_EXPANDED_CHARS  # variables that copy each other grow without end

    def word(self, word: _Word, missing: list[str], split: bool = True, depth: int = 0) -> list[tuple[str, bool]]:
        """Expand one word into fields of (text, clean); clean is False where a placeholder stays."""
        fields, keep_empty = [["", True]], False
        for kind, text in word.parts:
            if kind in ("lit", "qlit"):
                fields[-1][0] += text
                keep_empty |= kind == "qlit"
                continue
            if re.match(r"\$\{?[@*]", text):
                continue  # the script's own arguments: none when the wizard reads it
            value, clean = self.expr(text, missing, depth)
            self.budget -= len(value)
            if self.budget < 0:
                raise _TooMuchText
            keep_empty |= kind == "qvar"
            fields[-1][1] &= clean
            if kind == "var" and split and clean and re.search(r"[ \t\n]", value):
                pieces = re.split(r"[ \t\n]+", value)
                fields[-1][0] += pieces[0]
                fields.extend([piece, True] for piece in pieces[1:])
            else:
                fields[-1][0] += value
        return [(text, clean) for text, clean in fields if text or keep_empty]

    def expr(self, text: str, missing: list[str], depth: int) -> tuple[str, bool]:
        if not text.startswith("${") and not re.fullmatch(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9#?$!-])", text):
            missing.append(text)  # $(...), `...`, $((...)) left unresolved
            return text, False
        m = _PARAM.fullmatch(text[2:-1] if text.startswith("${") else text[1:])
        if not m or depth > _MAX_EXPANSION_DEPTH:
            missing.append(text)
            return text, False
        name, op, arg = m.groups()
        value, inner_missing = self.env.get(name, ("", None))
        known = inner_missing is not None
        if known and (op is None or (not inner_missing and not (op[0] == ":" and value == ""))):
            if op is not None and op[-1] == "+":
                return self.default(arg, missing, depth)
            missing.extend(inner_missing)
            return value, not inner_missing
        if op is None or op[-1] == "?" or (inner_missing and op[-1] in "-="):
            missing.extend(inner_missing or (name,))
            return text, False
        if op[-1] == "+":
            return "", True
        default_missing: list[str] = []
        value, clean = self.default(arg, default_missing, depth)
        if op[-1] == "=":
            self.env[name] = (value, tuple(default_missing))
        missing.extend(default_missing)
        return value, clean

    def default(self, arg: str, missing: list[str], depth: int) -> tuple[str, bool]:
        words = [w for command in _Lexer(arg).run() for w in command.words]
        fields = [f for w in words for f in self.word(w, missing, split=False, depth=depth + 1)]
        return " ".join(text for text, _ in fields), all(clean for _, clean in fields)

    def assign(self, word: _Word, name_len: int) -> None:
        first_kind, first_text = word.parts[0]
        rhs = _Word([(first_kind, first_text[name_len:])] + word.parts[1:], word.line, word.raw)
        missing: list[str] = []
        fields = self.word(rhs, missing, split=False)
        value = fields[0][0] if fields else ""
        name = first_text[:name_len].rstrip("+=")
        if first_text[:name_len].endswith("+="):
            old, old_missing = self.env.get(name, ("", ()))
            value, missing = old + value, list(old_missing) + missing
        if len(value) > _MAX_VAR_CHARS:
            value, missing = f"${name}", [name]
        self.env[name] = (value, tuple(dict.fromkeys(missing)))


def _assignment_len(word: _Word) -> int:
    kind, text = word.parts[0]
    m = _NAME_ASSIGN.match(text) if kind == "lit" else None
    return m.end() if m else 0


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


def _continuation_problem(text: str, commands: list[_Command], index: int, expander: _Expander) -> ScriptProblem | None:
    """Explain a verl command cut short: the cause, and the override-like lines bash runs on their own."""
    command, lines, orphans = commands[index], text.split("\n"), []
    prev_end = command.end_line
    for later in commands[index + 1:]:
        if any(g.strip() and not g.lstrip().startswith("#") for g in lines[prev_end:later.line - 1]):
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
        lost = (f"; bash runs lines {orphans[0][1]}-{orphans[-1][1]} as separate commands, so verl "
                f"never gets {shown}")
    if command.cut:
        line, why = command.cut
        stray = " and passes the text after the backslash to Hydra, which rejects it" if why in (
            "space", "crlf", "comment") else ""
        if not stray and not lost:
            return None  # the command ended where the author's overrides end: nothing is lost
        return ScriptProblem("broken-continuation", line,
                             f"line {line}: {_CUT_CAUSES[why]} ends the command here{stray}{lost}")
    if lost:
        line = command.end_line
        return ScriptProblem("missing-backslash", line,
                             f"line {line} does not end with a backslash, so the command ends there{lost}")
    return None


def _read_args(script: LaunchScript, args: list[tuple[str, bool, _Word]]) -> None:
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
            script.problems.append(ScriptProblem(
                "not-an-override", line, f"line {line}: {text!r} is not a key=value override; Hydra rejects it"))
            continue
        prefix, key, raw = parts
        value = raw
        if raw is not None:
            try:
                value = parse_override_value(raw)
            except ValueError as exc:
                if clean:
                    script.problems.append(ScriptProblem(
                        "bad-value", line, f"line {line}: Hydra rejects the value of {key}={raw}: {exc}"))
            if raw == "" and prefix != "~" and not word.raw.endswith(("''", '""')):
                script.problems.append(ScriptProblem(
                    "empty-value", line,
                    f"line {line}: {prefix}{key}= has an empty value, which Hydra reads as the empty string "
                    "(an unset variable?)"))
        script.overrides.append(Override(key, raw or "", value, prefix, line))


def _duplicates(overrides: list[Override]) -> list[ScriptProblem]:
    seen: dict[str, Override] = {}
    problems = []
    for override in overrides:
        old = seen.pop(override.key, None)
        if override.prefix == "~":
            continue
        if old is not None and repr(old.value) != repr(override.value):
            problems.append(ScriptProblem(
                "duplicate-key", override.line,
                f"{override.key} is set twice: {old.raw_value!r} on line {old.line} and "
                f"{override.raw_value!r} on line {override.line}; Hydra keeps the last one"))
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
    except _TooMuchText:
        raise UsageError(f"{source}: its variables expand to more than {_MAX_EXPANDED_CHARS} characters; "
                         "this is not a launch script the wizard can read") from None


def _read_script(text: str, source: str) -> LaunchScript:
    lexer = _Lexer(text)
    commands, expander = lexer.run(), _Expander()
    script: LaunchScript | None = None
    for index, command in enumerate(commands):
        words = command.words
        while words and words[0].parts == [("lit", words[0].raw)] and words[0].raw in _KEYWORDS:
            words = words[1:]
        lengths = [_assignment_len(w) for w in words]
        head = words[0].raw if words else ""
        if words and all(lengths):
            for word, length in zip(words, lengths):
                expander.assign(word, length)
        elif head in ("export", "declare", "typeset", "readonly", "local"):
            for word, length in zip(words[1:], lengths[1:]):
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
                script.problems.append(ScriptProblem(
                    "multiple-commands", command.line,
                    f"line {command.line}: another verl command; only the first one is read"))
                continue
            script = LaunchScript(source, entry[1], problems=list(lexer.problems))
            script.unresolved_vars = list(dict.fromkeys(missing))
            _read_args(script, fields[entry[0]:])
            script.problems.extend(_duplicates(script.overrides))
            cut = _continuation_problem(text, commands, index, expander)
            script.problems.extend([cut] if cut else [])
    if script is None:
        raise UsageError(f"{source}: no `python -m verl.trainer.main_ppo` command was found; "
                         "give the script that launches training, or its config.yaml")
    script.problems.sort(key=lambda problem: problem.line)
    return script
