"""`verl-wizard` / `verl-wizard tui`: the guided TUI. Needs a terminal (exit 3 without one).

Importing this module is cheap on purpose: `verl-wizard` with no arguments imports it (and none of the
other commands) to paint its first screen.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from wizard.commands import verl_flags
from wizard.commands.paths import FOLDER, TOPOLOGY, PathArg
from wizard.core.preset_files import shipped_preset, unknown_preset
from wizard.emit.out_folders import out_problem
from wizard.errors import ExitStatus, UsageError
from wizard.i18n import set_language
from wizard.tui.delivery import delivery_from_environment, is_served


def register(subparsers) -> None:
    p = subparsers.add_parser("tui", help="the guided wizard (the default command)")
    add_arguments(p)
    p.set_defaults(func=run)


def add_arguments(p) -> None:
    p.add_argument("--preset", help="start from a preset")
    p.add_argument("--answers", action=PathArg, help="resume from an answers file")
    p.add_argument(
        "--topology",
        action=PathArg,
        what=TOPOLOGY,
        help="a fake topology (2x8xH100), a `nvidia-smi topo -m` file, or `detect`",
    )
    p.add_argument("--lang", choices=("en", "zh"), default="en", help="language of the interface")
    p.add_argument("--out", default="verl-run", action=PathArg, what=FOLDER, help="folder the Review step writes into")
    verl_flags.add_flags(p)  # Review's "Ask verl" asks it about the config.yaml the wizard would write


def build_app(args: argparse.Namespace, hold_gc: bool = False):
    """The app for these arguments (used by run() and by tests).

    Every start paints the Start step first, before the answers model and the rules are loaded; a preset,
    an answers file or a topology given here shows there as chosen, and the session that holds them is
    built right after the first paint. A name or path that does not exist is refused here (exit 2) before
    the app starts; a file whose contents are wrong is refused just after the first paint (the app exits
    with 2 and run() prints the one line).

    hold_gc (what `run` does): no cyclic garbage collection until the first screen is painted. Start-up
    allocates a long-lived heap (Textual's CSS and widgets, the answers model), and the collector would
    walk it again and again; the app collects once after the first paint and freezes what survives.
    """
    if hold_gc:
        gc.disable()
    try:
        return _build_app(args, hold_gc)
    except BaseException:
        gc.enable()
        raise


def refuse_missing(args: argparse.Namespace) -> None:
    """UsageError for a preset, answers file or topology that does not exist, checked without the answers model.

    Only the failing case loads the module that words the error (so the message is the one `new` gives).
    """
    if problem := out_problem(getattr(args, "out", None)):
        raise UsageError(str(problem))
    if args.preset is not None and shipped_preset(args.preset) is None:
        raise unknown_preset(args.preset)
    if args.answers is not None and not os.path.isfile(args.answers):
        from wizard.detect.config.answers_file import read_answers_file  # deferred: the answers model (pydantic)

        read_answers_file(args.answers)
    spec = None if args.topology is None else args.topology.strip()
    if spec is not None and spec != "detect" and not os.path.exists(spec):
        # deferred: the topology readers (NVML's wrapper, ~10 ms) load only when a topology is named
        from wizard.detect.hardware.source import load_topology

        load_topology(spec)  # a fake name: checked here, built again with the session


def verl_of(args: argparse.Namespace) -> tuple[str, float] | None:
    """(the interpreter --verl names, --timeout) for Review's "Ask verl"; None without --verl. UsageError (exit 2,
    before the app starts) for an interpreter that is not there or has no verl."""
    value = getattr(args, "verl", None)
    if value is None:
        return None
    # deferred: the verdict's reader loads only with --verl (`verl-wizard` alone paints before it; test_startup.py)
    from wizard.detect.env import verl_verdict

    python = verl_verdict.find_python(value)  # `auto` finds one that has verl; a named one is checked here
    python = python if value == "auto" else verl_verdict.require_verl(python)
    return python, getattr(args, "timeout", verl_flags.DEFAULT_TIMEOUT_S)


def _build_app(args: argparse.Namespace, hold_gc: bool):
    set_language(args.lang)
    refuse_missing(args)
    verl = verl_of(args)
    from wizard.tui.app import WizardApp  # deferred: Textual, which `verl-wizard --help` and `tui --help` never load

    def make_session():
        # deferred: the answers model (pydantic), the readers and the rules load after the first paint
        from wizard.tui.session import Session

        return Session.from_inputs(args.out, preset=args.preset, answers=args.answers, topology=args.topology)

    return WizardApp(
        make_session,
        answers_path=args.answers or "verl-wizard-answers.yaml",
        settle_gc=hold_gc,
        chosen={"preset": args.preset, "answers": args.answers, "topology": args.topology},
        delivery=delivery_from_environment(),
        verl=verl,
    )


def report_of(app, default_out: str) -> str:
    """The exit report of a closed app: what it wrote, whichever way it was left (Textual's own quit returns
    no result), with the launch command of the folder the files went to (not the one the field shows now)."""
    from wizard.tui.exit_report import exit_report  # deferred: it reads the answers model (pydantic)

    ready = app.session_ready
    return exit_report(
        app.written,
        app.written_dir or (app.session.out_dir if ready else default_out),
        app.session.layered.answers if ready else None,
        app.delivered,
        app.saved_answers,
    )


def run(args: argparse.Namespace) -> int:
    served = is_served()  # `verl-wizard serve` started this wizard: its terminal is a browser tab
    if not served and not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write(
            "verl-wizard: error: the wizard needs a terminal; use `verl-wizard new --preset P --out DIR` in scripts\n"
        )
        return ExitStatus.NEEDS_INPUT
    app = build_app(args, hold_gc=True)
    try:
        app.run()
    finally:
        gc.enable()
    if app.start_error:
        raise UsageError(app.start_error)
    from wizard.commands.output import emit  # deferred: yaml and the findings load once the app has closed

    report = report_of(app, args.out)
    if served:
        # stdout carries the browser's terminal (textual-serve's packets); the server logs what comes on stderr.
        sys.stderr.write(report + "\n")
    else:
        emit(report)
    return ExitStatus.OK
