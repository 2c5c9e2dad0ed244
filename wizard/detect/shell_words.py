"""Bash's word splitting and variable expansion, for reading a shell script without running it.

`Lexer` splits script text into simple commands of words the way bash's parser does (quotes, line
continuations, comments, operators, redirections, here-documents), and notes where a line
continuation was meant but broken. `Expander` expands `$VAR`/`${VAR:-default}` in those words over
the variables the script assigned so far, leaving unknown ones and command substitutions as visible
placeholders. Nothing is executed. Standard library only; launch_script.py builds the verl-specific
reading on top of this.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_EXPANDED_CHARS", "Command", "Expander", "ExpansionTooLarge", "Lexer", "Word", "assignment_len"]

MAX_EXPANDED_CHARS = 4 * 1024 * 1024
_MAX_VAR_CHARS = 64 * 1024
_MAX_EXPANSION_DEPTH = 16
_NAME_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\+?=")
_PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!-])(?:(:?[-=+?])(.*))?", re.DOTALL)
_PLAIN_RUN = re.compile(r"[^\s\\'\"$`#;&|()<>]+")
_REST_IS_BLANK = re.compile(r"[ \t\r]*(#[^\n]*)?(?:\n|$)")


@dataclass
class Word:
    """One shell word as written, before expansion.

    `parts` holds ("lit"|"qlit", text) for unquoted/quoted literal text and ("var"|"qvar", source)
    for an unquoted/quoted expansion; `raw` is the word's source text; `junk` marks a word made by
    an escaped blank at the end of a line, not by the author's intent.
    """

    parts: list[tuple[str, str]]
    line: int
    raw: str
    junk: bool = False


@dataclass
class Command:
    """A simple command: its words and lines; `cut` is (line, why) when a line continuation was meant but broken."""

    words: list[Word]
    line: int
    end_line: int
    cut: tuple[int, str] | None


class Lexer:
    """Splits the script into simple commands of words, as bash's parser does, one pass, no execution.

    `unclosed_quotes` lists (line, quote character) for each quote that is never closed. While the
    next word is a here-document delimiter, `heredoc` says whether that here-document strips tabs.
    """

    def __init__(self, text: str) -> None:
        self.t, self.i, self.line = text, 0, 1
        self.commands: list[Command] = []
        self.unclosed_quotes: list[tuple[int, str]] = []
        self.words: list[Word] = []
        self.parts: list[tuple[str, str]] | None = None
        self.word_start = self.word_line = self.cmd_line = 0
        self.cut: tuple[int, str] | None = None
        self.joined = self.junk_rest = self.word_junk = False
        self.skip_target = False
        self.heredoc: bool | None = None
        self.pending_heredocs: list[tuple[str, bool]] = []

    def run(self) -> list[Command]:
        """Lex the whole text and return its simple commands in order."""
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
                span = t[self.i : end]
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
        word = Word(self.parts, self.word_line, self.t[self.word_start : self.i], self.word_junk)
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
            self.commands.append(Command(self.words, self.cmd_line, self.line, self.cut))
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
        body = self.t[self.i + 1 : end]
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
        self.unclosed_quotes.append((self.line, quote))

    def _scan_expansion(self, k: int) -> int:
        """Index just past the `$...`/backtick expansion that starts at k (k + 1 for a lone `$`)."""
        t = self.t
        if t[k] == "`":
            end = t.find("`", k + 1)
            return len(t) if end < 0 else end + 1
        nxt = t[k + 1 : k + 2]
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
        name = re.match(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-]", t[k + 1 : k + 64])
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
                body = self.t[self.i : end]
                self.i, self.line = end + 1, self.line + 1
                if (body.lstrip("\t") if strip_tabs else body) == delimiter:
                    break
        self.pending_heredocs = []

    def _comment(self) -> None:
        end = self.t.find("\n", self.i)
        end = len(self.t) if end < 0 else end
        if self.words and self.t[self.i : end].rstrip(" \t\r").endswith("\\"):
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
            op = re.match(r"&>>?|<<<|<<-?|<>|<&|>>|>&|>\||[<>]", t[self.i : self.i + 3]).group()
            self.skip_target = True
            self.heredoc = op == "<<-" if op in ("<<", "<<-") else None
            self.i += len(op)
            return
        self._end_command()
        self.i += 2 if t[self.i : self.i + 2] in ("&&", "||", ";;", "|&") else 1


class ExpansionTooLarge(Exception):
    """The script's variables expand to more than MAX_EXPANDED_CHARS characters in all."""


class Expander:
    """Bash parameter expansion over the shell variables the script set so far.

    `env` maps a variable name to (value, the unresolved expansions inside that value).
    """

    def __init__(self) -> None:
        self.env: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.budget = MAX_EXPANDED_CHARS  # variables that copy each other grow without end

    def word(self, word: Word, missing: list[str], split: bool = True, depth: int = 0) -> list[tuple[str, bool]]:
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
                raise ExpansionTooLarge
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
        """Expand one `$NAME`/`${...}` (or leave `$(...)` as is); return (text, clean) and add to missing."""
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
        """Expand the word of `${VAR:-word}` and friends; return (text, clean) and add to missing."""
        words = [w for command in Lexer(arg).run() for w in command.words]
        fields = [f for w in words for f in self.word(w, missing, split=False, depth=depth + 1)]
        return " ".join(text for text, _ in fields), all(clean for _, clean in fields)

    def assign(self, word: Word, name_len: int) -> None:
        """Run the assignment `NAME=value` (or `NAME+=value`) whose `NAME=` is the first name_len characters."""
        first_kind, first_text = word.parts[0]
        rhs = Word([(first_kind, first_text[name_len:])] + word.parts[1:], word.line, word.raw)
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


def assignment_len(word: Word) -> int:
    """Length of the `NAME=`/`NAME+=` that starts word, or 0 when the word is not an assignment."""
    kind, text = word.parts[0]
    m = _NAME_ASSIGN.match(text) if kind == "lit" else None
    return m.end() if m else 0
