"""`verl-wizard topo [--from FILE | --fake NAME] [--format text|json]`: show GPUs, links and recommended TP groups.

With neither flag the GPUs of this machine are read through NVML; where there is none, the command
says so and exits 2. `--format json` prints the object of DESIGN.md section 4.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from wizard.commands.paths import PathArg
from wizard.core.topology import Topology, group_quality, link_label, link_rank
from wizard.core.tp_planner import recommended_tp_groups, topology_to_json, tp_subset
from wizard.detect.hardware.fake import fake_topology
from wizard.detect.hardware.nvml import NoGPUError, detect_nvml
from wizard.detect.hardware.source import read_topology_file
from wizard.errors import ExitStatus, UsageError
from wizard.i18n.text import msg


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the `topo` subcommand to an argparse subparsers object; its `func` is `run`."""
    parser = subparsers.add_parser(
        "topo",
        help="show the GPU topology and recommended tensor-parallel groups",
        description="Show GPUs, their links (nvidia-smi symbols) and the best TP groups per node.",
    )
    add_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `topo`, shared by `register` and this module's own `main`."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--from", dest="from_file", metavar="FILE", action=PathArg, help="a file with nvidia-smi topo -m output"
    )
    source.add_argument("--fake", metavar="NAME", help="a named fake topology, e.g. 8xH100, 2x8xH100, 8xL40S-pcie")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")


def _load(args: argparse.Namespace) -> Topology:
    from_file = getattr(args, "from_file", None)
    fake = getattr(args, "fake", None)
    if from_file and fake:
        raise UsageError("pass either --from FILE or --fake NAME, not both")
    if from_file:
        return read_topology_file(from_file)
    if fake:
        return fake_topology(fake)

    return detect_nvml()


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run `topo`; returns the exit code. Bad --from/--fake input raises UsageError (exit 2)."""
    out = out or sys.stdout
    try:
        topology = _load(args)
    except NoGPUError as exc:
        print(
            f"verl-wizard: error: {exc}; pass --fake NAME (e.g. 8xH100) or --from FILE (nvidia-smi topo -m output)",
            file=sys.stderr,
        )
        return int(ExitStatus.BAD_INPUT)
    if getattr(args, "format", "text") == "json":
        out.write(json.dumps(topology_to_json(topology), indent=2) + "\n")
    else:
        out.write(render_text(topology))
    return int(ExitStatus.OK)


def _source_line(t: Topology) -> str:
    where = {"nvml": "detected with NVML", "file": "read from nvidia-smi topo -m output", "fake": "fake"}[t.source]
    label = f" {t.label}" if t.label else ""
    nodes = f" x {t.nodes} nodes" if t.nodes > 1 else ""
    return f"Topology ({where}{label}): {t.gpus_per_node} GPU{'s' if t.gpus_per_node != 1 else ''} per node{nodes}\n"


def _gpu_lines(t: Topology) -> list[str]:
    lines = ["", "GPUs"]
    for g in t.gpus:
        mem = f"{g.memory_mib} MiB" if g.memory_mib is not None else "memory ?"
        numa = f"NUMA {g.numa}" if g.numa is not None else (f"CPUs {g.cpu_affinity}" if g.cpu_affinity else "NUMA ?")
        extra = f"  {g.pci_bus_id}" if g.pci_bus_id else ""
        extra += "  MIG on" if g.mig else ""
        lines.append(f"  GPU{g.index:<3} {g.name or '?':<28} {mem:>11}  {numa}{extra}")
    return lines


def _matrix_lines(t: Topology) -> list[str]:
    n = t.gpus_per_node
    names = [f"GPU{i}" for i in range(n)]
    width = max(6, *(len(c) + 2 for row in t.links for c in row), *(len(x) + 2 for x in names))
    header = (" " * 8 + "".join(f"{x:<{width}}" for x in names)).rstrip()
    lines = ["", "Links (nvidia-smi symbols, one node)", header]
    for i, row in enumerate(t.links):
        lines.append(f"  {names[i]:<6}" + "".join(f"{c:<{width}}" for c in row).rstrip())
    return lines


def _nic_lines(t: Topology) -> list[str]:
    if not t.nics_known:
        return ["", "NICs: not known from this source"]
    if not t.nics:
        return ["", "NICs: no RDMA NIC listed"]
    lines = ["", "NICs (closest GPUs)"]
    for nic in t.nics:
        sym = max(nic.links, key=link_rank, default="?")
        closest = [str(i) for i, s in enumerate(nic.links) if s == sym]
        near = f"{sym} to GPU{','.join(closest)}" if sym != "?" else "link to GPUs unknown"
        dev = f" ({nic.device})" if nic.device and nic.device != nic.name else ""
        lines.append(f"  {nic.name}{dev}: {near}")
    return lines


def _tp_lines(t: Topology) -> list[str]:
    groups = recommended_tp_groups(t)
    lines = ["", "Recommended TP groups (per node, local GPU indices)"]
    if not groups:
        lines.append(f"  {msg('topology.no_groups', n=t.gpus_per_node)}")
    for size, gs in groups.items():
        quality = [group_quality(t, g) for g in gs]
        worst = min(quality, key=link_rank)
        text = " ".join("[" + ",".join(map(str, g)) + "]" for g in gs)
        lines.append(f"  TP{size}: {text}   worst link {worst} ({link_label(worst)})")
        subset = tp_subset(t, size)
        if subset is not None and subset.idle:
            line = msg(
                "topology.subset",
                used=len(subset.used),
                total=t.gpus_per_node,
                tp=size,
                groups=text,
                idle=subset.idle,
                n_idle=len(subset.idle),
                visible=subset.visible_devices,
            )
            lines.append(f"        {line}")
    return lines


def render_text(t: Topology) -> str:
    """The human-readable report: source, GPU list, link matrix, NICs, TP groups, unknowns and notes."""
    lines = [_source_line(t).rstrip("\n")]
    lines += _gpu_lines(t) + _matrix_lines(t) + _nic_lines(t) + _tp_lines(t)
    if t.unknown:
        lines += ["", "Could not be read"] + [f"  - {u}" for u in t.unknown]
    if t.notes:
        lines += ["", "Notes"] + [f"  - {x}" for x in t.notes]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m wizard.commands.topo ...`: the same command without the main CLI."""
    parser = argparse.ArgumentParser(prog="verl-wizard topo")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except UsageError as exc:
        print(f"verl-wizard: error: {exc}", file=sys.stderr)
        return int(ExitStatus.BAD_INPUT)


if __name__ == "__main__":
    raise SystemExit(main())
