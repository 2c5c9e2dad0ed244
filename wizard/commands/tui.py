"""`verl-wizard` / `verl-wizard tui`: the guided TUI. Needs a terminal (exit 3 without one)."""

from __future__ import annotations

import argparse
import sys

from wizard.commands.output import emit
from wizard.errors import ExitStatus


def register(subparsers) -> None:
    p = subparsers.add_parser("tui", help="the guided wizard (the default command)")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(p) -> None:
    p.add_argument("--preset", help="start from a preset")
    p.add_argument("--answers", help="resume from an answers file")
    p.add_argument("--topology", help="a fake topology (2x8xH100), a `nvidia-smi topo -m` file, or `detect`")
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the interface")
    p.add_argument("--out", default="verl-run", help="folder the Review step writes into")


def build_app(args: argparse.Namespace):
    """The app for these arguments (used by run() and by tests)."""
    from wizard.i18n import set_language

    set_language(args.lang)
    from wizard.commands.common import read_answers_file
    from wizard.core.presets import load_preset
    from wizard.tui.app import WizardApp
    from wizard.tui.session import Session

    layers = []
    if args.preset:
        layers.append(("preset", load_preset(args.preset).values))
    if args.answers:
        layers.append(("answers file", read_answers_file(args.answers)))
    session = Session(layers=layers, out_dir=args.out, preset=args.preset)
    if args.topology:
        session.set_topology(args.topology)
    start = "models" if (args.preset or args.answers) else "start"
    return WizardApp(session, answers_path=args.answers or "verl-wizard-answers.yaml", start_step=start)


def run(args: argparse.Namespace) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write("verl-wizard: error: the wizard needs a terminal; use `verl-wizard new --preset P --out DIR` in scripts\n")
        return ExitStatus.NEEDS_INPUT
    app = build_app(args)
    written = app.run() or []
    from wizard.tui.app import exit_report

    emit(exit_report(written, app.session.out_dir))
    return ExitStatus.OK
