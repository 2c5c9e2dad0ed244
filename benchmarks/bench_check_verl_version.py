"""`check --verl-version 0.9.1` with a warm cache: at least 20x faster than verl's own import and composition
(DESIGN.md section 7, issue 31).

The peer is verl's side: in the conformance environment's interpreter (VERL_PYTHON, else .venv-verl), `import verl`
then Hydra's compose of the same question over verl's installed config tree, as main_ppo starts (no validate_config:
the smaller peer). Measured: `python -m wizard check PATH --mode cluster --verl-version 0.9.1 --format json` in a fresh
process with the tree already in the cache (VERL_WIZARD_CACHE: a folder of this run, filled by an untimed first run,
which also keeps the composed base), and `check` without the flag for reference. Rounds alternate (ABAB), each case
once untimed first. Inputs: the config `new` writes for a preset and a launch script of overrides. Without a verl
interpreter the peer is not measured and the script says so (exit 0).

    python benchmarks/bench_check_verl_version.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_check_verl import SCRIPT, inputs, interpreter
from benchmarks.common import interleave, load_line, machine_line, run_fresh, table, verdict

RATIO = 20.0
VERSION = "0.9.1"
PEER = """
import json, os, sys
import verl
from hydra import compose, initialize_config_dir
request = json.loads(sys.argv[1])
folder = request["config_dir"] or os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
with initialize_config_dir(config_dir=folder, version_base=None):
    compose(config_name=request["config_name"], overrides=request["overrides"])
"""


def request_of(path: Path) -> dict:
    """The question `check` composes for `path`: a launch script's overrides, or the config's folder and name."""
    if path.suffix == ".sh":
        lines = [line.strip().rstrip("\\").strip() for line in SCRIPT.splitlines()[1:]]
        return {"config_dir": None, "config_name": "ppo_trainer", "overrides": [line for line in lines if line]}
    return {"config_dir": str(path.parent), "config_name": path.stem, "overrides": []}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1 repeat, the launch script only")
    args = parser.parse_args()
    python = interpreter()
    print(machine_line())
    repeats = 1 if args.quick else args.repeats
    with tempfile.TemporaryDirectory(prefix="bench-check-verl-version-") as tmp:
        paths = inputs(Path(tmp))
        if args.quick:
            paths = {"launch script": paths["launch script"]}
        env = {"VERL_WIZARD_CACHE": str(Path(tmp) / "cache")}
        commands: dict[str, list[str]] = {}
        for name, path in paths.items():
            check = [sys.executable, "-m", "wizard", "check", str(path), "--mode", "cluster", "--format", "json"]
            if python is not None:
                commands[f"{name}: verl import + compose"] = [python, "-c", PEER, json.dumps(request_of(path))]
            commands[f"{name}: check --verl-version"] = [*check, "--verl-version", VERSION]
            commands[f"{name}: check"] = check
        # a launch script whose overrides change every run: no kept verdict, the fast path composes each time
        fresh = Path(tmp) / "fresh.sh"
        fresh_case = "launch script, new overrides each run: check --verl-version"
        commands[fresh_case] = [sys.executable, "-m", "wizard", "check", str(fresh), "--mode", "cluster"]
        commands[fresh_case] += ["--format", "json", "--verl-version", VERSION]
        runs = iter(range(10**6))

        def write_fresh() -> None:
            fresh.write_text(
                SCRIPT.rstrip() + f" \\\n    trainer.experiment_name=bench-{next(runs)}\n", encoding="utf-8"
            )

        write_fresh()
        for argv in commands.values():  # warm: the tree downloaded and its base kept, files in the page cache
            run_fresh(argv, env=env)

        def measure(case: str) -> dict[str, float]:
            if case == fresh_case:
                write_fresh()
            run = run_fresh(commands[case], env=env)
            if case.endswith("--verl-version"):
                tree = json.loads(run.stdout)["verl_tree"]  # every run answers with its JSON, the tree's verdict in it
                assert tree["composed"] and tree["source"] == "cache" and tree["stage"] is None, tree
            elif case.endswith("compose"):
                assert run.code == 0, run.stderr[-500:]
            return {"wall": run.wall, "cpu": run.cpu}

        results = interleave(list(commands), repeats, measure)
    rows, met_all = [], True
    for name in paths:
        ours = results[f"{name}: check --verl-version"]
        plain = results[f"{name}: check"]
        peer = results.get(f"{name}: verl import + compose")
        added = ours["wall"].median - plain["wall"].median
        if peer is not None:
            ratio = peer["wall"].median / ours["wall"].median
            cpu_ratio = peer["cpu"].median / ours["cpu"].median
            met = ratio >= RATIO and cpu_ratio >= RATIO
            met_all &= met
            rows.append(
                [
                    f"{name}: verl import + compose",
                    *peer["wall"].cells(digits=2),
                    f"{peer['cpu'].median:.2f}",
                    "-",
                    "-",
                    "-",
                ]
            )
            cells = [f"{ratio:.1f}x", f"{cpu_ratio:.1f}x", verdict(met)]
        else:
            cells = ["-", "-", "no peer"]
        rows.append(
            [f"{name}: check --verl-version", *ours["wall"].cells(digits=2), f"{ours['cpu'].median:.2f}", *cells]
        )
        rows.append(
            [
                f"{name}: check",
                *plain["wall"].cells(digits=2),
                f"{plain['cpu'].median:.2f}",
                f"+{added:.2f} s",
                "-",
                "-",
            ]
        )
    fresh_run = results[fresh_case]
    peer = results.get("launch script: verl import + compose")
    cells = ["-", "-", "not the budget"]
    if peer is not None:
        ratio = peer["wall"].median / fresh_run["wall"].median
        cells = [f"{ratio:.1f}x", f"{peer['cpu'].median / fresh_run['cpu'].median:.1f}x", "not the budget"]
    rows.append([fresh_case, *fresh_run["wall"].cells(digits=2), f"{fresh_run['cpu'].median:.2f}", *cells])
    print(f"verl peer: {python or 'none (VERL_PYTHON or .venv-verl)'}")
    print(table(["case", "median s", "min s", "max s", "cpu s", "ratio wall", "ratio cpu", "budget"], rows))
    print(load_line())
    print(
        f"check --verl-version budget: {'met' if met_all else 'MISSED'} (at least {RATIO:g}x faster than verl, median)"
    )
    return 0 if met_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
