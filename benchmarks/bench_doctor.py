"""`verl-wizard doctor` on a preset with a warm interpreter: the whole command, probe included, under 3 s.

The interpreter judged is the conformance environment's (verl 0.9.1 on a CPU torch: VERL_PYTHON, else .venv-verl),
else this one. "Warm" means its files are in the page cache: one untimed run first. Each timed run is a fresh
`python -m wizard doctor --preset P --python PY --format json`; the probe alone (`PY -c PROBE`) is timed beside it,
so the table shows what the wizard adds to what the interpreter costs.

    python benchmarks/bench_doctor.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import ROOT, Stats, load_line, machine_line, run_fresh, table, verdict

BUDGET_S = 3.0
PRESET = "workshop-grpo-0.5b-1gpu"


def interpreter() -> str:
    for candidate in (os.environ.get("VERL_PYTHON"), str(ROOT / ".venv-verl" / "bin" / "python")):
        if candidate and Path(candidate).is_file():
            return candidate
    return sys.executable


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="3 repeats")
    args = parser.parse_args()
    repeats = 3 if args.quick else args.repeats
    python = interpreter()
    from wizard.detect.env.probe import request_for, source

    doctor = [sys.executable, "-m", "wizard", "doctor", "--preset", PRESET, "--python", python, "--format", "json"]
    probe = [python, "-c", source(), json.dumps(request_for([], str(ROOT)))]
    run_fresh(doctor)  # warm: the interpreter's files in the page cache
    walls, cpus, probes = Stats(), Stats(), Stats()
    for _ in range(repeats):
        run = run_fresh(doctor)
        json.loads(run.stdout)  # every run answers with its JSON
        walls.add(run.wall)
        cpus.add(run.cpu)
        probes.add(run_fresh(probe).wall)
    met = walls.median < BUDGET_S and walls.max < 2 * BUDGET_S
    print(machine_line())
    print(f"interpreter judged: {python}")
    rows = [
        ["doctor (fresh process)", *walls.cells(digits=2), f"{cpus.median:.2f}", verdict(met)],
        ["the probe alone", *probes.cells(digits=2), "-", "-"],
    ]
    print(table(["case", "median s", "min s", "max s", "cpu s", "budget"], rows))
    print(load_line())
    print(f"doctor budget: {'met' if met else 'MISSED'} (median under {BUDGET_S:g} s)")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
