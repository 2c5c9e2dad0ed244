"""Agreement of `check` with verl 0.9.1's own verdict on verl's own example scripts (issue 31).

    scripts/restore_verl_examples.sh          # once: verl's examples/ at COMMIT into .verl-examples/COMMIT/
    .venv/bin/python scripts/verl_examples_agreement.py [--verl-python PY] [--json FILE] [--commit C]

For every examples/**/*.sh it runs `verl-wizard check --mode cluster --format json` (the environment below, in a
folder laid out as verl's repository: examples/ beside the installed verl/), parses the JSON and keeps the exit
code; it reads the script's verl command as check does (the launch-script reader: bash decides the values) and
asks verl 0.9.1 for its verdict on the same --config-path/--config-name and overrides through the conformance
harness (scripts/verl_examples_oracle.py). A script agrees when check fails exactly where verl refuses: at its
start-up (what the harness runs), or at its first training step for the errors in FIRST_STEP, which verl's start-up
cannot see (those scripts are listed apart, with the rule and verl's assertion), or where verl accepts a legacy
`reward_model.enable=True` and, by its own need_reward_model, trains without that reward model (KEY-008; listed
apart too). Scripts of another verl entry point (SFT, generation, ...) have no main_ppo verdict: listed apart,
not counted.
Prints the figure and each disagreement with its reason; exit 0 whatever the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.detect.script.bash.values import Spread, is_known, known  # noqa: E402
from wizard.detect.script.check_input import read_beside  # noqa: E402
from wizard.detect.script.launch import parse_launch_script  # noqa: E402
from wizard.errors import UsageError  # noqa: E402

COMMIT = "88512193628b95f24916c0898d51a8a877d09203"  # verl-project/verl release/v0.9.0 (version file 0.9.0)
EXAMPLES = ROOT / ".verl-examples" / COMMIT / "examples"
DEFAULT_VERL_PYTHON = ROOT / ".venv-verl" / "bin" / "python"
# The environment every script is read in. The scripts' own ${VAR:-default}s decide the rest; these stand in
# for what they take from the machine (DEVICE from `python3 -c 'import torch_npu'`: a GPU machine; the name
# with `$(date ...)` in it), and the folders some scripts need the user to set (no default in the script).
ENV = {
    "DEVICE": "gpu",
    "HOME": "/home/user",
    "EXPERIMENT_NAME": "example",
    "INFER_BACKEND": "vllm",
    "WORK_DIR": "/work",
    "DATA_ROOT": "/data",
    "HDFS_ROOT": "/hdfs",
    "RAY_DATA_HOME": "/ray",
    "DIST_CKPT_PATH": "/ckpt/dist",
    "CKPT_DIR": "/ckpt",
    "checkpoint_dir": "/ckpt",
    "LORA_ADAPTER_PATH": "/adapter",
}
# Per script: more values that stand in for a command's output.
PINS: dict[str, dict[str, str]] = {}
# Positional arguments: none (`bash SCRIPT`, as the examples' own headers run them) unless named here.
ARGS: dict[str, list[str]] = {}
# The errors verl 0.9.1 raises at the first training step, after its start-up accepted the config (and the model
# loaded and the first rollout ran): no check of main_ppo.main or of the config dataclasses computes these sizes,
# which exist only once the workers hold a batch. The harness cannot run that step (it needs the GPUs), so a
# script whose only errors are these, and which verl's start-up accepts, is verl refusing the run one step later.
# tests/conformance/test_verl_examples.py shows verl's own assertion refusing the class's numbers.
FIRST_STEP = {
    "BATCH-004": "verl/workers/engine_workers.py TrainingWorker.train_mini_batch: "
    "assert mini_batch_size % get_data_parallel_size() == 0 (mini_batch_size = actor.ppo_mini_batch_size x rollout.n)",
    "BATCH-005": "verl/workers/engine/utils.py prepare_micro_batches: "
    "assert total_data_size % (force_group_size * micro_batch_size_per_gpu) == 0, on one GPU's share of a mini-batch "
    "(the update) or of the batch (the log-prob passes)",
}
# A legacy switch verl accepts and leaves off: KEY-008 says the run trains without the reward model it asks for at
# reward_model.enable. verl's start-up accepts the config, so the harness also records verl's own answer
# (need_reward_model, RayPPOTrainer's use_rm) and what the legacy key asked: when verl says False where the script
# asked True, verl agrees with the error: it runs, but not the run the script asks for.
UNUSED_REWARD_MODEL = "KEY-008"


@dataclass
class Result:
    """One example: what check said and what verl said."""

    name: str
    rc: int
    parsed: bool
    verdict: str | None = None
    errors: list = field(default_factory=list)
    ids: list = field(default_factory=list)  # every finding's id, errors or not
    entry: str | None = None
    verl: dict | None = None
    why: str | None = None  # why verl was not asked

    @property
    def first_step(self) -> bool:
        """verl's start-up accepts the run and check's errors are all ones verl raises at the first step."""
        return bool(self.verl and self.verl["ok"] and self.errors and set(self.errors) <= FIRST_STEP.keys())

    @property
    def without_reward_model(self) -> bool:
        """verl's start-up accepts the run, check's only error is KEY-008, and verl's own need_reward_model says
        False where the legacy reward_model.enable said True: verl trains without the reward model it was asked for."""
        verl = self.verl or {}
        return bool(
            verl.get("ok")
            and set(self.errors) == {UNUSED_REWARD_MODEL}
            and verl.get("need_reward_model") is False
            and verl.get("legacy_reward_model_enable") is True
        )

    @property
    def agrees(self) -> bool | None:
        """True/False when both sides judged the run; None when verl was not asked."""
        if self.verl is None or not self.parsed:
            return None
        return (self.verdict == "fail") == (not self.verl["ok"] or self.first_step or self.without_reward_model)


def examples(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.sh"))


def layout(verl_python: str, work: Path, folder: Path) -> None:
    """A folder laid out as verl's repository: examples/ (`folder`) beside verl/ (the installed one)."""
    where = subprocess.run(
        [verl_python, "-c", "import os, verl; print(os.path.dirname(verl.__file__))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (work / "examples").symlink_to(folder)
    (work / "verl").symlink_to(where)


def run_check(repo: Path, rel: str) -> tuple[int, dict | None, str]:
    env_flags = [x for k, v in {**ENV, **PINS.get(rel, {})}.items() for x in ("--env", f"{k}={v}")]
    cmd = [str(ROOT / ".venv" / "bin" / "verl-wizard"), "check", "--mode", "cluster", "--format", "json"]
    cmd += [*env_flags, rel, "--", *ARGS.get(rel, [])]
    proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=300, check=False)
    try:
        return proc.returncode, json.loads(proc.stdout), proc.stderr
    except json.JSONDecodeError:
        return proc.returncode, None, proc.stderr or proc.stdout


def request(repo: Path, rel: str) -> tuple[dict | None, str | None, str | None]:
    """(the oracle's request, the entry module, why there is none) for one script, read as check reads it."""
    path = repo / rel
    env = {**ENV, **PINS.get(rel, {}), "PWD": str(repo)}
    old = os.getcwd()
    os.chdir(repo)
    try:
        script = parse_launch_script(path.read_text(), rel, env=env, args=ARGS.get(rel, []), read_file=read_beside)
    except UsageError as exc:
        return None, None, f"not read: {exc}"
    finally:
        os.chdir(old)
    unknown = [f for f in script.arguments if isinstance(f, Spread) or not is_known(f)]
    if unknown:
        return None, script.entry_module, f"{len(unknown)} argument(s) unknown to the reader"
    config_dir = script.config_path.strip("'\"") if script.config_path else None
    name = script.config_name or "ppo_trainer"
    overrides = [known(f) for f in script.arguments]
    overrides = [o for o in overrides if not o.startswith(("--config-path", "--config-name"))]
    if config_dir and config_dir.startswith(str(repo)):
        config_dir = str(repo / os.path.relpath(config_dir, repo))
    req = {"name": rel, "config_dir": config_dir, "config_name": name, "overrides": overrides, "cwd": str(repo)}
    return req, script.entry_module, None


def ask_verl(verl_python: str, requests: list[dict], work: Path) -> dict[str, dict]:
    todo = work / "requests.json"
    todo.write_text(json.dumps(requests))
    proc = subprocess.run(
        [verl_python, str(ROOT / "scripts" / "verl_examples_oracle.py"), str(todo), str(work / "models")],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the oracle failed (rc {proc.returncode}):\n{proc.stderr[-4000:]}")
    verdicts = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return {v["config"]: v for v in verdicts}


def measure(verl_python: str, folder: Path = EXAMPLES) -> list[Result]:
    """Every script under `folder` (verl's examples/) judged by check and, where it runs main_ppo, by verl 0.9.1."""
    with tempfile.TemporaryDirectory(prefix="verl-examples-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        repo.mkdir()
        layout(verl_python, repo, folder)
        results, requests = [], []
        for path in examples(repo / "examples"):
            rel = str(path.relative_to(repo))
            rc, out, err = run_check(repo, rel)
            result = Result(rel, rc, out is not None)
            if out is not None:
                result.verdict = out.get("verdict")
                result.errors = [f["id"] for f in out.get("findings", []) if f.get("severity") == "error"]
                result.ids = [f["id"] for f in out.get("findings", [])]
            else:
                result.why = err.strip().splitlines()[-1] if err.strip() else "no output"
            req, result.entry, why = request(repo, rel)
            if req is not None and result.entry in ("verl.trainer.main_ppo", "verl.trainer.main_ppo_v0"):
                requests.append(req)
            else:
                result.why = why or f"runs {result.entry}, not main_ppo"
            results.append(result)
        verdicts = ask_verl(verl_python, requests, work) if requests else {}
        for result in results:
            result.verl = verdicts.get(result.name)
        return results


def report(results: list[Result], commit: str = COMMIT) -> str:
    judged = [r for r in results if r.agrees is not None]
    agreed = [r for r in judged if r.agrees]
    branch = " (release/v0.9.0)" if commit == COMMIT else ""
    lines = [f"verl examples at {commit}{branch}, verl 0.9.1 as the oracle"]
    lines.append(
        f"scripts: {len(results)}; exit 2: {sum(r.rc == 2 for r in results)}; JSON parsed: "
        f"{sum(r.parsed for r in results)}"
    )
    share = 100.0 * len(agreed) / len(judged) if judged else 0.0
    at_first_step = sum(r.first_step for r in judged)
    unused = sum(r.without_reward_model for r in judged)
    lines.append(
        f"agreement: {len(agreed)}/{len(judged)} = {share:.1f}% ({at_first_step} refused at verl's first step, "
        f"{unused} accepted without the reward model asked for)"
    )
    for r in judged:
        if not r.agrees:
            said = "ok" if r.verl["ok"] else f"{r.verl['stage']}: {r.verl['error']}"
            lines.append(f"DISAGREE {r.name}: check {r.verdict} {sorted(set(r.errors))}; verl {said}")
    for r in judged:
        if r.first_step:
            ids = sorted(set(r.errors))
            then = "; ".join(FIRST_STEP[i] for i in ids)
            lines.append(f"first step {r.name}: check {ids}; verl's start-up accepts, then {then}")
    for r in judged:
        if r.without_reward_model:
            lines.append(
                f"without reward model {r.name}: check [{UNUSED_REWARD_MODEL}]; verl accepts and trains without the "
                "reward model it was asked for (legacy reward_model.enable=True, verl's need_reward_model False)"
            )
    for r in results:
        if r.agrees is None:
            lines.append(f"not judged {r.name}: rc {r.rc}; {r.why}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verl-python", default=os.environ.get("VERL_PYTHON", str(DEFAULT_VERL_PYTHON)))
    parser.add_argument("--json", type=Path, help="also write every result here")
    parser.add_argument("--commit", default=COMMIT, help="the examples restored for another commit of verl")
    args = parser.parse_args()
    folder = ROOT / ".verl-examples" / args.commit / "examples"
    if not folder.is_dir():
        print(f"no {folder.relative_to(ROOT)}: run scripts/restore_verl_examples.sh first")
        return 0
    results = measure(args.verl_python, folder)
    print(report(results, args.commit))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
