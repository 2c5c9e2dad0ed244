"""Whether bash itself would parse a script, and where it would stop: bash is the oracle (`bash -n`).

Why bash and not the tree-sitter grammar the reader walks: the two disagree in both directions.
tree-sitter-bash recovers silently from what bash refuses (`X=$(abc` with no closing parenthesis, an
unclosed `${`), and marks as errors what bash accepts (`X=$(( {a ))`, a function named `f{ab`, a last
line `{a` without a newline). A finding that says "bash refuses this" has to come from bash.

`bash -n` reads the whole script and executes nothing (the noexec option: no command, no expansion,
no `shopt`). It runs with an empty environment (no BASH_ENV file to source), without start-up files,
in the C locale (bash's English messages, which are parsed here), with the script on stdin, under a
time limit. Since `-n` does not run `shopt -s extglob`, a script that turns extglob on and then uses
`@(a|b)` in a case pattern is checked again with extglob on before it is called refused. Where bash is
not on PATH, or does not answer in time, no syntax verdict is given (never a refusal on a guess); the
reader's own checks (an unclosed quote, SCRIPT-011) still run.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Literal

TIMEOUT_S = 5.0
_LINE = re.compile(r"^.*?: line (\d+): (.*)$")
_NEAR = re.compile(r"syntax error near unexpected token `(.*)'$")
_MATCHING = re.compile(r"unexpected EOF while looking for matching `(.*)'$")


@dataclass(frozen=True)
class SyntaxProblem:
    """Where bash stops: 1-based line and column, what it met ("token", "eof-matching", "eof", "other")."""

    line: int
    column: int
    kind: str
    token: str = ""
    detail: str = ""  # bash's own words, for "other"


@dataclass(frozen=True)
class Verdict:
    """bash's word on a script: accepted True/False, or None when bash could not be asked."""

    accepted: bool | None
    problem: SyntaxProblem | None = None

    def trusts_tree_quotes(self) -> bool:
        """Whether an unclosed quote the tree-sitter grammar reports can be believed: only without bash, or
        when bash itself stops at the end of the file looking for a quote."""
        if self.accepted is None:
            return True
        p = self.problem
        return p is not None and p.kind == "eof-matching" and p.token in ("'", '"', "`")


def verdict(text: str, bash: str | None = None) -> Verdict:
    """Ask bash whether it parses the script (`bash -n`)."""
    bash = bash or shutil.which("bash")
    if bash is None:
        return Verdict(None)
    answer = _ask(bash, text, ())
    if isinstance(answer, SyntaxProblem) and "extglob" in text and _ask(bash, text, ("-O", "extglob")) is False:
        return Verdict(True)
    if answer is None:
        return Verdict(None)
    return Verdict(True) if answer is False else Verdict(False, answer)


def bash_refuses(text: str, bash: str | None = None) -> SyntaxProblem | None:
    """The syntax error bash reports for the script, or None when bash parses it (or cannot be asked)."""
    return verdict(text, bash).problem


def _ask(bash: str, text: str, options: tuple) -> SyntaxProblem | Literal[False] | None:
    """bash's syntax error, False when it parses the script, None when it could not be asked."""
    try:
        done = subprocess.run(
            [bash, "--norc", "--noprofile", *options, "-n"],
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=TIMEOUT_S,
            env={"LC_ALL": "C"},
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode == 0:
        return False
    first = done.stderr.decode("utf-8", "replace").strip().split("\n")[0]
    return _problem(first, text.split("\n"))


def _problem(message: str, lines: list[str]) -> SyntaxProblem | None:
    m = _LINE.match(message)
    if m is None:
        return None
    number, what = int(m.group(1)), m.group(2).strip()
    source_line = lines[number - 1] if 0 < number <= len(lines) else ""
    near = _NEAR.search(what)
    if near:
        return SyntaxProblem(number, _column(source_line, near.group(1)), "token", near.group(1))
    matching = _MATCHING.search(what)
    if matching:
        opener = {")": "(", "}": "{", "]": "["}.get(matching.group(1), matching.group(1))
        return SyntaxProblem(number, _column(source_line, opener, last=True), "eof-matching", matching.group(1))
    if "unexpected end of file" in what:
        return SyntaxProblem(number, len(source_line) + 1, "eof")
    return SyntaxProblem(number, 1, "other", detail=what)


def _column(line: str, token: str, last: bool = False) -> int:
    """1-based column of the token on the line (its last occurrence for an opener), else past the end."""
    at = line.rfind(token) if last else line.find(token)
    return at + 1 if token and at >= 0 else len(line) + 1
