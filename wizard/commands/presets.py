"""`verl-wizard presets`: the shipped presets, as a table or as JSON."""

from __future__ import annotations

import argparse
import json

from wizard.commands.output import emit
from wizard.core.presets import all_presets


def register(subparsers) -> None:
    p = subparsers.add_parser("presets", help="list the presets")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    presets = all_presets()
    if args.format == "json":
        emit(json.dumps([p.summary() for p in presets], indent=2))
        return 0
    width = max(len(p.name) for p in presets)
    for p in presets:
        emit(f"{p.name:<{width}}  {p.nnodes}x{p.n_gpus_per_node} GPUs  {p.description}")
    return 0
