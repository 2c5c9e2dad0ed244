"""The processes `verl-wizard serve` starts for its browser tabs, as doors over the CLI (serve imports no door).

    python -m wizard.tabs child tui --preset P ...       one tab's wizard, exec'd afresh
    python -m wizard.tabs forkserver tui --preset P ...  the warm parent that forks the tabs' wizards

A tab's wizard is `verl-wizard tui` (wizard.cli.main) that ends with the server (wizard.serve.child); the fork
server (wizard.serve.forkserver) imports and builds here what every tab's wizard imports and builds, once.
"""

from __future__ import annotations

import importlib
import sys

from wizard import cli
from wizard.commands.tui import build_app
from wizard.errors import UsageError
from wizard.serve import forkserver
from wizard.serve.child import TAB_NAME, end_with_server, name_process

WARM_MODULES = (
    "wizard.cli",
    "wizard.commands.tui",
    "wizard.tui.app",
    "wizard.tui.session",
    "wizard.tui.delivery",
    "wizard.tui.screens.start",
    "wizard.tui.screens.models",
    "wizard.tui.screens.data",
    "wizard.tui.screens.batch",
    "wizard.tui.screens.hardware",
    "wizard.tui.screens.deployment",
    "wizard.tui.screens.review",
    "wizard.core.presets",
    "wizard.core.rules",
    "wizard.emit.artifacts",
    "wizard.emit.bundle",
    "wizard.detect.hardware.source",
    "textual.drivers.web_driver",
)


def child(argv: list[str]) -> int:
    """One tab's wizard: `verl-wizard` with argv, ending when the server that started it ends."""
    end_with_server()
    name_process(TAB_NAME)
    return cli.main(argv)


def warm(args: list[str]) -> None:
    """Import what every wizard imports and fill the caches its first screens fill, so that children share them.

    `args` are the tabs' wizard arguments (tui --preset P ...): the same app is built once here (never run),
    its session evaluated and its files rendered, which loads verl's key tree, the presets and the rules.
    """
    for name in WARM_MODULES:
        importlib.import_module(name)
    try:
        app = build_app(cli.parse(args))
        session = app.session
        session.findings  # noqa: B018 - evaluates the rules
        session.render_files()
    except UsageError:
        pass  # the tabs' wizards say it themselves; serve checked the options already


def main(argv: list[str]) -> int:
    """`child ARGS...` or `forkserver ARGS...` (see the module's docstring)."""
    role, args = argv[0], argv[1:]
    if role == "forkserver":
        forkserver.main(args, warm, cli.main)
        return 0
    return child(args)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
