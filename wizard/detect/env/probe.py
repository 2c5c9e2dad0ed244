"""Run the environment probe (env_probe_script.py) in the interpreter that will run verl, within a deadline.

The wizard's own process never imports torch, verl or ray for this: the probe runs as `PYTHON -c TEXT REQUEST` in
its own session, is killed with its children at the deadline, and its report is the last line that starts with
its mark. What can go wrong is told apart: PYTHON is not there or not executable (bad input: a UsageError), it
ran past the deadline, it exited without a report, or the report is not JSON (each a `ProbeOutcome.problem`
that `doctor` turns into an ENV-001 finding).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.detect.child_process import last_marked, last_words, run_with_deadline
from wizard.errors import UsageError

SCRIPT = Path(__file__).with_name("env_probe_script.py")
MARK = "VERL_WIZARD_DOCTOR "
DEFAULT_DEADLINE_S = 20.0
PACKAGES = (
    "verl",
    "torch",
    "vllm",
    "sglang",
    "transformers",
    "flash-attn",
    "liger-kernel",
    "ray",
    "tensordict",
    "numpy",
    "pyarrow",
    "hydra-core",
    "omegaconf",
    "megatron-core",
    "transformer-engine",
    "nvidia-ml-py",
)
ENV_NAMES = (
    "CUDA_VISIBLE_DEVICES",
    "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES",
    "RAY_ADDRESS",
    "HF_HOME",
    "HF_HUB_OFFLINE",
    "TRANSFORMERS_OFFLINE",
    "HF_DATASETS_OFFLINE",
    "GLOO_SOCKET_IFNAME",
)


@dataclass(frozen=True)
class ProbeOutcome:
    """The report of one probe run, or why there is none (`problem`: a short reason, English, for ENV-001)."""

    python: str
    report: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    detail: str = ""


def resolve_python(python: str | None, flag: str = "--python") -> str:
    """--python (or another flag naming an interpreter, `flag`): a path or a command name on PATH (default: the
    interpreter running the wizard)."""
    if python is None:
        return sys.executable
    if python == "":
        raise UsageError(f"{flag} '': give an interpreter, e.g. {flag} /opt/venv/bin/python or {flag} python3")
    found = python if os.sep in python else shutil.which(python)
    if not found or not Path(found).exists():
        raise UsageError(f"{flag} {python}: no such file or command; give the interpreter that runs verl")
    if Path(found).is_dir() or not os.access(found, os.X_OK):
        raise UsageError(f"{flag} {python}: not an executable file; give the interpreter that runs verl")
    return found


def request_for(model_ids: list[str], local_dir: str) -> dict[str, Any]:
    """What the probe is asked: the packages, the model ids to look for in the cache, the checkpoint folder."""
    return {"packages": list(PACKAGES), "model_ids": model_ids, "local_dir": local_dir, "env_names": list(ENV_NAMES)}


def source() -> str:
    return SCRIPT.read_text(encoding="utf-8")


def parse_report(python: str, stdout: str, stderr: str, returncode: int) -> ProbeOutcome:
    """The probe's output -> its report, or the reason there is none."""
    marked = last_marked(stdout, MARK)
    if marked is None:
        problem = "no_report" if returncode == 0 else "failed"
        return ProbeOutcome(python, problem=problem, detail=last_words(stdout, stderr))
    line, report = marked
    if report is None:
        return ProbeOutcome(python, problem="garbled", detail=line[:120])
    return ProbeOutcome(python, report=report)


def run_probe(python: str, request: dict[str, Any], deadline_s: float = DEFAULT_DEADLINE_S) -> ProbeOutcome:
    """Run the probe in `python` (already resolved) and return its report; never hangs past the deadline."""
    try:
        done = run_with_deadline([python, "-c", source(), json.dumps(request)], deadline_s)
    except OSError as exc:
        raise UsageError(
            f"--python {python}: cannot run it ({exc.strerror or exc}); give the interpreter that runs verl"
        ) from None
    if done is None:
        return ProbeOutcome(python, problem="timeout", detail=f"{deadline_s:g}")
    return parse_report(python, done.stdout, done.stderr, done.returncode)
