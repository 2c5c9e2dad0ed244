"""`verl-wizard serve`: the wizard for a workshop, in browser tabs (one wizard process per tab).

A thin adapter: it checks the teacher's options the way `tui` does (a preset, answers file or topology that
is wrong is refused now, not in every student's tab), builds the command each tab's wizard runs, and hands
over to wizard/serve/server.py. textual-serve comes with the `serve` extra.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from wizard.commands.paths import TOPOLOGY, PathArg
from wizard.core.presets import load_preset
from wizard.detect.config.answers_file import read_answers_file
from wizard.detect.hardware.source import load_topology
from wizard.errors import ExitStatus, UsageError
from wizard.i18n import set_language
from wizard.i18n.text import msg

DEFAULT_MOST = 30
# Tuning for a machine that is busy with other work (and for benchmarks/bench_serve.py): how tabs' wizards
# start (fork: from a warm fork server, the default on Linux; exec: a fresh Python each) and how many build
# their first screen at once (default: one per CPU; 0: no limit).
LAUNCHER = "VERL_WIZARD_SERVE_LAUNCHER"
START_SLOTS = "VERL_WIZARD_SERVE_START_SLOTS"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "serve",
        help="serve the wizard to browser tabs for a workshop (pip install 'verl-wizard[serve]')",
        description="Every browser tab that opens the URL gets its own wizard, started with these options. "
        "Review's files and ctrl+s's answers arrive as downloads in the browser; nothing is written here.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (0: any free port)")
    p.add_argument("--preset", help="every wizard starts from this preset")
    p.add_argument("--answers", action=PathArg, help="every wizard starts from this answers file")
    p.add_argument(
        "--topology",
        action=PathArg,
        what=TOPOLOGY,
        help="the cluster the class plans for: a fake topology (2x8xH100) or a topo file",
    )
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the wizards and of these pages")
    p.add_argument("--max-sessions", type=int, default=DEFAULT_MOST, help=f"wizards at once (default {DEFAULT_MOST})")
    p.set_defaults(func=run)


def wizard_args(args: argparse.Namespace) -> list[str]:
    """The arguments of every tab's wizard: the teacher's options, paths made absolute (a wizard runs in a folder of its own)."""
    argv = ["tui", "--lang", args.lang]
    if args.preset:
        argv += ["--preset", args.preset]
    if args.answers:
        argv += ["--answers", os.path.abspath(args.answers)]
    if args.topology:
        topology = args.topology
        argv += ["--topology", os.path.abspath(topology) if os.path.exists(topology) else topology]
    return argv


def check_options(args: argparse.Namespace) -> None:
    """UsageError for options no wizard could start with, checked once here with the loaders the wizard uses."""
    set_language(args.lang)
    if args.max_sessions < 1:
        raise UsageError(msg("serve.bad_max_sessions", n=args.max_sessions))
    if not 0 <= args.port <= 65535:
        raise UsageError(msg("serve.bad_port", port=args.port))
    if args.preset:
        load_preset(args.preset)
    if args.answers:
        read_answers_file(args.answers)
    if args.topology and args.topology != "detect":
        load_topology(args.topology)


def run(args: argparse.Namespace) -> int:
    check_options(args)
    try:  # deferred: the server runs on aiohttp and textual-serve, which `verl-wizard --help` does not load
        from wizard.serve.server import WorkshopConfig, WorkshopServer
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("textual_serve", "aiohttp", "aiohttp_jinja2"):
            raise
        raise UsageError(msg("serve.needs_extra")) from None
    # deferred: the launchers start asyncio subprocesses; loaded with the server above, never for --help
    from wizard.serve.launchers import ExecLauncher, ForkServer, Launcher, default_launcher

    named: dict[str, Callable[[], Launcher]] = {"exec": ExecLauncher, "fork": ForkServer}
    launcher = named.get(os.environ.get(LAUNCHER, ""), default_launcher)()
    slots = os.environ.get(START_SLOTS, "")
    config = WorkshopConfig(
        host=args.host,
        port=args.port,
        wizard_args=wizard_args(args),
        most=args.max_sessions,
        lang=args.lang,
        launcher=launcher,
        start_slots=int(slots) if slots.isdigit() else None,
    )
    WorkshopServer(config).run()
    return ExitStatus.OK
