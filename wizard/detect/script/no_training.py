"""Why a readable launch script starts no verl program itself: the reasons SCRIPT-017 gives after those of
launch.not_main_ppo (another verl program, an unknown program, an `exit` first).

Two cases are told apart, from the commands bash would start (the reader's trace, nothing is executed):
- it hands the run to another script (`bash x.sh`, `sh x.sh`, `./x.sh`, or a `source`d file the reader could not
  read): the reason names that script, and where it is when the path exists, so the user checks that one;
- it runs only programs that are not verl (data preparation, installs, model downloads, servers): the reason names
  up to three of them, so a CI that was given the wrong file sees at once what it checked.
"""

from __future__ import annotations

import os

from wizard.detect.script.bash.values import Spread, known, shown
from wizard.i18n.text import Msg, msg

__all__ = ["TEXT_COMMANDS", "hand_offs", "other_programs"]

SHOWN = 3  # how many scripts or programs a reason names
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
_SCRIPT_SUFFIXES = (".sh", ".bash")
# Words that run the command after them (`nohup bash train.sh &`): the program is the word that follows.
_WRAPPERS = frozenset({"nohup", "exec", "time", "setsid", "env", "sudo", "stdbuf"})
# Commands that print or filter text: a `python -m verl...` in their words is text, never a command that runs.
TEXT_COMMANDS = frozenset({"echo", "printf", "cat", ":", "tee", "grep", "sed", "awk"})
# The shell's plumbing: named only when the script runs nothing else, since it says nothing of what the script does.
_PLUMBING = TEXT_COMMANDS | frozenset(
    {
        *("mkdir", "rm", "mv", "cp", "ln", "ls", "touch"),
        *("chmod", "sleep", "kill", "pkill", "ps", "wc", "head", "tail", "xargs", "sort", "uniq", "cut", "tr"),
        *("dirname", "basename", "date", "true", "false", "test", "[", "pwd", "which", "ifconfig", "hostname"),
        *("realpath", "readlink", "whoami", "id", "uname", "nproc", "seq", "find", "tar", "clear"),
    }
)


def hand_offs(trace, notes) -> Msg | None:
    """The scripts this one runs (`bash x.sh`, `./x.sh`, a `source` that was not read), up to SHOWN of them in the
    order bash runs them; None when it runs no other script."""
    items: list[Msg] = []
    seen: set[str] = set()
    for step in trace:
        run = _script_run(_program(step.fields))
        if run is None or run[0] in seen:
            continue
        command, path = run
        seen.add(command)
        found = _found(path, step.file)
        if found is None:
            items.append(msg("script.hand_off", command=command, line=step.line))
        else:
            items.append(msg("script.hand_off_found", command=command, line=step.line, path=found))
    for kind, line, target in notes:
        # a sourced file the reader followed was read as part of this script; these two it could not read
        if kind in ("source-missing", "source-unknown") and f"source {target}" not in seen:
            seen.add(f"source {target}")
            items.append(msg("script.hand_off_unread", path=target, line=line))
    if not items:
        return None
    return msg("script.hands_off", scripts=_at_most(items), n=len(items))


def other_programs(trace) -> Msg | None:
    """The programs a script of no verl program runs, up to SHOWN of them (the shell's plumbing only when it runs
    nothing else); None when it starts no command at all."""
    named: list[tuple[str, int]] = []
    plumbing: list[tuple[str, int]] = []
    seen: set[str] = set()
    for step in trace:
        words = _program(step.fields)
        if not words or isinstance(words[0], _Unknown):
            continue
        command = _described(words)
        if command not in seen:
            seen.add(command)
            (plumbing if os.path.basename(words[0]) in _PLUMBING else named).append((command, step.line))
    listed = named or plumbing
    if not listed:
        return None
    items = [msg("script.program_run", command=c, line=line) for c, line in listed]
    return msg("script.runs_no_verl", programs=_at_most(items))


def _at_most(items: list[Msg]) -> list[Msg]:
    """The first SHOWN items, then "N more" for the rest."""
    return [*items[:SHOWN], msg("script.and_more", n=len(items) - SHOWN)] if len(items) > SHOWN else items


def _program(fields) -> list[str]:
    """The command's words from its program on (wrappers such as `nohup` and `env NAME=VALUE` left out); an
    unknown word is an `_Unknown`, written as the script writes it."""
    words: list[str] = []
    for f in fields:
        text = None if isinstance(f, Spread) else known(f)
        words.append(text if text is not None else _Unknown(f.shown if isinstance(f, Spread) else shown(f)))
    index = 0
    while index < len(words) and not isinstance(words[index], _Unknown) and os.path.basename(words[index]) in _WRAPPERS:
        index += 1
        while (
            index < len(words)
            and not isinstance(words[index], _Unknown)
            and ("=" in words[index] or words[index][:1] == "-")
        ):
            index += 1  # env's NAME=VALUE, nohup's or time's options
    return words[index:]


class _Unknown(str):
    """A word the reader cannot know, as the script writes it (`$SCRIPT`)."""


def _script_run(words: list) -> tuple[str, str] | None:
    """(`bash x.sh` or `./x.sh` as written, the script's path) when the command runs a script file; None otherwise
    (`bash -c '...'`)."""
    if not words or isinstance(words[0], _Unknown):
        return None
    program = os.path.basename(words[0])
    if program in _SHELLS:
        for index, word in enumerate(words[1:], start=1):
            if isinstance(word, _Unknown) or not word.startswith("-"):
                return " ".join(words[: index + 1]), word
            if not word.startswith("--") and "c" in word[1:]:
                return None  # `bash -c 'text'` runs text, not a file
        return None  # `bash` alone reads its commands from stdin
    if words[0].endswith(_SCRIPT_SUFFIXES):
        return words[0], words[0]
    return None


def _found(path: str, script_file: str) -> str | None:
    """Where the script named exists: as given (the working directory), or beside the script that runs it."""
    if isinstance(path, _Unknown):
        return None
    candidates = [path] if os.path.isabs(path) else [path, os.path.join(os.path.dirname(script_file), path)]
    for candidate in candidates:
        if os.path.isfile(candidate):
            return os.path.normpath(os.path.abspath(candidate))
    return None


def _described(words: list) -> str:
    """The program with what tells what it does: `pip install`, `python3 prepare.py`, `python3 -m http.server`."""
    out = [words[0]]
    rest = words[1:]
    if len(rest) >= 2 and rest[0] == "-m":
        out += rest[:2]
    elif rest and not rest[0].startswith("-") and len(rest[0]) <= 60 and not any(c.isspace() for c in rest[0]):
        out.append(rest[0])
    return " ".join(out)
