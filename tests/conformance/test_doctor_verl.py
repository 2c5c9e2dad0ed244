"""`doctor` and `preflight` on real environments: verl 0.9.1 with a CPU torch and no engine (the conformance env),
the same env with another engine release on its path, and a two-node Ray cluster on 127.0.0.1 with token
authentication where one node was started with a different vllm.

The engine releases are distributions' metadata (.dist-info) on PYTHONPATH: what pip would leave of the package for
importlib.metadata, which is all the probe reads; the range they are judged against is the installed verl 0.9.1's
own METADATA.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, cli_subprocess

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]
INSTALL = 'pip install "verl[vllm,fsdp]==0.9.1"'


def dist(root: Path, name: str, version: str) -> Path:
    info = root / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return root


def doctor(*args: str, env: dict | None = None) -> tuple[int, dict]:
    full = {**os.environ, "PYTHONPATH": str(ROOT)}
    if env and "PYTHONPATH" in env:  # the wizard's own package stays importable behind what the test plants
        env = {**env, "PYTHONPATH": f"{env['PYTHONPATH']}{os.pathsep}{ROOT}"}
    full.update(env or {})
    proc = cli_subprocess("doctor", *args, "--format", "json", env=full, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def by_id(doc: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in doc["findings"]:
        out.setdefault(f["id"], []).append(f["message"])
    return out


def test_verl_091_on_a_cpu_torch_without_an_engine(verl_python):
    code, doc = doctor("--preset", "workshop-grpo-0.5b-1gpu", "--python", verl_python)
    found = by_id(doc)
    assert code == 1 and doc["environment"]["verl"] == "0.9.1" and doc["environment"]["torch_cuda"] is None
    assert found["ENV-003"] == [
        f"torch {doc['environment']['torch']} is a CPU build (no CUDA): every worker fails at its first .cuda()"
    ]
    engine = next(f for f in doc["findings"] if f["id"] == "ENV-006")
    assert "vllm" in engine["message"] and engine["fixes"][0]["label"] == f"run: {INSTALL}"
    assert "ENV-002" not in found and "ENV-007" not in found  # verl 0.9.1 with the requirements it installed


def test_an_engine_outside_the_range_verl_091_declares(verl_python, tmp_path):
    plant = dist(tmp_path / "old", "vllm", "0.11.0")
    _, doc = doctor("--preset", "workshop-grpo-0.5b-1gpu", "--python", verl_python, env={"PYTHONPATH": str(plant)})
    assert by_id(doc)["ENV-006"] == ["vllm 0.11.0 is installed; verl 0.9.1 declares vllm==0.24.0"]
    fits = dist(tmp_path / "new", "vllm", "0.24.0")
    _, clean = doctor("--preset", "workshop-grpo-0.5b-1gpu", "--python", verl_python, env={"PYTHONPATH": str(fits)})
    assert "ENV-006" not in by_id(clean)


def _ray(python: str, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [python, "-m", "ray.scripts.scripts", "start", *args], env=env, capture_output=True, text=True, timeout=180
    )


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def two_nodes(tmp_path):
    """A head and a second node on 127.0.0.1 with token auth; the second sees a vllm 0.11.0 the head does not."""
    temp_dir = tempfile.mkdtemp(prefix="rd", dir="/tmp")  # Ray's socket paths must fit in 107 bytes
    token = secrets.token_hex(32)
    env = dict(os.environ, HOME=str(tmp_path), RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token, RAY_USAGE_STATS_ENABLED="0")
    for name in ("RAY_ADDRESS", "CUDA_VISIBLE_DEVICES", "PYTHONPATH"):
        env.pop(name, None)
    port = 20000 + secrets.randbelow(30000)  # outside the worker port range 10002-19999
    head = _ray(
        sys.executable, env, "--head", "--node-ip-address=127.0.0.1", f"--port={port}", "--num-cpus=1",
        "--num-gpus=0", "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp_dir}",
        f"--ray-client-server-port={_free_port()}", f"--dashboard-agent-listen-port={_free_port()}",
    )  # fmt: skip
    planted = dict(env, PYTHONPATH=str(dist(tmp_path / "plant", "vllm", "0.11.0")))
    worker = _ray(
        sys.executable, planted, f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
        "--num-gpus=0", "--disable-usage-stats", f"--dashboard-agent-listen-port={_free_port()}",
    )  # fmt: skip
    try:
        assert head.returncode == 0 and worker.returncode == 0, head.stderr[-2000:] + worker.stderr[-2000:]
        yield f"127.0.0.1:{port}", token
    finally:
        for proc in Path("/proc").iterdir():
            if proc.name.isdigit():
                with contextlib.suppress(OSError):
                    if temp_dir.encode() in (proc / "cmdline").read_bytes():
                        os.kill(int(proc.name), signal.SIGKILL)
        time.sleep(1)
        subprocess.run(["rm", "-rf", temp_dir], check=False)


def test_preflight_names_what_differs_between_two_nodes(two_nodes, tmp_path):
    address, token = two_nodes
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path), RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token)
    env.pop("RAY_ADDRESS", None)
    proc = cli_subprocess(
        "preflight", "--address", address, "--timeout", "90", "--format", "json", env=env, timeout=150
    )
    doc = json.loads(proc.stdout)
    differ = [f for f in doc["findings"] if f["id"] == "ENV-016"]
    assert len(doc["nodes"]) == 2 and proc.returncode == 1, proc.stdout + proc.stderr
    assert [f["paths"] for f in differ] == [["vllm"]]  # the planted difference, and nothing else differs
    assert "0.11.0 on " in differ[0]["message"] and "- on " in differ[0]["message"]
