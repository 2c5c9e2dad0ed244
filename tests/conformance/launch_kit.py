"""What the real launches of the conformance tier share: tiny model and data files, the environment a launch
runs in, and verl 0.9.1's own lines that say how far a run got.

A launch here is the real one (bash runs the written run.sh, ray-job.sh or job.sbatch; verl 0.9.1 runs from
the conformance environment) on a machine without GPUs: verl composes its config, validates it, starts or
joins Ray, starts its TaskRunner and TransferQueue, loads the tokenizer and the data, and stops at its own
GPU check. Nothing is downloaded; every service listens on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.conformance.conftest import HERE

# What verl 0.9.1 prints at each stage (verl/trainer/main_ppo.py, verl/single_controller/ray/base.py).
VALIDATED = "[validate_config] All configuration checks passed successfully!"
TASK_RUNNER = "(TaskRunnerV1 pid="


def gpu_check_line(gpus: int) -> str:
    """The line verl 0.9.1's ResourcePoolManager raises when Ray has no GPUs for the run."""
    return f"ValueError: Total available GPUs 0 is less than total desired GPUs {gpus}"


# A key verl does not have, given on the command line: Hydra (composing verl's config) stops before anything
# starts, with its own words.
WRONG_KEY = "trainer.n_gpus_per_nod=1"
WRONG_KEY_ERROR = "Could not override 'trainer.n_gpus_per_nod'"

ROWS = 300  # more than the workshop preset's train_batch_size (256): verl builds its dataloader before the GPU check

BUILD_FILES = """\
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import pyarrow as pa, pyarrow.parquet as pq
import verl_validate
root = Path(sys.argv[2])
(root / "models").mkdir(parents=True, exist_ok=True)
models = verl_validate.build_models(root / "models")
rows = [
    {
        "data_source": "openai/gsm8k",
        "prompt": [{"role": "user", "content": f"what is {i} plus {i}"}],
        "ability": "math",
        "reward_model": {"style": "rule", "ground_truth": str(2 * i)},
        "extra_info": {"index": i},
    }
    for i in range(int(sys.argv[3]))
]
pq.write_table(pa.Table.from_pylist(rows), root / "train.parquet")
pq.write_table(pa.Table.from_pylist(rows[:20]), root / "test.parquet")
print(json.dumps(models))
"""


@dataclass(frozen=True)
class Assets:
    """A tiny causal LM (config and tokenizer, no weights) and GSM8K-shaped parquet files."""

    model: str
    train: str
    val: str

    def sets(self) -> list[str]:
        """`new --set` flags that point the workshop preset at them."""
        values = {
            "actor_rollout_ref.model.path": self.model,
            "critic.model.path": self.model,
            "data.train_files": self.train,
            "data.val_files": self.val,
        }
        return [arg for key, value in values.items() for arg in ("--set", f"{key}={value}")]


def build_assets(verl_python: str, root: Path) -> Assets:
    """Build the files with the conformance environment's own libraries (the harness's tiny model)."""
    import json

    proc = subprocess.run(
        [verl_python, "-c", BUILD_FILES, str(HERE), str(root), str(ROWS)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    models = json.loads(proc.stdout.strip().splitlines()[-1])
    return Assets(models["lm"], str(root / "train.parquet"), str(root / "test.parquet"))


def short_temp_dir(prefix: str) -> str:
    """A folder under /tmp with a short name: Ray's socket paths must fit in 107 bytes."""
    return tempfile.mkdtemp(prefix=prefix, dir="/tmp")


def launch_env(verl_python: str, home: Path, ray_tmp: str, **extra: str) -> dict[str, str]:
    """The environment of a user whose `python3` and `ray` are the conformance environment's: its bin first on
    PATH, a HOME of its own (no token file, no cache of this machine), nothing downloaded, no GPU mask."""
    env = dict(os.environ)
    for name in list(env):
        if name.startswith(("RAY_", "SLURM_", "CUDA_", "WANDB_")) or name in ("VIRTUAL_ENV", "PYTHONPATH"):
            env.pop(name)
    env.update(
        PATH=f"{Path(verl_python).parent}:{env.get('PATH', '/usr/bin:/bin')}",
        HOME=str(home),
        RAY_TMPDIR=ray_tmp,
        RAY_USAGE_STATS_ENABLED="0",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_pids(sid: int) -> list[int]:
    """Processes of one process session (a service started with start_new_session): its own and nothing else."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    """A launch in its own process session, every process of that session ended afterwards (Ray leaves some)."""
    proc = subprocess.Popen(
        cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        out = ""
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        out += f"\n[timed out after {timeout}s]"
    finally:
        for pid in session_pids(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, "")


def new(out: Path, *args: str) -> Path:
    """`verl-wizard new --preset workshop-0.5b-1gpu ARGS --out OUT` from the project's environment."""
    repo = HERE.parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(repo), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-m", "wizard", "new", "--preset", "workshop-0.5b-1gpu", *args, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        cwd=repo,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def remove(path: str | Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
