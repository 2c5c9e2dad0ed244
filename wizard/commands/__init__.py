"""Headless subcommands: each module has register(subparsers) and run(args) -> exit code.

The commands are this package's attributes (`wizard.commands.new`), each imported when first asked for: the
one place that stays lazy, so that `verl-wizard` with no arguments imports the TUI's command alone and paints
its first screen before the answers model and the rules are loaded (as textual.widgets loads its widgets).
A command whose module is missing is an ImportError, never a command that silently goes away.
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS = ("tui", "new", "check", "topo", "presets", "explain", "data", "preflight", "serve", "doctor")


def __getattr__(name: str) -> ModuleType:
    if name not in COMMANDS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{name}")
    globals()[name] = module
    return module
