"""`verl-wizard new`: a preset, an answers file, a launch script and --set flags -> checked artefacts in --out.

A thin door over the workspace (wizard.core.workspace), which decides the precedence: verl's defaults <
preset < detected hardware < answers file < imported script < --set. The TUI writes through the same
functions, so the same answers give the same files.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wizard.commands import verl_ask, verl_flags, verl_version
from wizard.commands.common import parse_env_flags, parse_set_flags
from wizard.commands.output import as_json, as_text, emit
from wizard.commands.paths import FOLDER, TOPOLOGY, PathArg
from wizard.core.choices import Target, values
from wizard.core.findings import has_errors
from wizard.detect.inputs import open_workspace, read_inputs
from wizard.emit.artifacts import write_workspace
from wizard.emit.folder_read import repaired
from wizard.emit.launch import launch_line
from wizard.emit.out_folders import out_problem
from wizard.errors import ExitStatus, UsageError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "new",
        help="write config.yaml, run.sh, answers.yaml and RUN.md for a run",
        description="Build answers from a preset, an answers file and --set flags, check them, and write the artefacts.",
    )
    p.add_argument("--preset", help="start from a preset (see `verl-wizard presets`)")
    p.add_argument("--answers", action=PathArg, help="an answers.yaml to replay")
    p.add_argument(
        "--from-script",
        metavar="OLD.sh",
        action=PathArg,
        help="import an old or forked verl launch script, carried over to verl 0.9.1",
    )
    p.add_argument(
        "--env",
        action="append",
        metavar="NAME=VALUE",
        help="with --from-script: an environment variable of the script; repeatable (its arguments go after --)",
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="a verl key as a launch script writes it; repeatable"
    )
    p.add_argument(
        "--topology",
        action=PathArg,
        what=TOPOLOGY,
        help="a fake topology (2x8xH100), a file of `nvidia-smi topo -m` output, or `detect`",
    )
    p.add_argument("--target", choices=values(Target), default=None, help="where the run starts (default: local)")
    p.add_argument("--out", action=PathArg, what=FOLDER, required=True, help="folder to write into")
    p.add_argument("--force", action="store_true", help="overwrite files in --out that differ")
    verl_flags.add_flags(p)
    verl_version.add_flag(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument(
        "--lang", choices=("en", "zh"), default="en", help="language of RUN.md's prose (commands stay commands)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # verl's interpreter starts first (one that is not there is exit 2 at once) and imports verl meanwhile.
    tree = verl_version.start(args)  # a release that does not exist is exit 2 before anything is read
    asking = verl_ask.start(args)
    try:
        return _made(args, asking, tree)
    finally:
        verl_ask.stop(asking)


def _made(args: argparse.Namespace, asking, tree) -> int:
    if problem := out_problem(args.out):
        raise UsageError(str(problem))
    workspace = open_workspace(mode="cluster")
    script_env = parse_env_flags(getattr(args, "env", None))
    for given in (args.answers, args.from_script):  # in a folder a killed write left mid-write: finish it first
        if given:
            repaired(given)
    read_inputs(
        workspace,
        preset=args.preset,
        answers=args.answers,
        script=args.from_script,
        topology=args.topology,
        script_env=script_env,
        script_args=getattr(args, "script_args", None),
    )
    flags = parse_set_flags(args.set)
    if args.target:
        flags["deploy.target"] = args.target
    workspace.use_flags(flags)
    # verl is asked about the config.yaml this writes, in a child process while the wizard's rules run.
    verl_ask.send(asking, lambda: verl_ask.written_config(workspace))
    findings = workspace.findings
    verl_findings, verl_facts, verl_notes = verl_ask.finish(asking)
    findings = [*findings, *verl_findings]
    # the files are verl 0.9.1's (their keys are held to 0.9.1); release X's tree composes the config.yaml written
    findings, tree_facts, tree_notes = verl_version.finish(
        tree, lambda: verl_ask.written_config(workspace), findings, hold_keys=False
    )
    verl_notes = [*verl_notes, *tree_notes]
    blocked = workspace.blocked or has_errors(findings)
    result = None if blocked else write_workspace(workspace, args.out, force=args.force, lang=args.lang)
    written = result.written if result else []
    # What the imported script leaves unknown, said as `check` says it (the keys, the rules skipped, --env).
    unknown_notes = [str(note) for note in workspace.unknown_notes()]
    if args.format == "json":
        earlier: dict[str, Any] = (
            {"removed": result.removed, "kept": result.kept} if result and (result.removed or result.kept) else {}
        )
        if unknown_notes:
            earlier["notes"] = unknown_notes
        if verl_facts is not None:
            earlier["verl"] = verl_facts
        if tree_facts is not None:
            earlier["verl_tree"] = tree_facts
        emit(as_json(findings, written, **earlier))
    else:
        for note in unknown_notes:
            emit(f"note: {note}")
        emit(as_text(findings))
        for note in verl_notes:
            emit(f"note: {note}")
        if written and result is not None:  # written only when there is a result
            out = Path(args.out)
            emit("\n".join(f"wrote {out / name}" for name in written))
            for note in result.notes():
                emit(f"note: {note}")

            emit(f"launch: {launch_line(workspace.layered.answers, str(out))}")
        else:
            emit("nothing written: fix the errors above (each `fix:` line is a --set you can add)")
    return ExitStatus.FINDINGS if blocked else ExitStatus.OK
