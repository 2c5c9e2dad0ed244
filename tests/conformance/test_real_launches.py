"""Conformance tier: the written run.sh and ray-job.sh really start verl 0.9.1, up to its own GPU check.

- run.sh of the workshop preset (1 GPU), with the conformance environment's python3 first on PATH and a
  CUDA_VISIBLE_DEVICES=0 mask as a shared machine gives it: verl composes, validates, starts its own Ray,
  its TaskRunner and TransferQueue, reads the tokenizer and the data, and stops at "Total available GPUs 0
  is less than total desired GPUs 1". Its neighbours: a key verl does not have stops at Hydra, before Ray;
  a mask of two GPUs is refused by run.sh itself, with the count, before verl starts.
- ray-job.sh against a real Ray 2.60 head on 127.0.0.1 with token authentication on, started here: the job
  runs verl from its uploaded working dir to the same GPU check. Its neighbours: no token in the shell is
  refused by the script with the message it promises; a wrong token is refused by the cluster; a wrong key
  fails the job at Hydra.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conformance.launch_kit import (
    TASK_RUNNER,
    VALIDATED,
    WRONG_KEY,
    WRONG_KEY_ERROR,
    Assets,
    build_assets,
    free_port,
    gpu_check_line,
    launch_env,
    new,
    remove,
    run,
    session_pids,
    short_temp_dir,
)

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

HEAD_START_S = 180
# On 127.0.0.1 only: verl's own Ray instance binds where it is told, and no dashboard port is taken.
LOCAL_RAY = ("+ray_kwargs.ray_init._node_ip_address=127.0.0.1", "+ray_kwargs.ray_init.include_dashboard=false")


@pytest.fixture(scope="module")
def assets(verl_python, tmp_path_factory) -> Assets:
    return build_assets(verl_python, tmp_path_factory.mktemp("launch-assets"))


def tail(text: str, n: int = 4000) -> str:
    return text[-n:]


# --- run.sh --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_run(assets, tmp_path_factory) -> Path:
    return new(tmp_path_factory.mktemp("local") / "run", *assets.sets())


def run_sh(verl_python: str, folder: Path, tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    ray_tmp = short_temp_dir("rl")
    try:
        home = tmp / "home"
        home.mkdir(exist_ok=True)
        return run(["bash", str(folder / "run.sh"), *args], launch_env(verl_python, home, ray_tmp, **env), folder)
    finally:
        remove(ray_tmp)


def test_run_sh_with_a_one_gpu_mask_reaches_verls_gpu_check(verl_python, local_run, tmp_path):
    proc = run_sh(verl_python, local_run, tmp_path, *LOCAL_RAY, CUDA_VISIBLE_DEVICES="0")
    out = proc.stdout
    assert proc.returncode != 0
    assert VALIDATED in out and TASK_RUNNER in out, tail(out)
    assert gpu_check_line(1) in out, tail(out)


def test_run_sh_with_a_key_verl_lacks_stops_at_hydra_before_ray(verl_python, local_run, tmp_path):
    proc = run_sh(verl_python, local_run, tmp_path, *LOCAL_RAY, WRONG_KEY)
    assert proc.returncode != 0 and WRONG_KEY_ERROR in proc.stdout, tail(proc.stdout)
    assert VALIDATED not in proc.stdout and "Total available GPUs" not in proc.stdout


def test_run_sh_refuses_a_two_gpu_mask_for_a_one_gpu_config_before_verl(verl_python, local_run, tmp_path):
    proc = run_sh(verl_python, local_run, tmp_path, CUDA_VISIBLE_DEVICES="0,1")
    assert proc.returncode == 2
    assert "CUDA_VISIBLE_DEVICES=0,1 shows 2 GPU(s) but the run needs 1 (trainer.n_gpus_per_node)" in proc.stdout
    assert VALIDATED not in proc.stdout


# --- ray-job.sh against a real head ---------------------------------------------------------------------


@dataclass
class Head:
    jobs_api: str
    token: str
    temp_dir: str


def _jobs_api_answers(verl_python: str, env: dict, address: str) -> bool:
    probe = subprocess.run(
        [verl_python, "-m", "ray.scripts.scripts", "job", "list", "--address", address],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return probe.returncode == 0


@pytest.fixture(scope="module")
def ray_head(verl_python, tmp_path_factory):
    """`ray start --head` on 127.0.0.1 with token authentication, its Jobs API up; stopped with its session."""
    home = tmp_path_factory.mktemp("head-home")
    temp_dir = short_temp_dir("rh")
    token = secrets.token_hex(32)
    dashboard = free_port()
    env = launch_env(verl_python, home, temp_dir, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    cmd = [
        verl_python,
        "-m",
        "ray.scripts.scripts",
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={free_port()}",
        "--num-cpus=16",  # verl 0.9.1 holds 10 before its GPU check: TaskRunner, TransferQueue and its 8 units
        "--num-gpus=0",
        "--include-dashboard=true",
        "--dashboard-host=127.0.0.1",
        f"--dashboard-port={dashboard}",
        f"--ray-client-server-port={free_port()}",
        f"--dashboard-agent-listen-port={free_port()}",
        "--disable-usage-stats",
        f"--temp-dir={temp_dir}",
        "--block",
    ]
    log = home / "head.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen(cmd, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True, cwd=home)
    address = f"http://127.0.0.1:{dashboard}"
    try:
        deadline = time.monotonic() + HEAD_START_S
        while not ("Ray runtime started" in log.read_text() and _jobs_api_answers(verl_python, env, address)):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not start:\n{log.read_text()[-3000:]}")
            time.sleep(2)
        yield Head(address, token, temp_dir)
    finally:
        proc.send_signal(signal.SIGTERM)  # `ray start --block` stops its own processes on SIGTERM
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        for pid in session_pids(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        remove(temp_dir)


@pytest.fixture(scope="module")
def ray_job(assets, ray_head, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ray-job") / "run"
    return new(out, "--target", "ray-job", "--set", f"deploy.ray_address={ray_head.jobs_api}", *assets.sets())


def submit(verl_python: str, folder: Path, tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    home = tmp / "submitter-home"  # no ~/.ray/auth_token here: the token comes only from what a test gives
    home.mkdir(exist_ok=True)
    ray_tmp = short_temp_dir("rs")
    try:
        return run(["bash", str(folder / "ray-job.sh"), *args], launch_env(verl_python, home, ray_tmp, **env), folder)
    finally:
        remove(ray_tmp)


def test_ray_job_sh_runs_verl_on_the_cluster_to_its_gpu_check(verl_python, ray_head, ray_job, tmp_path):
    proc = submit(verl_python, ray_job, tmp_path, RAY_AUTH_TOKEN=ray_head.token)
    out = proc.stdout
    assert proc.returncode == 1, tail(out)  # `ray job submit` exits 1 when the job failed
    assert "submitted successfully" in out and VALIDATED in out and TASK_RUNNER in out, tail(out)
    assert gpu_check_line(1) in out, tail(out)


def test_ray_job_sh_without_a_token_is_refused_with_the_scripts_message(verl_python, ray_head, ray_job, tmp_path):
    proc = submit(verl_python, ray_job, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout.strip() == (
        "ray-job.sh: the cluster uses token authentication and this shell has no token: export "
        "RAY_AUTH_TOKEN=<the head's token> (run ray get-auth-token on the head)"
    )


def test_ray_job_sh_with_another_token_is_refused_by_the_cluster(verl_python, ray_head, ray_job, tmp_path):
    proc = submit(verl_python, ray_job, tmp_path, RAY_AUTH_TOKEN="0" * 64)
    assert proc.returncode != 0 and "invalid authentication token" in proc.stdout.lower(), tail(proc.stdout)
    assert "submitted successfully" not in proc.stdout


def test_ray_job_sh_with_a_key_verl_lacks_fails_the_job_at_hydra(verl_python, ray_head, ray_job, tmp_path):
    proc = submit(verl_python, ray_job, tmp_path, WRONG_KEY, RAY_AUTH_TOKEN=ray_head.token)
    assert proc.returncode == 1 and WRONG_KEY_ERROR in proc.stdout, tail(proc.stdout)
    assert VALIDATED not in proc.stdout and "Total available GPUs" not in proc.stdout
