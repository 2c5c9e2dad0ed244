"""`verl-wizard preflight [--address ADDR] [--config PATH]`: reach a running Ray cluster and compare it with a config.

It checks the address form, this shell's variables that break placement (CUDA_VISIBLE_DEVICES), connects
within --timeout (an address where nothing answers fails in a few seconds with one line; a token refusal
is told apart and says how to fix it), lists the nodes, GPUs and CPUs, and with --config compares them
with what verl will ask for: the GPUs of every pool (PLACE-007), GPUs per node (DEPLOY-004), CPUs per GPU
(DEPLOY-005), ray_init.num_cpus (DEPLOY-008).
"""

from __future__ import annotations

import argparse
import os
import re
import time
from pathlib import Path

from wizard.commands.common import seconds
from wizard.commands.output import as_json, as_text, emit
from wizard.commands.paths import PathArg
from wizard.commands.preflight_nodes import inspect_nodes
from wizard.core.findings import error, has_errors
from wizard.core.layers import build
from wizard.core.masking import mask
from wizard.core.plan import build_plan
from wizard.core.rules import context_for, run_rules
from wizard.core.rules.catalogue import why
from wizard.core.rules.deploy.facts import TQ_CONTROLLER_CPUS, tq_storage_units
from wizard.core.rules.placement.groups import check_capacity
from wizard.detect.config.files import read_check_input
from wizard.detect.deploy.manifests import read_if_manifest
from wizard.detect.deploy.ray import (
    EXIT_MARGIN_S,
    address_problem,
    cluster_facts,
    probe,
    resolve_address,
    startup_seconds,
    token_problem,
)
from wizard.detect.env.doctor import model_ids
from wizard.errors import ExitStatus, UsageError
from wizard.i18n.text import render


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "preflight",
        help="connect to a running Ray cluster and check it against a config",
        description="Reach a Ray cluster (its GCS address, HEAD:6379) and compare its nodes, GPUs and CPUs "
        "with what the config asks for. Needs Ray in this Python (pip install 'verl-wizard[ray]').",
    )
    p.add_argument("--address", help="the cluster's GCS address HEAD:6379, or auto (default: $RAY_ADDRESS, else auto)")
    p.add_argument(
        "--config",
        action=PathArg,
        help="a config.yaml, answers file, launch script or manifest to compare with the cluster",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        default=15.0,
        help="seconds (1-600) the whole command may take before giving up (default 15)",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def _read_config(path: str):
    source = read_if_manifest(Path(path)) or read_check_input(Path(path))
    return build([(source.kind, source.flat)])


def _unreachable(result) -> list:
    rule = "DEPLOY-012" if result.kind == "auth" else "DEPLOY-002" if result.kind == "form" else "DEPLOY-013"
    return [error(rule, ["--address"], result.message, why(rule))]


def _compare(layered, result) -> list:
    """The cluster rules over the config's plan and the live nodes (PLACE-007 with the cluster's GPU count)."""
    facts = cluster_facts(result, os.environ, layered.answers.deploy.target)
    total = sum(int(n.gpus) for n in result.nodes)
    topology = type("ClusterGPUs", (), {"nodes": 1, "gpus": [None] * total})()
    ctx = context_for(layered.answers, layered.flat, mode="cluster", deploy=facts)
    findings = list(check_capacity(context_for(layered.answers, layered.flat, mode="cluster", topology=topology)))
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(findings + run_rules(ctx, "DEPLOY"), key=lambda f: (order[f.severity.value], f.id))


def _summary_lines(result, layered) -> list[str]:
    nodes = result.nodes
    gpus = ", ".join(f"{n.gpus:g}" for n in nodes) or "-"
    cpus = ", ".join(f"{n.cpus:g}" for n in nodes) or "-"
    lines = [
        f"cluster {mask(result.address)} (Ray {result.ray_version}): {len(nodes)} node(s) alive; GPUs per node: {gpus}; CPUs per node: {cpus}"
    ]
    if layered is not None:
        plan = build_plan(layered.answers)
        units = tq_storage_units(layered.answers)
        lines.append(
            f"config: verl asks for {plan.total_gpus} GPU(s) as {plan.nnodes} node(s) x {plan.gpus_per_node}"
            + (" plus split pools" if len(plan.pools) > 1 else "")
            + f", and {3 * plan.gpus_per_node} CPUs on each of those nodes"
            + (f", plus {units + TQ_CONTROLLER_CPUS} for its TransferQueue spread over the nodes" if units else "")
        )
    return lines


def run(args: argparse.Namespace) -> int:
    started = time.monotonic() - startup_seconds()
    layered = _read_config(args.config) if args.config else None
    address, origin = resolve_address(args.address)
    problem = address_problem(address)
    if problem and not re.match(r"^(https?|ray)://", address):
        shown = address if len(address) <= 80 else address[:60] + "..."
        raise UsageError(f"{'--address' if origin == '--address' else origin} {shown}: {problem}")
    no_token = token_problem()
    if no_token is not None:  # Ray's core would stop the driver with a C++ error that names no fix
        findings = [error("DEPLOY-012", ["RAY_AUTH_TOKEN"], no_token, why("DEPLOY-012"))]
        emit(as_json(findings, cluster=None) if args.format == "json" else f"✗ DEPLOY-012 error: {no_token}")
        return ExitStatus.FINDINGS
    result = probe(address, timeout=args.timeout, started=started)
    if not result.ok:
        findings = _unreachable(result)
        if args.format == "json":
            emit(as_json(findings, cluster=None))
        else:
            emit(f"✗ {findings[0].id} error: {render(findings[0].message)}")
        return ExitStatus.FINDINGS
    if layered is None:  # no config to compare with: only this shell's variables
        findings = [f for f in _compare(build([("preflight", {})]), result) if f.id in ("DEPLOY-001", "DEPLOY-002")]
    else:
        findings = _compare(layered, result)
    models = model_ids(layered.answers) if layered is not None else []
    left = args.timeout - (time.monotonic() - started) - EXIT_MARGIN_S
    node_findings, nodes = inspect_nodes(result.address.split(" ")[-1].strip("()"), left, models)
    findings = sorted(
        findings + node_findings, key=lambda f: ({"error": 0, "warning": 1}.get(f.severity.value, 2), f.id)
    )
    if args.format == "json":
        emit(as_json(findings, cluster=result.summary(), nodes=nodes))
    else:
        emit("\n".join(_summary_lines(result, layered)))
        emit(as_text(findings))
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK
