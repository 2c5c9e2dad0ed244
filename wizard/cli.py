"""The `verl-wizard` command line: the TUI by default, and the headless commands of DESIGN.md section 4.

Exit codes: 0 no errors, 1 errors found, 2 unusable input (one line on stderr, never a traceback),
3 an answer is needed and there is no terminal, 130 cancelled.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable

from wizard import __version__, commands
from wizard.commands import COMMANDS
from wizard.core.masking import mask
from wizard.detect.env import verl_head_start
from wizard.errors import ExitStatus, UsageError


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad flag in one line and exits 2."""

    def error(self, message: str):
        sys.stderr.write(
            f"verl-wizard: error: {message} (see verl-wizard {self.prog.split()[-1] if ' ' in self.prog else ''} --help)\n".replace(
                "  ", " "
            )
        )
        raise SystemExit(ExitStatus.BAD_INPUT)


def build_parser(names: tuple[str, ...] = COMMANDS) -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="verl-wizard",
        description="Set up a verl RL post-training run correctly: a guided TUI and headless checks.",
        usage="verl-wizard [--preset P] [--answers FILE] [--topology T] [--lang {en,zh}] [--out DIR] [--verl PYTHON|auto]\n"
        "       verl-wizard COMMAND ...",
        epilog="With no command, verl-wizard starts the guided TUI; its options (the same as `verl-wizard tui`): "
        "--preset P (start from a preset), --answers FILE (resume), --topology T (2x8xH100, a `nvidia-smi topo -m` "
        "file, or detect), --lang en|zh, --out DIR (the folder Review writes into), --verl PYTHON|auto [--timeout S] "
        "(Review asks that verl about the config.yaml the wizard would write).",
    )
    parser.add_argument("--version", action="version", version=f"verl-wizard {__version__}")
    subparsers = parser.add_subparsers(dest="command", parser_class=OneLineParser, prog="verl-wizard")
    for name in names:
        getattr(commands, name).register(subparsers)
    return parser


# The spellings that a command's module registers besides its own name, and that module.
ALIASES = {"validate-config": "check", "validate-dataset": "data"}


def commands_needed(argv: list[str]) -> tuple[str, ...]:
    """The commands whose modules parsing argv needs: the named command's alone, every one for top-level help.

    Each command module imports what its command runs (the answers model, the rules); `verl-wizard` with
    no arguments paints its first screen before those are loaded, and `check` loads none of the other
    commands' modules or their parsers (~6 ms of its start). Anything else (`--help`, an unknown command)
    gets every command, so help and the list of choices stay whole.
    """
    if not argv or argv[0] == "tui" or starts_tui(argv):
        return ("tui",)
    name = ALIASES.get(argv[0], argv[0])
    return (name,) if name in COMMANDS else COMMANDS


def starts_tui(argv: list[str]) -> bool:
    """Whether argv is the TUI's options with no command (`verl-wizard --lang zh --preset P`)."""
    return bool(argv) and argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")


# Commands whose `-- ARG...` are a launch script's positional arguments (None when no `--` was given).
SCRIPT_ARG_COMMANDS = ("check", "validate-config", "new")


def parse(argv: list[str]) -> argparse.Namespace:
    """argv -> the command's arguments, as `main` reads them (no command: the TUI)."""
    script_args = None
    if argv and argv[0] in SCRIPT_ARG_COMMANDS and "--" in argv:
        cut = argv.index("--")
        argv, script_args = argv[:cut], argv[cut + 1 :]
    if starts_tui(argv):
        argv = ["tui", *argv]
    parser = build_parser(commands_needed(argv))
    args = parser.parse_args(argv)
    args.script_args = script_args
    if not getattr(args, "func", None):
        args = parser.parse_args(["tui", *argv])
        args.func = commands.tui.run
    return args


def reopen_closed_streams() -> None:
    """Give a closed standard stream (`verl-wizard <&-`, `presets >&-`) /dev/null instead.

    Python sets sys.stdin/stdout/stderr to None when the descriptor was closed at start, and every print
    would raise AttributeError. /dev/null keeps the contract: no terminal means exit 3 for the TUI, and
    output nobody reads is dropped. The descriptor is filled too, so that no file opened later becomes
    "standard output" by taking the lowest free number.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            spare = os.open(os.devnull, os.O_RDWR)
            if spare != fd:
                os.dup2(spare, fd)
                os.close(spare)
        setattr(sys, name, open(fd, mode, encoding="utf-8", closefd=False))  # noqa: SIM115 - lives as long as the process


def main(argv: list[str] | None = None) -> int:
    reopen_closed_streams()
    own_process, argv = argv is None, list(argv) if argv is not None else sys.argv[1:]
    # verl's interpreter starts importing verl before the commands' modules load (wizard.detect.env.verl_head_start)
    verl_head_start.begin(argv)
    try:
        return _run(argv, load=load_and_freeze if own_process else parse)
    finally:
        verl_head_start.drop()
        if own_process:
            settle_for_exit()


PYDANTIC_PLUGINS = "PYDANTIC_DISABLE_PLUGINS"


def load_and_freeze(argv: list[str]) -> argparse.Namespace:
    """parse(argv) as the program does it: the collector held off while the command's modules load, then what
    they built frozen (the collector back on for the command's own objects).

    Loading builds ~36,000 objects that live as long as the process (classes, the answers model's validators,
    the rules) and a little garbage (argparse's formatters and lists: no finaliser, no file); the collections it
    sets off walk those objects again and again, and once frozen neither the command's collections nor the one
    at exit (settle_for_exit) walk them: ~15 ms of `check`'s 0.2 s start-up.

    While they load, pydantic looks for no plugins: its first model class would otherwise scan every installed
    distribution's entry points (~5 ms); the wizard's models want none. A PYDANTIC_DISABLE_PLUGINS the user set
    is kept, and the variable is as it was again before the command runs (and before any child process starts).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    plugins_set = PYDANTIC_PLUGINS in os.environ
    os.environ.setdefault(PYDANTIC_PLUGINS, "__all__")
    try:
        return parse(argv)
    finally:
        if not plugins_set:
            del os.environ[PYDANTIC_PLUGINS]
        gc.freeze()
        if was_enabled:
            gc.enable()


def settle_for_exit() -> None:
    """The process ends once main returns: collect its garbage once, then freeze the rest and stop the collector.

    The interpreter's teardown otherwise walks the whole heap (the answers model, the rules, ~44,000 objects)
    again while it clears the modules: 0.25 s of every command's wall time at load 5 here, and after `check
    --verl`'s answer it is time added to verl's. Garbage is collected first, so every finaliser of what the
    command made still runs (what loading built was frozen before the command ran: load_and_freeze).
    main(argv) called in-process (the tests) leaves the collector as it was.
    """
    gc.collect()
    gc.disable()
    gc.freeze()


def _run(argv: list[str], load: Callable[[list[str]], argparse.Namespace] = parse) -> int:
    args = load(argv)
    try:
        return int(args.func(args))
    except UsageError as exc:
        # Messages may quote the user's input; whatever it holds, the error stays one line. The message is
        # free text made where the input was refused: it is masked here as one value (wizard.core.masking).

        message = mask(" ".join(str(exc).split()))
        sys.stderr.write(f"verl-wizard: error: {message}\n")
        return ExitStatus.BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("verl-wizard: cancelled\n")
        return ExitStatus.CANCELLED
    except BrokenPipeError:
        return ExitStatus.OK


if __name__ == "__main__":
    raise SystemExit(main())
