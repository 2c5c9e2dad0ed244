"""Time `verl-wizard check` on a launch script with ten problems (issue 11: all ten in one report, < 0.5 s).

Each measurement runs in a fresh interpreter, so every cache (the key history, the rule registry,
each key's fate) starts cold, and checks that the report holds all ten findings:

- report: `main(["check", SCRIPT, "--format", "json"])` after the wizard's modules are imported:
  reading the script, every rule with its checked fixes, the JSON report. Budget: median < 0.5 s.
- whole command: `python -m wizard check SCRIPT` as a user runs it, interpreter start-up and imports
  included, next to the same command on a clean script (the start-up every `check` pays).

Byte code is cached (in a temporary folder) before timing, as it is for an installed wizard. Wall
and CPU seconds are printed; on a busy machine wall time grows with the load, CPU time much less.
Exit 1 if the report's budget or the count of findings is missed.

    python benchmarks/bench_script_report.py [--repeats N] [--script PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import child_env  # noqa: E402 - after the sys.path line above

SCRIPT = ROOT / "tests" / "fixtures" / "old_scripts" / "ten_problems.sh"
CLEAN = ROOT / "tests" / "fixtures" / "check" / "grpo_8gpu_ok.sh"
BUDGET_S = 0.5
EXPECTED = 10

# Runs in the child: import first, then time one cold check and print its numbers as JSON.
REPORT_ONLY = """
import contextlib, io, json, resource, sys, time
import wizard.cli
import wizard.commands.check, wizard.core.rules, wizard.detect.config.files, wizard.detect.script.launch
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
out, c, t = io.StringIO(), cpu(), time.perf_counter()
with contextlib.redirect_stdout(out):
    wizard.cli.main(["check", sys.argv[1], "--mode", "cluster", "--format", "json"])
wall, c = time.perf_counter() - t, cpu() - c
found = sum(1 for f in json.loads(out.getvalue())["findings"] if f["severity"] in ("error", "warning"))
print(json.dumps({"wall": wall, "cpu": c, "found": found}))
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def report_only(script: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, problems found) of one cold check after the imports, in a fresh interpreter."""
    proc = subprocess.run(
        [sys.executable, "-c", REPORT_ONLY, str(script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env(),
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"check failed: {proc.stderr.strip()[-2000:]}")
    numbers = json.loads(proc.stdout.strip().splitlines()[-1])
    return numbers["wall"], numbers["cpu"], numbers["found"]


def whole_command(script: Path) -> tuple[float, float, int]:
    """(wall s, CPU s, problems found) of `python -m wizard check SCRIPT --format json`."""
    cpu, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "wizard", "check", str(script), "--mode", "cluster", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env(),
        check=False,
    )
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check failed (exit {proc.returncode}): {proc.stderr.strip()}")
    found = sum(1 for f in json.loads(proc.stdout)["findings"] if f["severity"] in ("error", "warning"))
    return wall, cpu, found


def main(argv: list[str] | None = None) -> int:
    """Print median/min/max seconds per measurement; non-zero exit if the report's budget or count is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--script", type=Path, default=SCRIPT)
    args = parser.parse_args(argv)
    print(
        f"{args.script.name} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs, {args.repeats} runs each)"
    )
    print(f"{'measurement':<34}{'found':>6}{'median s':>10}{'min s':>8}{'max s':>8}{'cpu s':>8}  budget")
    ok = True
    rows = (
        ("report (cold, after imports)", report_only, args.script, True),
        ("whole command", whole_command, args.script, False),
        ("whole command, clean script", whole_command, CLEAN, False),
    )
    for label, run, script, budgeted in rows:
        run(script)  # once first, so the byte code is compiled and cached as it is for an installed wizard
        walls, cpus, counts = [], [], set()
        for _ in range(args.repeats):
            wall, cpu, found = run(script)
            walls.append(wall)
            cpus.append(cpu)
            counts.add(found)
        med = statistics.median(walls)
        verdict = f"< {BUDGET_S:g} s {'ok' if med < BUDGET_S else 'MISSED'}" if budgeted else "(start-up included)"
        if budgeted:
            ok = ok and med < BUDGET_S
        if script == args.script and counts != {EXPECTED}:
            verdict += f"; found {sorted(counts)} problems, expected {EXPECTED}"
            ok = False
        print(
            f"{label:<34}{'/'.join(map(str, sorted(counts))):>6}{med:>10.3f}{min(walls):>8.3f}{max(walls):>8.3f}"
            f"{statistics.median(cpus):>8.3f}  {verdict}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
