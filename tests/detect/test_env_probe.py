"""The environment probe run in a real interpreter: what it reads of a real environment the test builds, and how an
interpreter that is not one, hangs or prints garbage is told apart, within its deadline.

The environments are this test's own: a folder on PYTHONPATH holding a `torch` package whose version.py is a CUDA
build's, and a vllm distribution's metadata (.dist-info), read by the probe exactly as it reads an installed one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from wizard.detect.env.probe import request_for, resolve_python, run_probe
from wizard.errors import UsageError


def fake_site(root: Path, vllm: str | None = "0.24.0", cuda: str | None = "12.8") -> Path:
    site = root / "site"
    (site / "torch").mkdir(parents=True)
    (site / "torch" / "__init__.py").write_text("raise ImportError('the probe must not import torch')\n")
    cuda_line = f"cuda: Optional[str] = '{cuda}'" if cuda else "cuda: Optional[str] = None"
    (site / "torch" / "version.py").write_text(
        f"from typing import Optional\n__version__ = '2.11.0+cu128'\n{cuda_line}\nhip: Optional[str] = None\n"
    )
    if vllm:
        info = site / f"vllm-{vllm}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: vllm\nVersion: {vllm}\n")
    return site


def interpreter(tmp_path: Path, body: str) -> str:
    path = tmp_path / "python"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def test_the_probe_reads_torchs_cuda_build_and_versions_without_importing_them(tmp_path, monkeypatch):
    site = fake_site(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("NCCL_SOCKET_IFNAME", "eth0")
    monkeypatch.setenv("WANDB_API_KEY", "not-reported")
    outcome = run_probe(sys.executable, request_for(["Org/Model"], str(tmp_path / "ckpt" / "run")))
    assert outcome.problem is None, outcome
    report = outcome.report
    assert report["torch"] == {"version": "2.11.0+cu128", "cuda": "12.8", "hip": None}
    assert report["packages"]["vllm"] == "0.24.0" and report["packages"]["sglang"] is None
    assert report["disk"]["path"] == str(tmp_path) and report["disk"]["free_bytes"] > 0
    assert report["hf"]["cached"] == {"Org/Model": False}
    assert report["env"].get("NCCL_SOCKET_IFNAME") == "eth0" and "WANDB_API_KEY" not in report["env"]
    assert report["python"]["executable"] and report["python"]["version"].count(".") == 2


def test_a_cpu_build_reads_as_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(fake_site(tmp_path, vllm=None, cuda=None)))
    report = run_probe(sys.executable, request_for([], str(tmp_path))).report
    assert report["torch"]["cuda"] is None and report["packages"]["vllm"] is None


def test_a_cached_model_is_found_under_hf_home(tmp_path, monkeypatch):
    (tmp_path / "hf" / "hub" / "models--Org--Model").mkdir(parents=True)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    report = run_probe(sys.executable, request_for(["Org/Model", "Org/Other"], str(tmp_path))).report
    assert report["hf"]["cached"] == {"Org/Model": True, "Org/Other": False}


@pytest.mark.parametrize("given", ["", "/no/such/python", "no-such-python-on-path-xyz"])
def test_an_interpreter_that_is_not_there_is_bad_input(given):
    with pytest.raises(UsageError) as caught:
        resolve_python(given)
    assert str(caught.value).startswith("--python") and "\n" not in str(caught.value)


def test_a_folder_or_a_file_that_is_not_executable_is_bad_input(tmp_path):
    plain = tmp_path / "python"
    plain.write_text("print(1)\n")
    for given in (str(tmp_path), str(plain)):
        with pytest.raises(UsageError, match="not an executable file"):
            resolve_python(given)
    assert resolve_python(sys.executable) == sys.executable


def test_an_interpreter_that_hangs_is_stopped_at_the_deadline(tmp_path):
    hang = interpreter(tmp_path, "sleep 30 & sleep 30")
    start = time.monotonic()
    outcome = run_probe(hang, request_for([], str(tmp_path)), deadline_s=1.0)
    assert outcome.problem == "timeout" and time.monotonic() - start < 8


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("echo hello; exit 0", "no_report"),
        ("echo 'VERL_WIZARD_DOCTOR {not json'", "garbled"),
        ("echo 'VERL_WIZARD_DOCTOR [1, 2]'", "garbled"),
        ("echo 'cannot start' >&2; exit 3", "failed"),
    ],
)
def test_garbage_is_told_apart(tmp_path, body, problem):
    outcome = run_probe(interpreter(tmp_path, body), request_for([], str(tmp_path)), deadline_s=10)
    assert outcome.problem == problem and outcome.report == {}
    if problem == "failed":
        assert outcome.detail == "cannot start"


def test_the_probe_runs_on_the_oldest_python_it_may_meet():
    """Syntax of 3.8 (the probe runs in whatever interpreter verl lives in): no match, no X | Y types."""
    import ast

    source = (Path(__file__).parents[2] / "wizard" / "detect" / "env" / "env_probe_script.py").read_text()
    ast.parse(source, feature_version=(3, 8))
