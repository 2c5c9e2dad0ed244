"""`verl-wizard preflight` against a real Ray head on 127.0.0.1 (token authentication on), stopped at the end.

The head advertises 4 fake GPUs (`--num-gpus 4`) and 22 CPUs: verl reserves 3 CPUs per GPU, verl 0.9.1's
TransferQueue holds 9 (8 storage units and a controller) and one more must be free to place its actors, so 22 is
what a 1 x 4 config needs. Its HOME and temp dir are the test's own, so no token file
or session of the machine is touched, and only this head's process session is stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.helpers import cli

START_TIMEOUT_S = 180
# one pytest-xdist worker runs this module (--dist loadgroup): one Ray head for all its tests, not one per worker
pytestmark = pytest.mark.xdist_group("ray-head")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Head:
    address: str
    token: str
    home: Path


def _session_pids(sid: int) -> list[int]:
    """Processes of the head's own session (it was started with start_new_session): ours and nothing else."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    temp_dir = tempfile.mkdtemp(prefix="rw", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    token = secrets.token_hex(32)
    port = _free_port()
    env = dict(os.environ, HOME=str(home), RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token, RAY_USAGE_STATS_ENABLED="0")
    for name in ("RAY_ADDRESS", "RAY_AUTH_TOKEN_PATH", "CUDA_VISIBLE_DEVICES"):
        env.pop(name, None)
    log = home / "head.log"
    cmd = [
        sys.executable,
        "-m",
        "ray.scripts.scripts",
        "start",
        "--head",
        "--node-ip-address=127.0.0.1",
        f"--port={port}",
        "--num-cpus=22",
        "--num-gpus=4",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--temp-dir={temp_dir}",
        f"--ray-client-server-port={_free_port()}",
        f"--dashboard-agent-listen-port={_free_port()}",
        "--block",
    ]
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=home)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while "Ray runtime started" not in log.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Ray head did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield Head(f"127.0.0.1:{port}", token, home)
    finally:
        proc.send_signal(signal.SIGTERM)  # `ray start --block` stops its own processes on SIGTERM
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=30)
        for pid in _session_pids(proc.pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", temp_dir], check=False)


def preflight(monkeypatch, head: Head, *args: str, token: str | None = None, extra_env: dict | None = None):
    """The command in this process (its probe is a child process that inherits this environment); (result, seconds)."""
    monkeypatch.setenv("HOME", str(head.home))
    for name in ("RAY_ADDRESS", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE", "CUDA_VISIBLE_DEVICES"):
        monkeypatch.delenv(name, raising=False)
    if token is not None:
        monkeypatch.setenv("RAY_AUTH_MODE", "token")
        monkeypatch.setenv("RAY_AUTH_TOKEN", token)
    for name, value in (extra_env or {}).items():
        monkeypatch.setenv(name, value)
    start = time.monotonic()
    result = cli("preflight", *args)
    return result, time.monotonic() - start


@pytest.fixture(scope="module")
def configs(tmp_path_factory):
    base = tmp_path_factory.mktemp("configs")
    fits = ["--set", "trainer.n_gpus_per_node=4", "--set", "actor_rollout_ref.actor.ppo_mini_batch_size=64"]
    assert cli("new", "--preset", "grpo-8b-1x8", *fits, "--out", str(base / "fits")).returncode == 0
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(base / "eight")).returncode == 0
    return base


def test_a_matching_config_passes(ray_head, configs, monkeypatch):
    proc, _ = preflight(
        monkeypatch,
        ray_head,
        "--address",
        ray_head.address,
        "--config",
        str(configs / "fits" / "config.yaml"),
        token=ray_head.token,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 node(s) alive; GPUs per node: 4; CPUs per node: 22" in proc.stdout and "verdict: pass" in proc.stdout
    assert "and 12 CPUs on each of those nodes, plus 9 for its TransferQueue spread over the nodes" in proc.stdout


def test_a_config_asking_for_more_gpus_fails_with_place_007(ray_head, configs, monkeypatch):
    proc, _ = preflight(
        monkeypatch,
        ray_head,
        "--address",
        ray_head.address,
        "--config",
        str(configs / "eight" / "config.yaml"),
        "--format",
        "json",
        token=ray_head.token,
    )
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["verdict"] == "fail"
    place = [f for f in doc["findings"] if f["id"] == "PLACE-007"]
    assert place and place[0]["message"] == "the plan needs 8 GPUs (trainer 8) and the target has 4"
    assert doc["cluster"]["nodes"][0]["gpus"] == 4 and doc["cluster"]["ray_version"] == "2.60.0"


def test_a_driver_without_the_token_or_with_another_is_told_how_to_fix_it(ray_head, configs, monkeypatch):
    config = str(configs / "fits" / "config.yaml")
    proc, _ = preflight(monkeypatch, ray_head, "--address", ray_head.address, "--config", config)
    assert proc.returncode == 1 and "DEPLOY-012" in proc.stdout
    assert "uses token authentication and this driver does not" in proc.stdout and "RAY_AUTH_TOKEN" in proc.stdout
    wrong, _ = preflight(monkeypatch, ray_head, "--address", ray_head.address, "--config", config, token="0" * 64)
    assert wrong.returncode == 1 and "refused this driver's token" in wrong.stdout
    # With the head's token the same config passes: test_a_matching_config_passes.


def test_ray_address_and_the_drivers_visible_devices_come_from_the_environment(ray_head, monkeypatch):
    proc, _ = preflight(
        monkeypatch,
        ray_head,
        token=ray_head.token,
        extra_env={"RAY_ADDRESS": ray_head.address, "CUDA_VISIBLE_DEVICES": "0,1"},
    )
    assert proc.returncode == 1 and f"cluster {ray_head.address}" in proc.stdout
    assert "DEPLOY-001" in proc.stdout and "CUDA_VISIBLE_DEVICES=0,1" in proc.stdout


def test_a_dead_address_fails_fast_with_one_line(ray_head, monkeypatch):
    proc, took = preflight(monkeypatch, ray_head, "--address", f"127.0.0.1:{_free_port()}")
    assert proc.returncode == 1 and took < 15
    assert (
        len(proc.stdout.strip().splitlines()) == 1
        and "DEPLOY-013" in proc.stdout
        and "nothing answers at" in proc.stdout
    )


def test_address_forms_are_checked_before_connecting(ray_head, monkeypatch):
    proc, took = preflight(monkeypatch, ray_head, "--address", "http://127.0.0.1:8265")
    assert proc.returncode == 1 and "DEPLOY-002" in proc.stdout and "GCS address" in proc.stdout and took < 15
    bad, _ = preflight(monkeypatch, ray_head, "--address", "not an address")
    assert bad.returncode == 2 and bad.stderr.startswith("verl-wizard: error: --address not an address:")


def test_a_driver_with_token_mode_and_no_token_anywhere_is_told_where_ray_looks(ray_head, monkeypatch, tmp_path):
    """Ray's core stops such a driver with a C++ error; the probe child's stderr says so, and preflight names it."""
    from wizard.detect.deploy.ray import probe

    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.ray/auth_token here
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    result = probe(ray_head.address, timeout=30)
    assert not result.ok and result.kind == "auth", (result.kind, result.message)
    assert "no token found" in result.message and str(tmp_path / ".ray" / "auth_token") in result.message
    proc = cli("preflight", "--address", ray_head.address)
    assert proc.returncode == 1 and "DEPLOY-012" in proc.stdout and "no token found" in proc.stdout
    assert "DEPLOY-013" not in proc.stdout
