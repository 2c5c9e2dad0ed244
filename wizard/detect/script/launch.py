"""Read a bash launch script of verl the way bash would run it, and pull out the Hydra overrides.

`parse_launch_script` follows the script with the bash reader (wizard.detect.script.bash: variables, arrays,
arithmetic, functions, conditionals it can decide, argument loops, sourced files beside it), finds the
`python -m verl.trainer.main_ppo ...` command (also behind `uv run`, `torchrun`, `srun`, `nohup`,
`ray job submit ... --`, `VAR=value` prefixes, `| tee log`) and returns every override in order.
A value that depends on something the script does not say (an environment variable not given with
`env`, the script's arguments not given with `args`, a command's output) is kept as unknown, naming
where it comes from. Hydra config-group choices (`model_engine=megatron`) are read as choices. The
shell-level problems are in launch_problems.py. Nothing is executed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wizard.core import verl_schema
from wizard.detect.script.bash.control import TooComplex
from wizard.detect.script.bash.expand import ExpansionTooLarge
from wizard.detect.script.bash.syntax import SyntaxProblem, verdict
from wizard.detect.script.bash.values import ARGS, ENV, Origin, Spread, is_known, known, origins_of, shown
from wizard.detect.script.hydra_values import parse_override_value, reason_of, split_override
from wizard.detect.script.no_training import TEXT_COMMANDS, hand_offs, other_programs
from wizard.detect.script.problems import ScriptProblem, piped_away, problems_of
from wizard.detect.script.reading import follow
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg

__all__ = ["ENTRY_MODULES", "Choice", "LaunchScript", "Override", "ScriptProblem", "parse_launch_script"]

ENTRY_MODULES = ("verl.trainer.main_ppo", "verl.trainer.main_ppo_v0")
MAX_SCRIPT_CHARS = 512 * 1024
MAX_SOURCED_CHARS = 512 * 1024
_VALUE_FLAGS = frozenset({"--cfg", "-c", "--package", "-p", "--config-dir", "-cd", "--experimental-rerun"})


@dataclass(frozen=True)
class Override:
    """One Hydra override as bash passes it: `<prefix><key>=<raw_value>`; `value` is Hydra's reading.

    `unknown` holds the origins of the parts of the value the reader cannot know (empty when known);
    then `value` is None and `raw_value` shows the value as the script writes it (`$WORLD_SIZE`).
    """

    key: str
    raw_value: str
    value: Any
    prefix: str  # "", "+", "++" or "~"
    line: int
    unknown: frozenset = frozenset()
    pieces: tuple = ()  # the value as the reader holds it: text and Unknown pieces
    position: int = -1  # its index among `LaunchScript.arguments`

    @property
    def known(self) -> bool:
        return not self.unknown


@dataclass(frozen=True)
class Choice:
    """A Hydra config-group choice on the command line (`model_engine=megatron`)."""

    group: str
    option: str
    line: int
    unknown: frozenset = frozenset()
    position: int = -1


@dataclass
class LaunchScript:
    """The verl entry command of a launch script, read as bash would run it."""

    source: str
    entry_module: str
    config_path: str | None = None
    config_name: str | None = None
    overrides: list[Override] = field(default_factory=list)
    problems: list[ScriptProblem] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    passed_on: frozenset = frozenset()  # origins of "$@" passed to verl when the arguments are not given
    config_path_unknown: frozenset = frozenset()
    # which flag gave config_path: Hydra reads a relative --config-path inside verl's package (relative_to_entry),
    # a relative --config-dir against the working directory
    config_path_flag: str | None = None
    config_dir: str | None = None  # the folder whose primary config was read (set by script_input)
    sourced: list[str] = field(default_factory=list)
    reader_notes: list[tuple] = field(default_factory=list)
    certain: bool = True  # False when the verl command is inside a branch the reader could not decide
    because: frozenset = frozenset()  # then: the origins of the conditions it depends on
    env: dict = field(default_factory=dict)  # the environment the verl command gets (exported + prefixes)
    arguments: list = field(default_factory=list)  # what bash passes after the module: Texts (and Spreads)

    def as_dotted(self) -> dict[str, Any]:
        """{key: value} of the known overrides in the order given; the last one wins, `~key` removes it.

        A key whose last value is unknown is left out: see `unknown_keys`.
        """
        out: dict[str, Any] = {}
        for override in self.overrides:
            if override.prefix == "~" or not override.known:
                out.pop(override.key, None)
            else:
                out[override.key] = override.value
        return out

    def unknown_keys(self) -> dict[str, frozenset]:
        """Key -> the origins of its value, for every key whose last value is unknown."""
        out: dict[str, frozenset] = {}
        for override in self.overrides:
            if override.prefix == "~" or override.known:
                out.pop(override.key, None)
            else:
                out[override.key] = override.unknown
        return out

    @property
    def unresolved_vars(self) -> list[str]:
        """The names of the environment variables (and arguments) the unknown values come from."""
        names: list[str] = []
        for origins in self.unknown_keys().values():
            names.extend(o.name if o.kind == ENV else "$" + o.name for o in sorted(origins) if o.kind in (ENV, ARGS))
        return list(dict.fromkeys(names))


def check_text(text: str | bytes, source: str) -> str:
    """The script as text; UsageError when it is binary, not UTF-8, or too large for a launch script."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(msg("script.not_utf8", source=source)) from None
    if len(text) > MAX_SCRIPT_CHARS:
        raise UsageError(msg("script.too_large", source=source, chars=len(text), limit=MAX_SCRIPT_CHARS))
    controls = sum(1 for c in text if c == "\ufffd" or (c < " " and c not in "\t\n\r\f\v\x1b"))
    if "\x00" in text or controls > max(8, len(text) // 100):
        raise UsageError(msg("script.binary", source=source))
    return text


def find_entry(fields: list) -> tuple[int, str] | None:
    """(index of the first argument after the module, module) when the fields start verl's trainer."""
    words = [known(f) if not isinstance(f, Spread) and is_known(f) else None for f in fields]
    if not words or words[0] is None or os.path.basename(words[0]) in TEXT_COMMANDS:
        return None
    for index, word in enumerate(words):
        if word is None:
            continue
        following = words[index + 1] if index + 1 < len(words) else None
        if word == "-m" and following is not None and following in ENTRY_MODULES:
            return index + 2, following
        if word.startswith("-m") and word[2:] in ENTRY_MODULES:
            return index + 1, word[2:]
        m = re.fullmatch(r"(?:.*/)?verl/trainer/(main_ppo(?:_v0)?)\.py", word)
        if m:
            return index + 1, "verl.trainer." + m.group(1)
    return None


def parse_launch_script(
    text: str | bytes,
    source: str = "<script>",
    env: Mapping[str, str] | None = None,
    args: list[str] | None = None,
    read_file: Callable[[str], str | None] | None = None,
) -> LaunchScript:
    """Read a bash launch script and return its verl entry command with every Hydra override.

    `env` is the environment the script is read in (`--env NAME=VALUE`): it also stands in for a
    variable the script sets from a command's output. `args` are its positional arguments (`-- ARG...`);
    None means they are not known. `read_file(path)` reads a file the script sources (None: not read).
    Raises UsageError when the text is not a shell script or has no verl command.
    """
    text = check_text(text, source)
    try:
        trace, notes, sourced = follow(text, source, env or {}, args, read_file or _no_files)
    except ExpansionTooLarge:
        raise UsageError(msg("script.expands_too_much", source=source)) from None
    except (TooComplex, RecursionError):
        raise UsageError(msg("script.too_complex", source=source)) from None
    bash_said = verdict(text)
    script: LaunchScript | None = None
    verl_step = None
    for step in trace:
        entry = find_entry(step.fields)
        if entry is None:
            # verl_step is set with script: a verl command has been read
            lost = piped_away(text, step, verl_step) if verl_step is not None and script is not None else None
            if lost is not None:
                script.problems.append(lost)
            continue
        if script is not None:
            script.problems.append(
                ScriptProblem("multiple-commands", step.line, msg("script.another_command", line=step.line))
            )
            continue
        script = LaunchScript(
            source, entry[1], sourced=sourced, reader_notes=notes, certain=step.certain, because=step.because
        )
        script.env = {**step.env, **step.assigns}
        _read_args(script, step, entry[0])
        script.problems.extend(problems_of(text, step, script, bash_said.trusts_tree_quotes()))
        verl_step = step
    refused = bash_said.problem
    if script is None:
        if refused is not None:
            raise UsageError(msg("script.refused_no_command", source=source, problem=syntax_message(refused)))
        raise not_main_ppo(source, trace, notes) or UsageError(msg("script.no_verl_command", source=source))
    if refused is not None and not any(p.kind == "unterminated-quote" for p in script.problems):
        script.problems.append(ScriptProblem("syntax-error", refused.line, syntax_message(refused)))
    script.problems.sort(key=lambda problem: problem.line)
    return script


class NotMainPpo(UsageError):
    """A readable script with nothing for main_ppo to judge (another verl program, a hand-off to another script,
    only programs that are not verl, an `exit` first): check reports it (SCRIPT-017, exit 0); a command that needs
    the overrides (`new --from-script`, the TUI's import) catches UsageError, this class's base, and refuses it
    (exit 2)."""

    def __init__(self, message: Msg, reason: Msg):
        super().__init__(message)
        self.reason = reason


def not_main_ppo(source: str, trace, notes) -> NotMainPpo | None:
    """Why the script has no main_ppo command, when bash shows it: it runs another verl module (the first such
    command), a command's program is unknown here (`$COMMAND ...`), an `exit` ends it before any command, it hands
    the run to another script (`bash x.sh`), or it runs only programs that are not verl (no_training.py).
    None when it starts no command at all."""
    for step in trace:
        words = [(known(f) or "") if not isinstance(f, Spread) else "" for f in step.fields]
        if not words or os.path.basename(words[0]) in TEXT_COMMANDS:
            continue
        for index, word in enumerate(words):
            module = (
                words[index + 1] if word == "-m" and index + 1 < len(words) else word[2:] if word[:2] == "-m" else ""
            )
            if module and module not in ENTRY_MODULES and _verl_program(module, words[index + 1 :]):
                reason = msg("script.other_entry", module=module, line=step.line)
                return NotMainPpo(msg("script.no_verl_command_because", source=source, reason=reason), reason)
    for step in trace:
        # `$COMMAND overrides...` with COMMAND unset here: the program is unknown, so it may be main_ppo.
        first = step.fields[0] if step.fields else ()
        if isinstance(first, Spread) or not is_known(first):
            written = first.shown if isinstance(first, Spread) else shown(first)
            reason = msg("script.unknown_program", shown=written, line=step.line)
            return NotMainPpo(msg("script.no_verl_command_because", source=source, reason=reason), reason)
    if not trace:
        for kind, line, status in notes:
            if kind == "exit":
                reason = msg("script.exits_first", line=line, status=status)
                return NotMainPpo(msg("script.no_verl_command_because", source=source, reason=reason), reason)
    # it runs no verl program itself: it hands the run to another script, or it runs only other programs
    elsewhere = hand_offs(trace, notes) or other_programs(trace)
    if elsewhere is not None:
        return NotMainPpo(msg("script.no_verl_command_because", source=source, reason=elsewhere), elsewhere)
    return None


# verl's own packages, and verl-recipe's (`python -m recipe.dapo.main_dapo`, run from a checkout of the recipes)
_VERL_PACKAGES = ("verl", "recipe")
# The sections of verl's config: a program given `trainer.nnodes=...` style overrides is a verl trainer of its own
# (a recipe module run from its own folder, `python -m rep_exp.main_rep_exp`)
_VERL_SECTIONS = ("actor_rollout_ref.", "algorithm.", "critic.", "data.", "reward_model.", "reward.", "trainer.")


def _verl_program(module: str, arguments: list[str]) -> bool:
    """Whether `python -m module arguments...` runs a verl program: a module of verl's or verl-recipe's packages,
    or one given overrides of verl's config sections (with or without Hydra's +, ++ or ~)."""
    if module.split(".")[0] in _VERL_PACKAGES or module.startswith("verl_"):
        return True
    return any(word.lstrip("+~").startswith(_VERL_SECTIONS) and "=" in word for word in arguments)


def syntax_message(problem: SyntaxProblem) -> Msg:
    """The finding's text for a syntax error bash reports."""
    where = {"line": problem.line, "column": problem.column}
    if problem.kind == "token":
        return msg("script.syntax.token", token=problem.token, **where)
    if problem.kind == "eof-matching":
        return msg("script.syntax.eof_matching", token=problem.token, **where)
    if problem.kind == "eof":
        return msg("script.syntax.eof", **where)
    return msg("script.syntax.other", detail=problem.detail, **where)


def config_name(text: str) -> str:
    """The primary config `--config-name` names, as Hydra looks it up: `ppo_megatron_trainer.yaml` is
    `ppo_megatron_trainer` (Hydra adds the `.yaml` suffix only when it is not there)."""
    return text.strip("'\"").removesuffix(".yaml")


def _no_files(path: str) -> None:
    return None


def _read_args(script: LaunchScript, step, start: int) -> None:
    groups = verl_schema.config_groups()
    items = list(zip(step.fields, step.lines, step.raws, strict=False))[start:]
    script.arguments = [value for value, _, _ in items]
    index = 0
    while index < len(items):
        value, line, raw = items[index]
        position = index
        index += 1
        if isinstance(value, Spread):
            script.passed_on |= value.origins
            continue
        text = shown(value)
        flag, eq, _ = text.partition("=")
        if flag in ("--config-path", "-cp", "--config-name", "-cn", "--config-dir", "-cd"):
            target = value
            if not eq and index < len(items) and not isinstance(items[index][0], Spread):
                target, index = items[index][0], index + 1
            elif eq:
                target = _after_first(value, "=")
            if flag in ("--config-path", "-cp") or (flag in ("--config-dir", "-cd") and script.config_path is None):
                script.config_path = shown(target)
                script.config_path_unknown = origins_of(target)
                script.config_path_flag = "--config-dir" if flag in ("--config-dir", "-cd") else "--config-path"
            elif flag in ("--config-dir", "-cd"):
                continue
            else:
                script.config_name = config_name(shown(target))
            continue
        if text.startswith("-"):
            index += text in _VALUE_FLAGS
            continue
        key_known = _key_is_known(value)
        parts = split_override(text)
        if parts is None or not key_known:
            if not key_known:
                script.problems.append(
                    ScriptProblem("unknown-override", line, msg("script.override_unknown", line=line, text=text))
                )
            else:
                script.problems.append(
                    ScriptProblem("not-an-override", line, msg("script.not_an_override", line=line, text=text))
                )
            continue
        prefix, key, raw_value = parts
        unknown = origins_of(value)
        if prefix in ("", "+", "++") and key in groups and raw_value is not None:
            script.choices.append(Choice(key, raw_value if not unknown else "", line, unknown, position))
            continue
        parsed: Any = raw_value
        if raw_value is not None and not unknown:
            try:
                parsed = parse_override_value(raw_value)
            except ValueError as exc:
                script.problems.append(
                    ScriptProblem(
                        "bad-value",
                        line,
                        msg("script.bad_value", line=line, name=key, value=raw_value, reason=reason_of(exc)),
                    )
                )
            if raw_value == "" and prefix != "~" and not raw.endswith(("''", '""')):
                script.problems.append(
                    ScriptProblem("empty-value", line, msg("script.empty_value", line=line, name=prefix + key))
                )
        pieces = _after_first(value, "=") if unknown else ()
        script.overrides.append(
            Override(key, raw_value or "", None if unknown else parsed, prefix, line, unknown, pieces, position)
        )


def _key_is_known(value) -> bool:
    """True when the part before the first `=` is known text (the value after it may be unknown)."""
    for piece in value:
        if not isinstance(piece, str):
            return False
        if "=" in piece:
            return True
    return True


def _after_first(value, sep: str):
    out, found = [], False
    for piece in value:
        if not found and isinstance(piece, str) and sep in piece:
            out.append(piece.split(sep, 1)[1])
            found = True
        elif found:
            out.append(piece)
    return tuple(p for p in out if p != "")


def keys_fed_by(script: LaunchScript) -> dict[Origin, list[str]]:
    """Origin -> the override keys (and group choices) whose value it makes unknown."""
    out: dict[Origin, list[str]] = {}
    for key, origins in script.unknown_keys().items():
        for origin in origins:
            out.setdefault(origin, []).append(key)
    for choice in script.choices:
        for origin in choice.unknown:
            out.setdefault(origin, []).append(choice.group)
    return out
