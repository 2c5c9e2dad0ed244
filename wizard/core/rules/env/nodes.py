"""ENV-016: what differs between the nodes of a running Ray cluster (`preflight`, one probe report per node).

Pure: the reports are data. A package release that differs, or is missing on some nodes, is an error for the
packages verl's workers import (verl, torch, the engines, ray, transformers, ...) and for the Python version; a
driver release that differs is a warning (the same CUDA build usually runs on both).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wizard.core.findings import Finding, Severity, error, warning
from wizard.core.rules.declare import emits, why
from wizard.i18n.text import msg

MISSING = "-"


def _facts(report: dict[str, Any]) -> dict[str, str]:
    """The comparable facts of one node: package releases, Python, driver, torch's CUDA build."""
    facts = {name: version or MISSING for name, version in (report.get("packages") or {}).items()}
    facts["python"] = (report.get("python") or {}).get("version") or MISSING
    torch = report.get("torch") or {}
    facts["torch CUDA"] = torch.get("cuda") or torch.get("hip") or MISSING
    nvml = report.get("nvml") or {}
    facts["driver"] = nvml.get("driver") or MISSING
    return facts


@emits(
    "ENV-016",
    Severity.ERROR,
    title="The nodes of the cluster differ",
    why="Ray runs verl's workers with each node's own interpreter and driver; a package release that differs between nodes (verl, torch, the engine, ray) or a node without the engine fails only on the workers placed there, often late in start-up.",
)
def node_differences(reports: dict[str, dict[str, Any]]) -> Iterator[Finding]:
    """ENV-016 for each fact whose value is not the same on every node (reports keyed by node address)."""
    if len(reports) < 2:
        return
    per_node = {node: _facts(report) for node, report in sorted(reports.items())}
    names = sorted({name for facts in per_node.values() for name in facts})
    for name in names:
        values = {node: facts.get(name, MISSING) for node, facts in per_node.items()}
        if len(set(values.values())) < 2:
            continue
        by_value: dict[str, list[str]] = {}
        for node, value in values.items():
            by_value.setdefault(value, []).append(node)
        shown = [msg("env.nodes_value", value=value, nodes=nodes) for value, nodes in sorted(by_value.items())]
        make = warning if name == "driver" else error
        yield make("ENV-016", [name], msg("env.nodes_differ", name=name, values=shown), why("ENV-016"))
