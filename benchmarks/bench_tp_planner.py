"""Time TP-group planning on fake clusters of 1x8, 16x8 and 128x8 H100s (DESIGN.md section 7).

Each repeat clears the planner's cache first, so every number is a cold plan: the one-node search
plus the per-node replication for TP 2, 4 and 8. Budget: 128x8 under 30 ms. Exit 1 if it is missed.

    python benchmarks/bench_tp_planner.py [--repeats N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wizard.core import tp_planner as topo_mod
from wizard.detect.hardware.fake import fake_topology

CLUSTERS = ("1x8xH100", "16x8xH100", "128x8xH100", "1x8xL40S-pcie", "128x8xL40S-pcie")
BUDGET_MS = {"128x8xH100": 30.0, "128x8xL40S-pcie": 30.0}


def plan_all(name: str) -> int:
    """Cold-plan TP 2, 4 and 8 for every node of a fake cluster; returns the number of groups."""
    topo_mod._plan_local.cache_clear()
    t = fake_topology(name)
    return sum(len(topo_mod.plan_tp_groups(t, size)) for size in (2, 4, 8))


def main(argv: list[str] | None = None) -> int:
    """Print a table of median/min/max milliseconds per cluster; non-zero exit if a budget is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    print(f"{'cluster':<18}{'GPUs':>6}{'groups':>8}{'median ms':>11}{'min ms':>9}{'max ms':>9}  budget")
    ok = True
    for name in CLUSTERS:
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            groups = plan_all(name)
            times.append((time.perf_counter() - start) * 1000)
        t = fake_topology(name)
        med = statistics.median(times)
        budget = BUDGET_MS.get(name)
        verdict = "" if budget is None else (f"< {budget:g} ms ok" if med < budget else f"< {budget:g} ms MISSED")
        ok = ok and (budget is None or med < budget)
        print(f"{name:<18}{t.total_gpus:>6}{groups:>8}{med:>11.3f}{min(times):>9.3f}{max(times):>9.3f}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
