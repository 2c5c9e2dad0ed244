"""`verl-wizard doctor [CONFIG|SCRIPT | --answers F | --preset P] [--python PY]`: will this run start in this environment?

It asks the interpreter that will run verl (default: the one running the wizard) what it has, in a child process
with a deadline (wizard.detect.env.probe: no torch, verl or ray is imported here), and judges that against the
run (wizard.core.rules.env.packages*): verl's release, torch's CUDA build and the driver, the rollout engine in the
range verl's own metadata declares (with the exact install line), the packages verl requires, the kernels the
config uses, shared memory, open files, disk for a checkpoint, model downloads, and this shell's GPU mask, Ray
address and NCCL variables. Exit 1 on an error finding, 2 on unusable input.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wizard.commands.common import seconds
from wizard.commands.output import as_json, as_text, emit
from wizard.core.findings import has_errors
from wizard.core.workspace import ANSWERS_FILE, LAUNCH_SCRIPT
from wizard.detect.config.files import read_check_input
from wizard.detect.env.doctor import doctor
from wizard.detect.env.probe import resolve_python
from wizard.detect.inputs import open_workspace, read_inputs
from wizard.emit.install import install_for
from wizard.errors import ExitStatus, UsageError
from wizard.i18n.text import msg, render


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="check that the interpreter and machine that will run verl can start this run",
        description="Inspect the Python that will run verl (its packages, torch's CUDA build, the driver, the rollout "
        "engine) and this machine (shared memory, limits, disk, downloads, GPU mask, Ray and NCCL variables), "
        "and judge them against a run: a config, launch script, answers file or preset (default: verl's defaults).",
    )
    p.add_argument("path", nargs="?", help="config.yaml, answers.yaml, or a launch script")
    p.add_argument("--answers", help="an answers.yaml")
    p.add_argument("--preset", help="a preset (see `verl-wizard presets`)")
    p.add_argument("--python", help="the interpreter that runs verl (default: this one); a path or a name on PATH")
    p.add_argument(
        "--timeout", type=seconds, default=20.0, help="seconds (1-600) the interpreter may take (default 20)"
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def _layered(args: argparse.Namespace):
    """The run doctor judges against: the file, the answers or the preset, over verl's defaults."""
    if args.path is not None and (args.answers is not None or args.preset is not None):
        raise UsageError("doctor: give a config or script, or --answers / --preset, not both")
    workspace = open_workspace(mode="cluster")
    if args.path is not None:
        if args.path == "":
            raise UsageError("doctor '': empty path; give a config.yaml, answers.yaml or launch script")
        source = read_check_input(Path(args.path), {}, getattr(args, "script_args", None))
        workspace.set_layer(LAUNCH_SCRIPT if source.kind == "launch script" else ANSWERS_FILE, source.flat)
    else:
        read_inputs(workspace, preset=args.preset, answers=args.answers)
    return workspace.layered


def summary(report: dict[str, Any], engine: str) -> dict[str, Any]:
    """The facts doctor prints above its findings (and gives in JSON as `environment`)."""
    packages, torch, nvml = report.get("packages", {}), report.get("torch") or {}, report.get("nvml") or {}
    return {
        "python": report.get("python", {}).get("executable"),
        "python_version": report.get("python", {}).get("version"),
        "verl": (report.get("verl") or {}).get("version"),
        "verl_location": (report.get("verl") or {}).get("location"),
        "torch": torch.get("version"),
        "torch_cuda": torch.get("cuda"),
        "engine": engine,
        "engine_version": packages.get(engine),
        "ray": packages.get("ray"),
        "driver": nvml.get("driver"),
        "cuda_driver": nvml.get("cuda_driver"),
        "gpus": [g.get("name") for g in nvml.get("gpus", [])],
    }


def _summary_lines(facts: dict[str, Any]) -> list[str]:
    none = "-"
    cuda = facts["cuda_driver"]
    return [
        render(msg("env.report.python", python=facts["python"], version=facts["python_version"])),
        render(
            msg(
                "env.report.facts",
                verl=facts["verl"] or none,
                torch=facts["torch"] or none,
                cuda=facts["torch_cuda"] or none,
                engine=facts["engine"],
                engine_version=facts["engine_version"] or none,
                ray=facts["ray"] or none,
                gpus=len(facts["gpus"]),
                driver=f"{facts['driver']} (CUDA {cuda // 1000}.{cuda % 1000 // 10})" if facts["driver"] else none,
            )
        ),
    ]


def run(args: argparse.Namespace) -> int:
    layered = _layered(args)
    answers = layered.answers
    python = resolve_python(args.python)
    findings, report = doctor(layered, python, install_for(answers).line, deadline_s=args.timeout)
    facts = summary(report, answers.rollout.name or "vllm") if report is not None else None
    if args.format == "json":
        emit(as_json(findings, environment=facts))
    else:
        if facts is not None:
            emit("\n".join(_summary_lines(facts)))
        emit(as_text(findings))
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK
