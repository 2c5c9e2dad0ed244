"""Conformance tier: RUN.md followed literally. Its ```bash blocks, in order, typed into one shell in the run's
folder, against the real pieces this machine has: verl 0.9.1 (the conformance environment's python3 and ray
first on PATH), a Ray head with token authentication, a Slurm cluster where slurm-wlm is installed; recording
stand-ins only for what cannot run here (pip, kubectl, and `ray stop`, which would stop every Ray of the
machine).

- local, one node: `./run.sh` reaches verl's own GPU check (as tests/conformance/test_real_launches.py).
- local, two nodes: the head block starts a real Ray head with a fresh token, the worker block joins it with
  the address and token the head printed, `ray status` counts them, and the launch's driver joins through
  RAY_ADDRESS and reaches "desired GPUs 2". Its neighbour: the worker block without the head's token stops
  before `ray start`.
- ray-job: submitted to the token head with the token exported as RUN.md says; the watch blocks (a second
  terminal, SUBMISSION_ID exported from what the launch printed) list and show that job, the stop block stops it.
- slurm: `sbatch --parsable` under the real Slurm of .ci/slurm-cluster.sh, its watch and stop on that JOBID.
- every preset x every Kubernetes target: the blocks with kubectl recorded, the Secret created from the exported
  value before the apply of the target's file (tests/emit/test_runbooks.py runs them all with stand-ins, fast).
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import time
from pathlib import Path

import pytest

from tests.conformance.launch_kit import (
    TASK_RUNNER,
    VALIDATED,
    build_assets,
    free_port,
    gpu_check_line,
    launch_env,
    new,
    remove,
    run,
    short_temp_dir,
)
from tests.conformance.test_real_launches import ray_head  # noqa: F401 - the token head, a fixture
from tests.conformance.test_slurm_launch import slurm  # noqa: F401 - the two-node Slurm cluster, a fixture
from tests.emit.runbook_kit import Block, blocks, calls, driver, make_stubs, split_runs
from tests.emit.test_run_md import CASES

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]


@pytest.fixture(scope="module")
def assets(verl_python, tmp_path_factory):
    return build_assets(verl_python, tmp_path_factory.mktemp("runbook-assets"))


def section(text: str, *names: str) -> list[Block]:
    return [b for b in blocks(text) if b.section in names]


def follow(verl_python: str, folder: Path, items: list[Block], tmp: Path, stubs=("pip",), real_ray=False, **extra):
    """The blocks typed into one shell in folder, the verl environment first on PATH after the stand-ins; every
    process the blocks started is ended afterwards (a Ray the head block started too)."""
    bin_dir = make_stubs(tmp, stubs, real_ray=real_ray)
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    ray_tmp = short_temp_dir("rb")
    try:
        env = launch_env(verl_python, home, ray_tmp, **extra)
        env.update(
            PATH=f"{bin_dir}:{env['PATH']}",
            STUB_LOG=str(tmp / "calls.log"),
            REAL_RAY=str(Path(verl_python).parent / "ray"),
            REAL_PYTHON3=verl_python,
        )
        proc = run(["bash", "-c", driver(items, tmp)], env, folder, timeout=900)
    finally:
        remove(ray_tmp)
    return split_runs(items, proc.stdout), calls(tmp / "calls.log")


def test_local_run_md_reaches_verls_gpu_check(verl_python, assets, tmp_path):
    folder = new(tmp_path / "run", *assets.sets())
    text = (folder / "RUN.md").read_text()
    runs, recorded = follow(verl_python, folder, section(text, "Install", "Launch"), tmp_path)
    assert recorded[0][:2] == ["pip", "install"] and runs[0].rc == 0
    launch = runs[-1]
    assert launch.block.text == "./run.sh\n" and launch.rc != 0
    assert VALIDATED in launch.output and TASK_RUNNER in launch.output, launch.output[-3000:]
    assert gpu_check_line(1) in launch.output, launch.output[-3000:]


def two_node_local(assets, folder: Path) -> str:
    new(folder, "--set", "trainer.nnodes=2", "--set", f"deploy.ray_port={free_port()}", *assets.sets())
    return (folder / "RUN.md").read_text()


def test_a_two_node_local_run_md_starts_a_cluster_and_its_driver_joins_it(verl_python, assets, tmp_path):
    text = two_node_local(assets, tmp_path / "run")
    items = section(text, "Install", "Ray cluster", "Launch", "Watch", "Stop early")
    runs, recorded = follow(verl_python, tmp_path / "run", items, tmp_path, stubs=("pip", "ray"), real_ray=True)
    by_section = {}
    for r in runs:
        by_section.setdefault(r.block.section, []).append(r)
    head, worker, status = by_section["Ray cluster"]
    assert head.rc == 0 and "Ray runtime started" in head.output, head.output[-3000:]
    printed = re.search(r"^HEAD_ADDRESS=(\S+) RAY_AUTH_TOKEN=([0-9a-f]{64})$", head.output, re.M)
    assert printed, head.output[-2000:]
    assert worker.rc == 0 and "Ray runtime started" in worker.output, worker.output[-3000:]
    # the autoscaler's view lags a joined node by seconds: the status answers with token auth from this shell
    assert status.rc == 0 and "Active:" in status.output and re.search(r"^ 1 node_", status.output, re.M), status.output
    (launch,) = by_section["Launch"]
    assert VALIDATED in launch.output and TASK_RUNNER in launch.output, launch.output[-3000:]
    assert gpu_check_line(2) in launch.output, launch.output[-3000:]
    assert ["ray", "stop"] in recorded, "the stop block ran (recorded: it would stop every Ray of this machine)"


def test_the_worker_block_without_the_heads_token_stops_before_ray_start(verl_python, assets, tmp_path):
    text = two_node_local(assets, tmp_path / "run")
    worker = section(text, "Ray cluster")[1]
    runs, recorded = follow(
        verl_python, tmp_path / "run", [worker], tmp_path, stubs=("ray",), HEAD_ADDRESS="127.0.0.1:6379"
    )
    assert runs[0].rc is None and "RAY_AUTH_TOKEN: export RAY_AUTH_TOKEN first" in runs[0].output
    assert recorded == []


def test_ray_job_run_md_on_a_token_head_submits_watches_and_stops_its_job(verl_python, assets, ray_head, tmp_path):  # noqa: F811
    folder = new(
        tmp_path / "run", "--target", "ray-job", "--set", f"deploy.ray_address={ray_head.jobs_api}", *assets.sets()
    )
    text = (folder / "RUN.md").read_text()
    assert "RAY_AUTH_TOKEN" in "".join(line for line in text.splitlines() if not line.startswith("```"))
    token = {"RAY_AUTH_TOKEN": ray_head.token}  # exported as RUN.md's Secrets section says
    first = tmp_path / "terminal-1"
    first.mkdir()
    runs, _ = follow(verl_python, folder, section(text, "Install", "Secrets", "Launch"), first, **token)
    launch = runs[-1]
    assert "submitted successfully" in launch.output and gpu_check_line(1) in launch.output, launch.output[-3000:]
    submission = re.search(r"Job '(raysubmit_\w+)' submitted successfully", launch.output).group(1)
    # a second terminal: the id exported as RUN.md says, then its watch and stop blocks
    second = tmp_path / "terminal-2"
    second.mkdir()
    later = section(text, "Watch", "Stop early")
    runs, _ = follow(verl_python, folder, later, second, SUBMISSION_ID=submission, **token)
    terminal, listed, logs, stop = runs
    assert terminal.rc == 0, terminal.output
    assert listed.rc == 0 and submission in listed.output, listed.output[-2000:]
    assert logs.rc == 0 and gpu_check_line(1) in logs.output, logs.output[-2000:]
    assert stop.rc == 0 and submission in stop.output, stop.output[-2000:]


def test_slurm_run_md_submits_to_slurm_and_watches_and_cancels_that_job(verl_python, assets, slurm, tmp_path):  # noqa: F811
    folder = new(
        tmp_path / "run",
        "--target",
        "slurm",
        "--set",
        "trainer.nnodes=2",
        "--set",
        f"deploy.ray_port={free_port()}",
        *assets.sets(),
    )
    text = (folder / "RUN.md").read_text()
    # this cluster has no GPUs to give: the one change to what RUN.md says, as test_slurm_launch makes it
    (folder / "job.sbatch").write_text(
        (folder / "job.sbatch").read_text().replace("#SBATCH --gpus-per-node=1", "#SBATCH --gpus-per-node=0")
    )
    runs, _ = follow(verl_python, folder, section(text, "Install", "Launch"), tmp_path, SLURM_CONF=slurm)
    jobid = re.search(r"^JOBID=(\d+)$", runs[-1].output, re.M)
    assert runs[-1].rc == 0 and jobid, runs[-1].output
    deadline = time.monotonic() + 900
    env = dict(os.environ, SLURM_CONF=slurm)
    while subprocess.run(
        ["squeue", "-h", "-j", jobid.group(1)], env=env, capture_output=True, text=True
    ).stdout.strip():
        assert time.monotonic() < deadline, "the job did not end"
        time.sleep(5)
    second = tmp_path / "terminal-2"
    second.mkdir()
    runs, recorded = follow(
        verl_python,
        folder,
        section(text, "Watch", "Stop early"),
        second,
        stubs=("tail",),
        SLURM_CONF=slurm,
        JOBID=jobid.group(1),
    )
    squeue, tail, cancel = runs
    assert squeue.rc == 0 and tail.rc == 0
    # the job has ended: scancel says so of that very job (a wrong JOBID is "Invalid job id specified")
    assert cancel.rc is not None and "Invalid job id" not in cancel.output, cancel.output
    (followed,) = [c for c in recorded if c[0] == "tail"]
    output = folder / followed[-1]
    assert followed[1] == "-f" and output.is_file(), (followed, sorted(p.name for p in folder.iterdir()))
    assert gpu_check_line(2) in output.read_text(errors="replace"), output.read_text(errors="replace")[-3000:]


KUBE = {"kuberay-job": "rayjob.yaml", "kuberay-cluster": "raycluster.yaml", "k8s-job": "k8s-job.yaml"}


@pytest.mark.parametrize("preset,target", [(p, t) for p, t in CASES if t in KUBE])
def test_kubernetes_run_md_creates_its_secret_by_reference_before_the_apply(
    verl_python, run_wizard, preset, target, tmp_path
):
    folder = tmp_path / "run"
    proc = run_wizard("new", "--preset", preset, "--target", target, "--out", str(folder))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (folder / "RUN.md").read_text()
    key = secrets.token_hex(12)
    runs, recorded = follow(verl_python, folder, blocks(text), tmp_path, stubs=("pip", "kubectl"), WANDB_API_KEY=key)
    assert all(r.rc is not None for r in runs), [r.output for r in runs]
    apply = recorded.index(next(c for c in recorded if c[:4] == ["kubectl", "apply", "-f", KUBE[target]]))
    created = [i for i, c in enumerate(recorded) if c[:3] == ["kubectl", "create", "secret"]]
    if "WANDB_API_KEY" in text:
        assert created and created[0] < apply and f"--from-literal=WANDB_API_KEY={key}" in recorded[created[0]]
        assert key not in text
    else:
        assert created == []
