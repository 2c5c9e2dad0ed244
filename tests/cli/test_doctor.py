"""`verl-wizard doctor` as a user runs it: exit codes, one-line errors, JSON that parses, judgement of a real
interpreter whose environment the test builds (a verl and an engine as distribution metadata on PYTHONPATH, a torch
package with a CUDA build's version.py), and of interpreters that are not, hang or print garbage.

verl 0.9.1 itself (a CPU torch and no engine) is judged in the conformance tier: tests/conformance/test_doctor_verl.py.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import cli, cli_subprocess
from tests.detect.test_env_probe import fake_site, interpreter

VERL_METADATA = """Metadata-Version: 2.1
Name: verl
Version: 0.9.1
Requires-Dist: ray[default]>=2.41.0
Requires-Dist: transformers!=5.6.0,<5.11,>=5.5.3
Requires-Dist: vllm==0.24.0; extra == "vllm"
"""


def environment(tmp_path: Path, vllm: str | None) -> Path:
    site = fake_site(tmp_path, vllm=vllm)
    info = site / "verl-0.9.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(VERL_METADATA)
    return site


def doctor_json(*args: str) -> tuple[int, dict]:
    proc = cli("doctor", *args, "--format", "json")
    return proc.returncode, json.loads(proc.stdout)


def test_an_engine_outside_the_installed_verls_range_names_the_range(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(environment(tmp_path, vllm="0.11.0")))
    code, doc = doctor_json("--preset", "workshop-grpo-0.5b-1gpu", "--python", sys.executable)
    engine = [f for f in doc["findings"] if f["id"] == "ENV-006"]
    assert code == 1 and engine[0]["message"] == "vllm 0.11.0 is installed; verl 0.9.1 declares vllm==0.24.0"
    assert engine[0]["fixes"][0]["label"] == 'run: pip install "verl[vllm,fsdp]==0.9.1"'
    assert doc["environment"]["verl"] == "0.9.1" and doc["environment"]["torch_cuda"] == "12.8"


def test_the_engine_in_range_and_a_cuda_torch_leave_only_what_this_machine_lacks(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(environment(tmp_path, vllm="0.24.0")))
    _, doc = doctor_json("--preset", "workshop-grpo-0.5b-1gpu", "--python", sys.executable)
    found = {f["id"] for f in doc["findings"]}
    assert "ENV-006" not in found and "ENV-003" not in found and "ENV-002" not in found
    assert "ENV-004" in found  # no NVIDIA driver on this machine


def test_doctor_reads_a_launch_script_and_a_written_config(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(environment(tmp_path, vllm="0.24.0")))
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct "
        "actor_rollout_ref.rollout.name=sglang trainer.n_gpus_per_node=1\n"
    )
    _, doc = doctor_json(str(script), "--python", sys.executable)
    assert any("the rollout engine sglang" in f["message"] for f in doc["findings"])
    assert cli("new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(tmp_path / "out")).returncode == 0
    _, written = doctor_json(str(tmp_path / "out" / "config.yaml"), "--python", sys.executable)
    assert written["environment"]["engine"] == "vllm" and "ENV-006" not in {f["id"] for f in written["findings"]}


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["--python", "/no/such/python"], "verl-wizard: error: --python /no/such/python: no such file or command"),
        (["--python", ""], "verl-wizard: error: --python '': give an interpreter"),
        ([""], "verl-wizard: error: doctor '': empty path"),
        (["x.yaml", "--preset", "workshop-grpo-0.5b-1gpu"], "verl-wizard: error: doctor: give a config or script"),
        (["--timeout", "0"], "verl-wizard: error: argument --timeout"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, start):
    proc = cli_subprocess("doctor", *args)
    assert proc.returncode == 2 and proc.stderr.startswith(start), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_an_interpreter_that_hangs_or_prints_garbage_is_a_finding_within_the_deadline(tmp_path):
    hang = interpreter(tmp_path, "sleep 20")
    start = time.monotonic()
    code, doc = doctor_json("--python", hang, "--timeout", "1")
    assert code == 1 and time.monotonic() - start < 10
    assert [f["id"] for f in doc["findings"]] == ["ENV-001"] and "did not answer within 1 s" in doc["findings"][0][
        "message"
    ]
    (tmp_path / "g").mkdir()
    garbage = interpreter(tmp_path / "g", "echo '\x1b[31m{{{'")
    code, doc = doctor_json("--python", garbage)
    assert code == 1 and "printed no report" in doc["findings"][0]["message"] and doc["environment"] is None


def test_text_output_names_the_interpreter_and_the_facts(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(environment(tmp_path, vllm="0.24.0")))
    proc = cli("doctor", "--preset", "workshop-grpo-0.5b-1gpu", "--python", sys.executable)
    lines = proc.stdout.splitlines()
    assert lines[0] == f"interpreter: {sys.executable} (Python {'.'.join(map(str, sys.version_info[:3]))})"
    assert lines[1].startswith("verl 0.9.1 · torch 2.11.0+cu128 (CUDA 12.8) · vllm 0.24.0 · ray ")
    assert proc.stdout.rstrip().splitlines()[-1].startswith("verdict: fail")
