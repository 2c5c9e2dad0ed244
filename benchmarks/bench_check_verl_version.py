"""`check --verl-version 0.9.1` with a warm cache: at least 20x faster than verl's own start-up validation
(DESIGN.md section 7, issue 31).

The budget's peer is DESIGN.md's, the one benchmarks/bench_check.py holds `check` to: verl's start-up validation of
the same question (benchmarks/verl_peer.py under the conformance environment's interpreter, VERL_PYTHON else
.venv-verl: import, Hydra compose, auto_set_device + validate_config, as main_ppo starts). A smaller peer is shown
beside it, not in the budget: `import verl` then Hydra's compose alone (no validate_config). Measured: `python -m
wizard check PATH --mode cluster --verl-version 0.9.1 --format json` in a fresh process with the tree already in
the cache (VERL_WIZARD_CACHE: a folder of this run, filled by an untimed first run, which also keeps the composed
base), and `check` without the flag for reference. Rounds alternate (ABAB), each case once untimed first. Inputs:
the config `new` writes for a preset and a launch script of overrides (for the peers: verl's own ppo_trainer with
those overrides). A launch script whose overrides change every run shows what composing costs `check` (its
ratios are printed, not the budget). Without a verl interpreter the peers are not measured and the script says so
(exit 0).

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
VALIDATE_PEER = Path(__file__).resolve().with_name("verl_peer.py")
BUDGET_PEER = "verl compose + validate_config"  # DESIGN.md section 7's peer: the budget
SMALL_PEER = "verl import + compose"  # shown beside it, not the budget
COMPOSE_PEER = """
import json, os, sys
import verl
from hydra import compose, initialize_config_dir
request = json.loads(sys.argv[1])
folder = request["config_dir"] or os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
with initialize_config_dir(config_dir=folder, version_base=None):
    compose(config_name=request["config_name"], overrides=request["overrides"])
"""
VERL_TREE = "import os, verl; print(os.path.join(os.path.dirname(verl.__file__), 'trainer', 'config'))"


def request_of(path: Path) -> dict:
    """The question `check` composes for `path`: a launch script's overrides, or the config's folder and name."""
    if path.suffix == ".sh":
        lines = [line.strip().rstrip("\\").strip() for line in SCRIPT.splitlines()[1:]]
        return {"config_dir": None, "config_name": "ppo_trainer", "overrides": [line for line in lines if line]}
    return {"config_dir": str(path.parent), "config_name": path.stem, "overrides": []}


def validate_argv(python: str, request: dict, verl_tree: str, models: Path) -> list[str]:
    """benchmarks/verl_peer.py for the request: compose (verl's own tree for a launch script) + validate_config."""
    argv = [python, str(VALIDATE_PEER), request["config_dir"] or verl_tree, "--models-dir", str(models)]
    argv += ["--config-name", request["config_name"]]
    for override in request["overrides"]:
        argv += ["--override", override]
    return argv


def ratio_cells(peer: dict | None, ours: dict) -> list[str]:
    """peer / ours for wall and CPU medians ("-" without a peer)."""
    if peer is None:
        return ["-", "-"]
    return [f"{peer['wall'].median / ours['wall'].median:.1f}x", f"{peer['cpu'].median / ours['cpu'].median:.1f}x"]


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
        verl_tree = run_fresh([python, "-c", VERL_TREE]).stdout.strip() if python else ""
        commands: dict[str, list[str]] = {}
        for name, path in paths.items():
            check = [sys.executable, "-m", "wizard", "check", str(path), "--mode", "cluster", "--format", "json"]
            if python is not None:
                request = request_of(path)
                commands[f"{name}: {BUDGET_PEER}"] = validate_argv(python, request, verl_tree, Path(tmp) / "models")
                commands[f"{name}: {SMALL_PEER}"] = [python, "-c", COMPOSE_PEER, json.dumps(request)]
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
        # warm: the tree downloaded and its base kept, verl_peer's tiny models built, files in the page cache
        for argv in commands.values():
            run_fresh(argv, env=env)

        def measure(case: str) -> dict[str, float]:
            if case == fresh_case:
                write_fresh()
            run = run_fresh(commands[case], env=env)
            if case.endswith("--verl-version"):
                tree = json.loads(run.stdout)["verl_tree"]  # every run answers with its JSON, the tree's verdict in it
                assert tree["composed"] and tree["source"] == "cache" and tree["stage"] is None, tree
            elif case.endswith(BUDGET_PEER):
                answer = json.loads(run.stdout.strip().splitlines()[-1])
                assert answer["ok"], answer  # verl accepts the question: the peer did its whole validation
            elif case.endswith(SMALL_PEER):
                assert run.code == 0, run.stderr[-500:]
            return {"wall": run.wall, "cpu": run.cpu}

        results = interleave(list(commands), repeats, measure)
    rows, met_all = [], True

    def peer_row(case: str, role: str) -> None:
        peer = results[case]
        rows.append([case, *peer["wall"].cells(digits=2), f"{peer['cpu'].median:.2f}", "-", "-", "-", role])

    for name in paths:
        ours = results[f"{name}: check --verl-version"]
        plain = results[f"{name}: check"]
        budget_peer = results.get(f"{name}: {BUDGET_PEER}")
        small_peer = results.get(f"{name}: {SMALL_PEER}")
        added = ours["wall"].median - plain["wall"].median
        if budget_peer is not None:
            wall_ratio = budget_peer["wall"].median / ours["wall"].median
            cpu_ratio = budget_peer["cpu"].median / ours["cpu"].median
            met = wall_ratio >= RATIO and cpu_ratio >= RATIO
            met_all &= met
            peer_row(f"{name}: {BUDGET_PEER}", "the peer")
            peer_row(f"{name}: {SMALL_PEER}", "not the budget")
            judged = verdict(met)
        else:
            judged = "no peer"
        small = ratio_cells(small_peer, ours)[0]
        ours_cells = [*ratio_cells(budget_peer, ours), small, judged]
        rows.append([f"{name}: check --verl-version", *ours["wall"].cells(digits=2), f"{ours['cpu'].median:.2f}"])
        rows[-1] += ours_cells
        rows.append(
            [
                f"{name}: check",
                *plain["wall"].cells(digits=2),
                f"{plain['cpu'].median:.2f}",
                f"{added:+.2f} s",
                "-",
                "-",
                "-",
            ]
        )
    fresh_run = results[fresh_case]
    budget_peer = results.get(f"launch script: {BUDGET_PEER}")
    small = ratio_cells(results.get(f"launch script: {SMALL_PEER}"), fresh_run)[0]
    cells = [*ratio_cells(budget_peer, fresh_run), small, "not the budget"]
    rows.append([fresh_case, *fresh_run["wall"].cells(digits=2), f"{fresh_run['cpu'].median:.2f}", *cells])
    print(f"verl peer: {python or 'none (VERL_PYTHON or .venv-verl)'}")
    header = ["case", "median s", "min s", "max s", "cpu s", "ratio wall", "ratio cpu", "vs import+compose", "budget"]
    print(table(header, rows))
    print(
        f"ratio wall/cpu: against `{BUDGET_PEER}` (benchmarks/verl_peer.py, DESIGN.md section 7's peer: the budget); "
        f"vs import+compose: wall ratio against `{SMALL_PEER}` (no validate_config), shown, not the budget"
    )
    print(load_line())
    print(
        f"check --verl-version budget: {'met' if met_all else 'MISSED'} "
        f"(at least {RATIO:g}x faster than `{BUDGET_PEER}`, median wall and CPU)"
    )
    return 0 if met_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
