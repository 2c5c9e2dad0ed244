"""`preflight` on a running Ray cluster: the environment probe on every node, one Ray task per node, within a deadline.

A child process (`python -c NODE_PROBE ...`, as wizard.detect.deploy.ray's cluster probe: this process never imports ray)
joins the cluster as a driver, and for each alive node runs one task pinned to it (NodeAffinitySchedulingStrategy,
not soft, no CPU held) that runs env_probe_script.py with the interpreter of that node's workers. The reports,
keyed by node, are compared by wizard.core.rules.env.nodes.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from wizard.detect.child_process import run_with_deadline
from wizard.detect.env.probe import MARK, parse_report, request_for, source

NODES_MARK = "NODES "
NODE_PROBE = r"""
import json, subprocess, sys
address, probe, request = sys.argv[1], sys.argv[2], sys.argv[3]
import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
ray.init(address=address, logging_level="ERROR", log_to_driver=False)

@ray.remote(num_cpus=0)
def inspect(probe, request):
    import subprocess, sys
    done = subprocess.run([sys.executable, "-c", probe, request], capture_output=True, text=True, timeout=60)
    return done.stdout, done.stderr[-400:], done.returncode

nodes = [n for n in ray.nodes() if n.get("Alive")]
refs = {}
for n in nodes:
    name = f"{n['NodeManagerAddress']} ({n['NodeID'][:8]})"
    strategy = NodeAffinitySchedulingStrategy(node_id=n["NodeID"], soft=False)
    refs[name] = inspect.options(scheduling_strategy=strategy).remote(probe, request)
out = {}
for name, ref in refs.items():
    try:
        out[name] = list(ray.get(ref))
    except Exception as exc:
        out[name] = ["", f"{type(exc).__name__}: {exc}"[:400], -1]
print("NODES " + json.dumps(out), flush=True)
"""


def node_reports(address: str, timeout: float, model_ids: list[str], local_dir: str) -> dict[str, Any] | None:
    """{node: probe report dict, or {"problem": ..., "detail": ...}} for every alive node; None past the deadline."""
    request = json.dumps(request_for(model_ids, local_dir))
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONUNBUFFERED="1")
    done = run_with_deadline([sys.executable, "-c", NODE_PROBE, address, source(), request], max(0.5, timeout), env)
    if done is None:
        return None
    out = done.stdout
    line = next((x for x in reversed(out.splitlines()) if x.startswith(NODES_MARK)), None)
    if line is None:
        return None
    try:
        raw = json.loads(line[len(NODES_MARK) :])
    except ValueError:
        return None
    reports: dict[str, Any] = {}
    for node, (stdout, stderr, code) in raw.items():
        outcome = parse_report(node, stdout if MARK in stdout else "", stderr, code)
        reports[node] = (
            outcome.report if not outcome.problem else {"problem": outcome.problem, "detail": outcome.detail}
        )
    return reports
