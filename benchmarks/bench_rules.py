"""Full rule evaluation after one edit, on fake clusters of 1x8, 16x8 and 128x8 H100s (DESIGN.md section 7).

What the TUI pays on every edit: the wizard session (wizard.tui.session.Session, no Textual) holds the
grpo-8b-1x8 preset, the fake topology as its detected layer, and batch sizes scaled to the cluster
(train batch 1024 x nodes, mini-batch 256 x nodes, so every cluster starts valid). One edit is one
`Session.set`: rebuild the layered answers, the plan, every rule of every family, and the fix checks.
Two kinds of edit, alternating:
- valid: the mini-batch moves between two valid sizes (no error appears);
- error: the mini-batch moves from a valid size to one that does not divide (errors appear, each
  offered fix is verified by re-running its family: the dearest edit); only that edit is timed, the
  edit back to the valid size is not.

Budgets: under 2 ms for one node, under 30 ms for 128 nodes x 8 GPUs (each edit kind); growth with GPUs
linear or better: the exponent k in time ~ GPUs^k, fitted between 16x8 and 128x8, at most 1.

    python benchmarks/bench_rules.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import Stats, load_line, machine_line, table, verdict

CLUSTERS = (1, 16, 128)  # nodes of 8 GPUs
BUDGET_MS = {1: 2.0, 128: 30.0}
MINI = "actor_rollout_ref.actor.ppo_mini_batch_size"


def session_for(nodes: int):
    """A session on the preset, the fake cluster and batch sizes scaled to it, with no error."""
    from wizard.tui.session import Session

    session = Session()
    session.load_preset("grpo-8b-1x8")
    session.set_topology(f"{nodes}x8xH100")
    session.set("data.train_batch_size", 1024 * nodes)
    session.set(MINI, 256 * nodes)
    errors = [f.id for f in session.errors()]
    if errors or session.value("trainer.nnodes") != nodes:
        raise SystemExit(f"{nodes}x8: the starting plan is not a clean {nodes}-node plan: {errors}")
    return session


def time_edits(nodes: int, kind: str, repeats: int) -> tuple[Stats, Stats, set[str]]:
    """(wall ms, CPU ms, error ids seen) of `repeats` edits of one kind, after two untimed ones."""
    session = session_for(nodes)
    values = (256 * nodes, 128 * nodes) if kind == "valid" else (256 * nodes, 256 * nodes + 1)
    wall, cpu, seen = Stats(), Stats(), set()
    for i in range(2 * repeats + 2 if kind == "error" else repeats + 2):
        value = values[(i + 1) % 2]
        w0, c0 = time.perf_counter(), time.process_time()
        session.set(MINI, value)
        w1, c1 = time.perf_counter(), time.process_time()
        seen |= {f.id for f in session.errors()}
        if i >= 2 and (kind == "valid" or value == values[1]):
            wall.add((w1 - w0) * 1000)
            cpu.add((c1 - c0) * 1000)
    if (kind == "error") != bool(seen):
        raise SystemExit(f"{nodes}x8 {kind} edits: errors seen {sorted(seen)}; the case does not measure what it says")
    return wall, cpu, seen


def exponent(small: float, large: float, ratio: float) -> float:
    """k in t ~ n^k from two times and their size ratio."""
    return math.log(large / small) / math.log(ratio)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60, help="timed edits per cluster and kind (default 60)")
    parser.add_argument("--quick", action="store_true", help="12 edits per case")
    args = parser.parse_args(argv)
    repeats = 12 if args.quick else args.repeats
    print(machine_line())
    ok = True
    rows, medians = [], {}
    for kind in ("valid", "error"):
        for nodes in CLUSTERS:
            wall, cpu, seen = time_edits(nodes, kind, repeats)
            medians[(kind, nodes)] = wall.median
            budget = BUDGET_MS.get(nodes)
            met = budget is None or wall.median < budget
            ok &= met
            rows.append(
                [
                    f"{nodes}x8 ({nodes * 8} GPUs)",
                    kind,
                    *wall.cells(1, 2),
                    f"{cpu.median:.2f}",
                    ", ".join(sorted(seen)) or "-",
                    "" if budget is None else f"< {budget:g} ms: {verdict(met)}",
                ]
            )
    print(f"\nfull rule evaluation after one edit (Session.set), {repeats} edits per case")
    print(table(["cluster", "edit", "median ms", "min ms", "max ms", "CPU ms", "errors", "budget"], rows))
    rows = []
    for kind in ("valid", "error"):
        k = exponent(medians[(kind, 16)], medians[(kind, 128)], 8)
        k_all = exponent(medians[(kind, 1)], medians[(kind, 128)], 128)
        ok &= k <= 1.0
        rows.append(
            [
                kind,
                f"{medians[(kind, 128)] / medians[(kind, 1)]:.1f}x",
                f"{k:.2f}",
                f"{k_all:.2f}",
                f"k <= 1: {verdict(k <= 1.0)}",
            ]
        )
    print("\ngrowth with GPUs (t ~ GPUs^k; 1 is linear)")
    print(table(["edit", "128x8 / 1x8", "k 16x8->128x8", "k 1x8->128x8", "budget"], rows))
    print(load_line())
    print(f"rule budgets: {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
