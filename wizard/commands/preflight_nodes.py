"""preflight's inspection of every node of a running cluster: doctor's probe on each, and what differs between them.

The probe runs as one Ray task per node (wizard.detect.deploy.ray_nodes), within what is left of preflight's --timeout;
a node whose probe failed is an ENV-001 error naming it, values that differ between nodes are ENV-016
(wizard.core.rules.env.nodes).
"""

from __future__ import annotations

import os
from typing import Any

from wizard.core.findings import Finding, error, warning
from wizard.core.rules.catalogue import why
from wizard.core.rules.env.nodes import node_differences
from wizard.detect.deploy.ray_nodes import node_reports
from wizard.i18n.text import msg

MIN_SECONDS = 2.0  # below this no task can start on a node: say the nodes were not inspected


def inspect_nodes(address: str, seconds_left: float, model_ids: list[str]) -> tuple[list[Finding], dict[str, Any]]:
    """(findings, {node: a short summary}) for the cluster at address, within seconds_left."""
    reports = node_reports(address, seconds_left, model_ids, os.getcwd()) if seconds_left >= MIN_SECONDS else None
    if reports is None:
        text = msg("env.probe.nodes_timeout", seconds=f"{max(seconds_left, 0):.0f}")
        return [warning("ENV-001", ["--timeout"], text, why("ENV-001"))], {}
    findings: list[Finding] = []
    good: dict[str, dict[str, Any]] = {}
    for node, report in sorted(reports.items()):
        if "problem" in report:
            text = msg("env.probe.node_failed", node=node, detail=report.get("detail") or report["problem"])
            findings.append(error("ENV-001", [node], text, why("ENV-001")))
        else:
            good[node] = report
    findings += node_differences(good)
    summary = {
        node: {
            "python": (r.get("python") or {}).get("version"),
            "packages": {k: v for k, v in (r.get("packages") or {}).items() if v},
            "driver": (r.get("nvml") or {}).get("driver"),
        }
        for node, r in good.items()
    }
    return findings, summary
