"""`verl-wizard new`: answers (preset < topology < answers file < --set) -> checked artefacts in --out."""

from __future__ import annotations

import argparse
from pathlib import Path

from wizard.commands.common import parse_set_flags
from wizard.commands.output import as_json, as_text, emit
from wizard.core.findings import has_errors
from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules import context_for, evaluate
from wizard.detect.answers_file import read_answers_file
from wizard.detect.facts import gather
from wizard.detect.topology_source import topology_layer
from wizard.errors import ExitStatus

TARGETS = ("local", "ray-job", "kuberay-job", "kuberay-cluster", "slurm", "k8s-job")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "new",
        help="write config.yaml, run.sh, answers.yaml and RUN.md for a run",
        description="Build answers from a preset, an answers file and --set flags, check them, and write the artefacts.",
    )
    p.add_argument("--preset", help="start from a preset (see `verl-wizard presets`)")
    p.add_argument("--answers", help="an answers.yaml to replay")
    p.add_argument(
        "--from-script", metavar="OLD.sh", help="import an old or forked verl launch script, carried over to verl 0.9.1"
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="a verl key as a launch script writes it; repeatable"
    )
    p.add_argument("--topology", help="a fake topology (2x8xH100), a file of `nvidia-smi topo -m` output, or `detect`")
    p.add_argument("--target", choices=TARGETS, default=None, help="where the run starts (default: local)")
    p.add_argument("--out", required=True, help="folder to write into")
    p.add_argument("--force", action="store_true", help="overwrite files in --out that differ")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def collect_layers(args: argparse.Namespace):
    layers = []
    if args.preset:
        layers.append(("preset", load_preset(args.preset).values))
    topology, detected = topology_layer(getattr(args, "topology", None))
    if detected:
        layers.append(("detected", detected))
    if getattr(args, "from_script", None):
        from wizard.detect.script_import import script_layer

        layer, args.imported_script = script_layer(args.from_script)
        layers.append(layer)
    if args.answers:
        layers.append(("answers file", read_answers_file(args.answers)))
    flags = parse_set_flags(args.set)
    if getattr(args, "target", None):
        flags["deploy.target"] = args.target
    layers.append(("--set", flags))
    return layers, topology


def run(args: argparse.Namespace) -> int:
    from wizard.emit.artifacts import render_artifacts
    from wizard.emit.writer import write_all

    layers, topology = collect_layers(args)
    layered = build(layers)
    ctx = context_for(
        layered.answers, layered.flat, mode="cluster", topology=topology, **gather(layered.answers, "cluster")
    )
    findings = evaluate(ctx)
    written: list[str] = []
    if not has_errors(findings):
        files = render_artifacts(layered, ctx.plan, findings)
        if getattr(args, "imported_script", None):
            files["RUN.md"] = args.imported_script.render_run_md(layered, ctx.plan, findings, files)
        written = write_all(Path(args.out), files, force=args.force)
    if args.format == "json":
        emit(as_json(findings, written))
    else:
        emit(as_text(findings))
        if written:
            out = Path(args.out)
            emit("\n".join(f"wrote {out / name}" for name in written))
            from wizard.emit.launch import launch_line

            emit(f"launch: {launch_line(layered.answers, str(out))}")
        else:
            emit("nothing written: fix the errors above (each `fix:` line is a --set you can add)")
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK
