"""`verl-wizard check PATH` (alias `validate-config --config PATH`): read a config or launch script, run every rule."""

from __future__ import annotations

import argparse
from pathlib import Path

from wizard.commands.output import as_json, as_text, emit
from wizard.core.findings import has_errors
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.facts import gather
from wizard.detect.topology_source import topology_layer
from wizard.errors import ExitStatus


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check",
        help="check a config.yaml, a run's .hydra/config.yaml, an answers file or a launch script",
        description="Read a verl config or launch script into answers and run every rule on it.",
    )
    p.add_argument(
        "path", help="config.yaml, .hydra/config.yaml, answers.yaml, or a .sh calling python -m verl.trainer.main_ppo"
    )
    _common(p)
    alias = subparsers.add_parser("validate-config", help="alias of check (the spelling some guides use)")
    alias.add_argument("--config", dest="path", required=True, help="the config or script to check")
    _common(alias)


def _common(p) -> None:
    p.add_argument(
        "--mode",
        choices=("local", "cluster"),
        default="local",
        help="local: paths must exist on this machine; cluster: paths are for the cluster and are not checked",
    )
    p.add_argument("--topology", help="a fake topology, a `nvidia-smi topo -m` file, or `detect`")
    p.add_argument(
        "--env",
        action="append",
        metavar="NAME=VALUE",
        help="an environment variable of a launch script (also stands in for a variable it sets from a command); "
        "repeatable. The script's own arguments go after --",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from wizard.commands.common import parse_env_flags
    from wizard.detect.config_files import read_check_input
    from wizard.detect.manifests import read_if_manifest
    from wizard.detect.script_input import finish_notes

    env, script_args = parse_env_flags(getattr(args, "env", None)), getattr(args, "script_args", None)
    source = read_if_manifest(Path(args.path), env, script_args) or read_check_input(Path(args.path), env, script_args)
    topology, _ = topology_layer(args.topology)
    layered = build([(source.kind, source.flat)])
    ctx = context_for(
        layered.answers,
        layered.flat,
        mode=args.mode,
        topology=topology,
        script=source.script,
        deploy=getattr(source, "deploy", None),
        unknowns=source.unknowns,
        **gather(layered.answers, args.mode),
    )
    findings = evaluate(ctx)
    notes = [*source.notes, *finish_notes(source, ctx)]
    if args.format == "json":
        emit(as_json(findings, source=source.kind, notes=[str(note) for note in notes]))
    else:
        emit(f"{args.path}: read as a {source.kind}")
        for note in notes:
            emit(f"note: {note}")
        emit(as_text(findings))
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK
