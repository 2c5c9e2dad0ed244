"""The `verl-wizard` command line: the TUI by default, and the headless commands of DESIGN.md section 4.

Exit codes: 0 no errors, 1 errors found, 2 unusable input (one line on stderr, never a traceback),
3 an answer is needed and there is no terminal, 130 cancelled.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from wizard import __version__
from wizard.errors import ExitStatus, UsageError

COMMANDS = ("tui", "new", "check", "topo", "presets", "explain", "data", "preflight", "serve")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad flag in one line and exits 2."""

    def error(self, message: str):
        sys.stderr.write(
            f"verl-wizard: error: {message} (see verl-wizard {self.prog.split()[-1] if ' ' in self.prog else ''} --help)\n".replace(
                "  ", " "
            )
        )
        raise SystemExit(ExitStatus.BAD_INPUT)


def build_parser(commands: tuple[str, ...] = COMMANDS) -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="verl-wizard",
        description="Set up a verl RL post-training run correctly: a guided TUI and headless checks.",
    )
    parser.add_argument("--version", action="version", version=f"verl-wizard {__version__}")
    subparsers = parser.add_subparsers(dest="command", parser_class=OneLineParser)
    for name in commands:
        try:
            module = importlib.import_module(f"wizard.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"wizard.commands.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def commands_needed(argv: list[str]) -> tuple[str, ...]:
    """The commands whose modules parsing argv needs: the TUI's alone when argv starts the TUI.

    Each command module imports what its command runs (the answers model, the rules); `verl-wizard` with
    no arguments paints its first screen before those are loaded.
    """
    return ("tui",) if not argv or argv[0] == "tui" else COMMANDS


def parse(argv: list[str]) -> argparse.Namespace:
    """argv -> the command's arguments, as `main` reads them (no command: the TUI)."""
    parser = build_parser(commands_needed(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        from wizard.commands import tui

        args = parser.parse_args(["tui", *argv])
        args.func = tui.run
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(list(argv) if argv is not None else sys.argv[1:])
    try:
        return int(args.func(args))
    except UsageError as exc:
        # Messages may quote the user's input; whatever it holds, the error stays one line.
        message = " ".join(str(exc).split())
        sys.stderr.write(f"verl-wizard: error: {message}\n")
        return ExitStatus.BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("verl-wizard: cancelled\n")
        return ExitStatus.CANCELLED
    except BrokenPipeError:
        return ExitStatus.OK


if __name__ == "__main__":
    raise SystemExit(main())
