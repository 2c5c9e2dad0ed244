"""Time `check` on a 300-line launch script with arrays and functions (DESIGN.md section 7: under 0.3 s).

The script (benchmarks/fixtures/three_hundred_lines.sh) is in the style of verl 0.9's examples: settings
with defaults, a `while case "$1"` option loop, helper functions that build override arrays, arithmetic,
conditionals, and one verl command. Each measurement runs in a fresh interpreter after the wizard's modules
are imported, so every cache (the parsed grammar, the key snapshot, the rule registry) starts cold:

- read and check: `main(["check", SCRIPT, "--format", "json"])`: the bash reader, every rule with its checked
  fixes (and the tracking of the unknown values: the options are not given), the JSON report.
- the same with its options given (`-- --model ... --nodes 1`): every value known.
- the whole command as a user runs it, interpreter start-up and imports included (not budgeted).

Byte code is cached before timing, as it is for an installed wizard. Exit 1 when a budget is missed.

    python benchmarks/bench_launch_script.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import child_env  # noqa: E402 - after the sys.path line above

SCRIPT = ROOT / "benchmarks" / "fixtures" / "three_hundred_lines.sh"
BUDGET_S = 0.3
OPTIONS = ["--model", "Qwen/Qwen2.5-7B-Instruct", "--nnodes", "1", "--gpus", "8", "--data-root", "/data/gsm8k"]

CHILD = """
import contextlib, io, json, sys, time
import wizard.cli
import wizard.commands.check, wizard.core.rules, wizard.detect.config.files, wizard.detect.script.launch
argv = ["check", sys.argv[1], "--mode", "cluster", "--format", "json", *sys.argv[2:]]
out, t = io.StringIO(), time.perf_counter()
with contextlib.redirect_stdout(out):
    code = wizard.cli.main(argv)
wall = time.perf_counter() - t
doc = json.loads(out.getvalue())
print(json.dumps({"wall": wall, "code": code, "overrides_noted": len(doc.get("notes", []))}))
"""


def after_imports(extra: list[str]) -> float:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(SCRIPT), *extra], capture_output=True, text=True, cwd=ROOT, env=child_env()
    )
    if proc.returncode != 0:
        raise SystemExit(f"check failed: {proc.stderr.strip()[-2000:]}")
    numbers = json.loads(proc.stdout.strip().splitlines()[-1])
    if numbers["code"] not in (0, 1):
        raise SystemExit(f"check exited {numbers['code']}")
    return numbers["wall"]


def whole_command(extra: list[str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "wizard", "check", str(SCRIPT), "--mode", "cluster", "--format", "json", *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=child_env(),
    )
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check failed (exit {proc.returncode}): {proc.stderr.strip()}")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    lines = len(SCRIPT.read_text().splitlines())
    print(
        f"{SCRIPT.name}: {lines} lines (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs, {args.repeats} runs each)"
    )
    print(f"{'measurement':<44}{'median s':>10}{'min s':>8}{'max s':>8}  budget")
    ok = True
    rows = (
        ("read and check, options not given", after_imports, [], True),
        ("read and check, options given", after_imports, ["--", *OPTIONS], True),
        ("whole command (start-up included)", whole_command, [], False),
    )
    for label, run, extra, budgeted in rows:
        run(extra)  # once first: byte code compiled and cached
        walls = [run(extra) for _ in range(args.repeats)]
        med = statistics.median(walls)
        verdict = (f"< {BUDGET_S:g} s " + ("ok" if med < BUDGET_S else "MISSED")) if budgeted else "-"
        ok = ok and (med < BUDGET_S or not budgeted)
        print(f"{label:<44}{med:>10.3f}{min(walls):>8.3f}{max(walls):>8.3f}  {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
