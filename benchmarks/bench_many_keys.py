"""Time `verl-wizard check` on 1,000 and 10,000 unknown keys, through both doors (issue 28: linear in the keys).

A config.yaml with N keys verl does not have (`foo.bar_i: i`) and a launch script with N such overrides
(`foo.bar_i=i`), on top of a clean GRPO run. Each measurement is a fresh interpreter that imports the wizard,
then times one `check --format json` (reading, every rule with its checked fixes, the report) and checks
that the report holds the N findings (KEY-001 for the config, SCRIPT-006 for the script), each with its
removal fix. The whole process's wall time and peak resident memory (from wait4) are shown beside it.

Budget: for each door, check on 10,000 keys under 10x check on 1,000 (CPU seconds after the imports,
medians; linear work gives 10x at most, the old per-finding re-run of the rules gave about 100x).
Cases alternate in every round (ABCD...), so load from other work falls on all alike. Exit 1 if missed.

    python benchmarks/bench_many_keys.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import interleave, load_line, machine_line, run_fresh, table, verdict  # noqa: E402

CLEAN_SCRIPT = ROOT / "tests" / "fixtures" / "check" / "grpo_8gpu_ok.sh"
CLEAN_CONFIG = {
    "algorithm": {"adv_estimator": "grpo"},
    "data": {"train_files": "/data/gsm8k/train.parquet", "train_batch_size": 64},
    "actor_rollout_ref": {
        "model": {"path": "Qwen/Qwen3-8B"},
        "actor": {"ppo_mini_batch_size": 16, "ppo_micro_batch_size_per_gpu": 4},
        "rollout": {"name": "vllm", "n": 4, "log_prob_micro_batch_size_per_gpu": 8},
    },
    "trainer": {"n_gpus_per_node": 8, "nnodes": 1},
}
SIZES = (1_000, 10_000)
RATIO_BUDGET = 10.0

# Runs in the child: import first, then time one check and print its numbers as JSON.
CHILD = """
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
findings = [f for f in json.loads(out.getvalue())["findings"] if f["id"] == sys.argv[2]]
removable = sum(1 for f in findings if {f["paths"][0]: None} in [fix["set"] for fix in f["fixes"]])
print(json.dumps({"wall": wall, "cpu": c, "found": len(findings), "removable": removable}))
"""


def write_inputs(folder: Path) -> dict[str, tuple[Path, str, int]]:
    """case name -> (file, the rule id of its findings, the number of unknown keys)."""
    import yaml

    cases = {}
    clean = CLEAN_SCRIPT.read_text(encoding="utf-8")
    for n in SIZES:
        config = folder / f"config_{n}.yaml"
        config.write_text(yaml.safe_dump({**CLEAN_CONFIG, "foo": {f"bar_{i}": i for i in range(n)}}), encoding="utf-8")
        cases[f"config.yaml, {n:,} keys"] = (config, "KEY-001", n)
        lines = "".join(f"    foo.bar_{i}={i} \\\n" for i in range(n))
        script = folder / f"run_{n}.sh"
        script.write_text(
            clean.replace("    trainer.total_epochs=15", lines + "    trainer.total_epochs=15"), encoding="utf-8"
        )
        cases[f"launch script, {n:,} overrides"] = (script, "SCRIPT-006", n)
    return cases


def main(argv: list[str] | None = None) -> int:
    """Print the table; non-zero exit if a door's 10,000-key check is 10x its 1,000-key one or a finding is missing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one round")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    print(machine_line())
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        cases = write_inputs(Path(tmp))
        complete: dict[str, bool] = {}

        def measure(case: str) -> dict[str, float]:
            path, rule_id, n = cases[case]
            run = run_fresh([sys.executable, "-c", CHILD, str(path), rule_id])
            if run.code != 0:
                raise SystemExit(f"{case}: check failed: {run.stderr.strip()[-2000:]}")
            numbers = json.loads(run.stdout.strip().splitlines()[-1])
            complete[case] = complete.get(case, True) and numbers["found"] == numbers["removable"] == n
            return {"cpu": numbers["cpu"], "wall": numbers["wall"], "process": run.wall, "peak": run.peak_mb}

        for case in cases:
            measure(case)  # once first, so the byte code is compiled and cached as it is for an installed wizard
        results = interleave(list(cases), repeats, measure)
    rows = []
    for case, metrics in results.items():
        found = "all" if complete[case] else "MISSING"
        ok = ok and complete[case]
        rows.append(
            [
                case,
                *metrics["cpu"].cells(digits=2),
                metrics["wall"].median,
                metrics["process"].median,
                f"{metrics['peak'].max:.0f}",
                found,
            ]
        )
    print(f"\ncheck after the imports (CPU s: median, min, max), {repeats} round(s)")
    print(
        table(
            ["case", "CPU s", "min", "max", "wall s", "process wall s", "peak MB", "findings+removal"],
            [[r[0], r[1], r[2], r[3], f"{r[4]:.2f}", f"{r[5]:.2f}", r[6], r[7]] for r in rows],
        )
    )
    growth = []
    for door in ("config.yaml", "launch script"):
        small, large = (next(m for c, m in results.items() if c.startswith(door) and f"{n:,} " in c) for n in SIZES)
        ratio = large["cpu"].median / small["cpu"].median
        met = ratio < RATIO_BUDGET
        ok = ok and met
        growth.append([door, f"{ratio:.1f}x", f"< {RATIO_BUDGET:g}x: {verdict(met)}"])
    print(f"\ngrowth from {SIZES[0]:,} to {SIZES[1]:,} keys (CPU, medians)")
    print(table(["door", "10,000 / 1,000", "budget"], growth))
    print(load_line())
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
