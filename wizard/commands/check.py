"""`verl-wizard check PATH` (alias `validate-config --config PATH`): read a config or launch script, run every rule.

A thin door over the workspace: the file read by wizard.detect is its one layer of answers.
"""

from __future__ import annotations

import argparse
from functools import partial
from pathlib import Path
from typing import Any

from wizard.commands import verl_ask, verl_flags, verl_version
from wizard.commands.common import parse_env_flags
from wizard.commands.output import as_json, as_text, emit
from wizard.commands.paths import TOPOLOGY, PathArg
from wizard.core.findings import has_errors, info
from wizard.core.rules.catalogue import why
from wizard.core.rules.verl.tree import held_to_installed
from wizard.core.workspace import ANSWERS_FILE, LAUNCH_SCRIPT
from wizard.detect.config.files import read_check_input
from wizard.detect.deploy.manifests import read_if_manifest
from wizard.detect.inputs import open_workspace, use_topology
from wizard.detect.script.check_input import finish_notes
from wizard.detect.script.launch import NotMainPpo
from wizard.emit.folder_read import reading
from wizard.errors import ExitStatus
from wizard.i18n.text import msg


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "check",
        help="check a config.yaml, a run's .hydra/config.yaml, an answers file or a launch script",
        description="Read a verl config or launch script into answers and run every rule on it.",
    )
    p.add_argument(
        "path",
        action=PathArg,
        help="config.yaml, .hydra/config.yaml, answers.yaml, or a .sh calling python -m verl.trainer.main_ppo",
    )
    _common(p)
    alias = subparsers.add_parser("validate-config", help="alias of check (the spelling some guides use)")
    alias.add_argument("--config", dest="path", action=PathArg, required=True, help="the config or script to check")
    _common(alias)


def _common(p) -> None:
    p.add_argument(
        "--mode",
        choices=("local", "cluster"),
        default="local",
        help="local: paths must exist on this machine; cluster: paths are for the cluster and are not checked",
    )
    p.add_argument(
        "--topology", action=PathArg, what=TOPOLOGY, help="a fake topology, a `nvidia-smi topo -m` file, or `detect`"
    )
    p.add_argument(
        "--env",
        action="append",
        metavar="NAME=VALUE",
        help="an environment variable of a launch script (also stands in for a variable it sets from a command); "
        "repeatable. The script's own arguments go after --",
    )
    verl_flags.add_flags(p)
    verl_version.add_flag(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # verl's interpreter starts first (one that is not there is exit 2 at once): its import of verl, the slow part,
    # runs while the input is read and judged; it is stopped if the input turns out unusable.
    tree = verl_version.start(args)  # before verl's child: --verl-version with --verl is exit 2 at once
    asking = verl_ask.start(args)
    try:
        return _checked(args, asking, tree)
    finally:
        verl_ask.stop(asking)


def _checked(args: argparse.Namespace, asking, tree) -> int:
    env, script_args = parse_env_flags(getattr(args, "env", None)), getattr(args, "script_args", None)
    path = Path(args.path)
    try:
        with reading(path):  # no writer changes the folder meanwhile; one a killed write left mixed is refused
            source = read_if_manifest(path, env, script_args) or read_check_input(path, env, script_args)
    except NotMainPpo as exc:
        return _not_main_ppo(args, exc)
    # The file's launch script (its overrides with their +/~ prefixes), a manifest's deployment and the values
    # the script leaves unknown are facts the rules judge; its values are the answers, judged against the
    # topology without taking its GPU count.
    facts = {"script": source.script, "deploy": getattr(source, "deploy", None), "unknowns": source.unknowns}
    # Only an answers file (or a manifest) says where the run starts; a verl config or a launch script may run anywhere.
    facts["target_known"] = source.kind == "answers file" or facts["deploy"] is not None
    workspace = open_workspace(mode=args.mode, facts=facts)
    use_topology(workspace, args.topology, counts=False)
    workspace.set_layer(LAUNCH_SCRIPT if source.kind == "launch script" else ANSWERS_FILE, source.flat)
    # verl is given its question and answers while the wizard's own rules run; its findings join theirs.
    question = partial(verl_ask.question_for, source, path, env, workspace)  # --verl-version composes the same
    verl_ask.send(asking, question)
    findings = workspace.findings
    verl_findings, verl_facts, verl_notes = verl_ask.finish(asking)
    if verl_facts is not None:  # under another release than 0.9.1, the 0.9.1 key verdicts held to what it composed
        findings = held_to_installed(findings, verl_facts)
    findings = [*findings, *verl_findings]
    findings, tree_facts, tree_notes = verl_version.finish(tree, question, findings)
    notes = [*source.notes, *finish_notes(source, workspace.ctx), *verl_notes, *tree_notes]
    if args.format == "json":
        extra: dict[str, Any] = {"verl": verl_facts} if verl_facts is not None else {}
        if tree_facts is not None:
            extra["verl_tree"] = tree_facts
        emit(as_json(findings, source=source.kind, notes=[str(note) for note in notes], **extra))
    else:
        article = "an" if source.kind[:1] in "aeiou" else "a"  # an answers file
        emit(f"{args.path}: read as {article} {source.kind}")
        for note in notes:
            emit(f"note: {note}")
        emit(as_text(findings))
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK


def _not_main_ppo(args: argparse.Namespace, exc: NotMainPpo) -> int:
    """A launch script that runs another verl program (or none): one SCRIPT-017 note-like finding, exit 0."""
    findings = [info("SCRIPT-017", [], msg("script.not_main_ppo", reason=exc.reason), why("SCRIPT-017"))]
    if args.format == "json":
        emit(as_json(findings, source="launch script", notes=[]))
    else:
        emit(f"{args.path}: read as a launch script")
        emit(as_text(findings))
    return ExitStatus.OK
