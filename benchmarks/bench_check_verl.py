"""`check --verl PY`: at most the installed verl's own import and composition time plus 0.3 s (DESIGN.md section 7).

The peer is verl's side alone: the child the wizard starts (`PY -c wizard/detect/env/verl_verdict_script.py REQUEST`:
import verl, Hydra compose, validate_config, resolve) for the same question, in a fresh process. The measured case
is the whole command in a fresh process: `python -m wizard check PATH --mode cluster --verl PY --format json`, whose
own reading and rules run while verl answers. Rounds alternate (ABAB), each case once untimed first. The
interpreter asked is the conformance environment's (VERL_PYTHON, else .venv-verl); without one the script says so
and exits 0 (nothing to measure). Inputs: the config `new` writes for a preset and a launch script of overrides.

On a loaded 2-CPU machine verl's own import varies by seconds from run to run, more than the budget, so each run of
the whole command also times, in that same run, what the wizard adds around its child: from the command's start to
the child's start, and from the child's answer to the command's end (`check --verl, paired`: the command run with
subprocess.Popen watched; CLOCK_MONOTONIC is shared by the processes). Shown beside the budget's verdict, not in it.

    python benchmarks/bench_check_verl.py [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import ROOT, interleave, load_line, machine_line, run_fresh, table, verdict

BUDGET_S = 0.3
PRESET = "workshop-grpo-0.5b-1gpu"
SCRIPT = """python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_batch_size=16 \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=8 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 \\
    trainer.n_gpus_per_node=8
"""


def interpreter() -> str | None:
    for candidate in (os.environ.get("VERL_PYTHON"), str(ROOT / ".venv-verl" / "bin" / "python")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def inputs(folder: Path) -> dict[str, Path]:
    """The config `new` writes for the preset, and a launch script."""
    out = folder / "out"
    subprocess.run(
        [sys.executable, "-m", "wizard", "new", "--preset", PRESET, "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    script = folder / "run.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    return {"config.yaml": out / "config.yaml", "launch script": script}


def child_argv(python: str, path: Path) -> list[str]:
    """verl's side alone: the child for the question `check` asks about `path`."""
    from wizard.commands.verl_ask import question_for
    from wizard.detect.config.files import read_check_input
    from wizard.detect.env.verl_verdict import source
    from wizard.detect.inputs import open_workspace

    read = read_check_input(path, {}, None)
    question = question_for(read, path, {}, open_workspace())
    request = {
        "config_dir": question.config_dir,
        "config_name": question.config_name,
        "overrides": list(question.overrides),
    }
    return [python, "-c", source(), json.dumps(request)]


# The whole command as the console script runs it (main() with sys.argv), with verl's child watched: when it was
# started and when its answer came back (the end of communicate: its pipes closed as it exited).
PAIRED = """
import json, subprocess, sys, time
marks, record = {}, sys.argv[1]

class Watched(subprocess.Popen):
    def __init__(self, args, *rest, **kwargs):
        super().__init__(args, *rest, **kwargs)
        self.verl = any("VERL_WIZARD_VERL" in str(part) for part in args)
        if self.verl:
            marks["started"] = time.monotonic()

    def communicate(self, *args, **kwargs):
        out = super().communicate(*args, **kwargs)
        if self.verl:
            marks.setdefault("answered", time.monotonic())
        return out

subprocess.Popen = Watched
sys.argv = ["verl-wizard", *sys.argv[2:]]
from wizard.cli import main
code = main()
with open(record, "w") as out:
    json.dump(marks, out)
sys.exit(code)
"""


def paired(check: list[str], record: Path) -> dict[str, float]:
    """One run of the whole command: seconds before verl's child starts and after its answer, in the same run."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    begun = time.monotonic()
    subprocess.run([sys.executable, "-c", PAIRED, str(record), *check[3:]], cwd=ROOT, env=env, capture_output=True)
    ended = time.monotonic()
    marks = json.loads(record.read_text())
    return {"before": marks["started"] - begun, "after": ended - marks["answered"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1 repeat, the config only")
    args = parser.parse_args()
    python = interpreter()
    print(machine_line())
    if python is None:
        print("no verl interpreter (VERL_PYTHON or .venv-verl): nothing to measure")
        return 0
    repeats = 1 if args.quick else args.repeats
    with tempfile.TemporaryDirectory(prefix="bench-check-verl-") as tmp:
        paths = inputs(Path(tmp))
        if args.quick:
            paths = {"config.yaml": paths["config.yaml"]}
        commands: dict[str, list[str]] = {}
        for name, path in paths.items():
            commands[f"{name}: verl alone"] = child_argv(python, path)
            check = [sys.executable, "-m", "wizard", "check", str(path), "--mode", "cluster", "--verl", python]
            commands[f"{name}: check --verl"] = [*check, "--format", "json"]
        for name in paths:
            commands[f"{name}: check --verl, paired"] = commands[f"{name}: check --verl"]
        for argv in commands.values():  # warm: both interpreters' files in the page cache
            run_fresh(argv)

        def measure(case: str) -> dict[str, float]:
            if case.endswith("paired"):
                return paired(commands[case], Path(tmp) / "marks.json")
            run = run_fresh(commands[case])
            if case.endswith("check --verl"):
                doc = json.loads(run.stdout)  # every run answers with its JSON, verl's verdict in it
                assert doc["verl"]["stage"] is None and doc["verl"]["problem"] is None, doc["verl"]
            return {"wall": run.wall, "cpu": run.cpu}

        results = interleave(list(commands), repeats, measure)
    rows, met_all = [], True
    for name in paths:
        alone, whole = results[f"{name}: verl alone"], results[f"{name}: check --verl"]
        extra = whole["wall"].median - alone["wall"].median
        extra_cpu = whole["cpu"].median - alone["cpu"].median  # the child's CPU is in check's (wait4 counts it)
        met = extra <= BUDGET_S
        met_all &= met
        rows.append(
            [f"{name}: verl alone", *alone["wall"].cells(digits=2), f"{alone['cpu'].median:.2f}", "-", "-", "-"]
        )
        cells = [*whole["wall"].cells(digits=2), f"{whole['cpu'].median:.2f}", f"{extra:+.2f}", f"{extra_cpu:+.2f}"]
        rows.append([f"{name}: check --verl", *cells, verdict(met)])
    print(f"verl asked: {python}")
    print(table(["case", "median s", "min s", "max s", "cpu s", "added s", "added cpu s", "budget"], rows))
    around = []
    for name in paths:
        same = results[f"{name}: check --verl, paired"]
        added = [b + a for b, a in zip(same["before"].samples, same["after"].samples, strict=True)]
        cells = [*same["before"].cells(digits=3), *same["after"].cells(digits=3), f"{statistics.median(added):.3f}"]
        around.append([name, *cells])
    headers = ["same run", "before verl s", "min", "max", "after its answer s", "min", "max", "added s (median)"]
    print(table(headers, around))
    print(load_line())
    print(f"check --verl budget: {'met' if met_all else 'MISSED'} (at most {BUDGET_S:g} s over verl alone, median)")
    return 0 if met_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
