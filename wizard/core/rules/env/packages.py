"""ENV-002..008: the packages of the interpreter that runs verl, judged against the run (`verl-wizard doctor`).

Pure: the facts arrive as the probe's report (wizard.detect.env.env_probe_script: versions from package metadata,
torch's CUDA build, NVML's driver and GPUs), with the install line the command computed from verl's extras. The
machine-level checks (shared memory, limits, disk, downloads, variables) are in environment_machine.py, the
comparison between a cluster's nodes in environment_nodes.py. These are not registered rules: they need a probe
report, which only `doctor` and `preflight` gather.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.findings import Finding, Fix, Severity, warning
from wizard.core.plan import build_plan, engine_of
from wizard.core.rules.declare import declare, emits, make_finding, why
from wizard.i18n.text import msg

if TYPE_CHECKING:
    from packaging.requirements import Requirement

declare(
    "ENV-001",
    Severity.ERROR,
    title="The interpreter that runs verl could not be inspected",
    why="doctor asks the interpreter itself, in a child process with a deadline; one that hangs, crashes or answers garbage at a few lines of standard library will not start verl either.",
)

ENGINES = ("vllm", "sglang")
# Requirements of verl's base set whose absence doctor reports (verl's own `pip install` brings them; these are the
# ones installed over later or imported before the workers start).
CORE = ("ray", "transformers", "tensordict", "numpy", "pyarrow", "hydra-core", "torch")


@dataclass(frozen=True)
class Run:
    """What the checks read of the run: its answers and flat keys, and the command's install line for it."""

    answers: Answers
    flat: dict[str, Any]
    install_line: str
    target: str

    @property
    def rollout(self) -> str:
        return self.answers.rollout.name or "vllm"


def _install(command: str) -> Fix:
    """A fix that is a command to run (no key changes): the install line, a ulimit."""
    return Fix(set={}, label=msg("env.fix.run", command=command))


def requirements(report: dict[str, Any], extra: str | None = None) -> list[Requirement]:
    """verl's declared requirements, base set or one extra: the installed verl's metadata, else the 0.9.1 snapshot's
    extras (the snapshot has no base set: without verl there is nothing to hold its base requirements against)."""
    declared = report.get("verl", {}).get("requires")
    if declared is None:
        snapshot = verl_schema.extras().get(extra, []) if extra else []
        declared = [f'{line}; extra == "{extra}"' for line in snapshot]
    # deferred: start-up cost, ~9 ms of `check` (packaging's requirement tokenizer compiles ~20 regexes, its markers
    # bring logging); only doctor and preflight judge packages
    from packaging.requirements import InvalidRequirement, Requirement

    out: list[Requirement] = []
    for line in declared:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        wanted = re.search(r'extra\s*==\s*"([^"]+)"', str(req.marker) if req.marker else "")
        if (wanted.group(1) if wanted else None) == extra:
            req.marker = None
            out.append(req)
    return out


def canonicalize_name(name: str) -> str:
    """A distribution's name as pip compares it (PEP 503: lower case, runs of -_. as one -)."""
    from packaging.utils import canonicalize_name as canonical  # deferred: start-up cost (see requirements())

    return canonical(name)


def _installed(report: dict[str, Any], name: str) -> str | None:
    packages = {canonicalize_name(k): v for k, v in report.get("packages", {}).items()}
    return packages.get(canonicalize_name(name))


def _satisfies(version: str, req: Requirement) -> bool:
    from packaging.version import InvalidVersion, Version  # deferred: start-up cost (see requirements())

    if not req.specifier:
        return True
    try:
        parsed = Version(version)
    except InvalidVersion:
        return False
    return req.specifier.contains(parsed, prereleases=True) or req.specifier.contains(
        Version(parsed.base_version), prereleases=True
    )


@emits(
    "ENV-002",
    Severity.ERROR,
    title="verl is not installed, or is another release than the config's",
    why="python -m verl.trainer.main_ppo needs verl in the interpreter that runs it; the wizard writes and checks keys of verl 0.9.1, and another release renames or drops some of them (a fork or a checkout is named with its git describe).",
)
def check_verl(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    verl = report.get("verl", {})
    if not verl.get("location") and not verl.get("version"):
        yield make_finding(
            "ENV-002",
            ["verl"],
            msg("env.verl_missing", python=report["python"]["executable"]),
            (_install(run.install_line),),
        )
        return
    version = verl.get("version")
    if version != verl_schema.TARGET_VERSION:
        where = verl.get("location") or ""
        described = f" ({verl['git']})" if verl.get("git") else ""
        yield warning(
            "ENV-002",
            ["verl"],
            msg("env.verl_other", version=version or "?", where=where + described, target=verl_schema.TARGET_VERSION),
            why("ENV-002"),
        )


@emits(
    "ENV-003",
    Severity.ERROR,
    title="torch is missing, or built without CUDA",
    why="verl's workers put the models on GPUs through torch; a CPU build (torch's version ends in +cpu, torch.version.cuda is None) makes every worker fail at its first .cuda() after Ray has started them.",
)
@emits(
    "ENV-005",
    Severity.ERROR,
    title="The driver supports an older CUDA than torch was built for",
    why="A CUDA build of torch needs a driver whose CUDA version is at least the build's major version (minor-version compatibility covers a newer minor at best with warnings); with an older driver torch.cuda.is_available() is False and the workers fail as on a machine without GPUs.",
)
def check_torch(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    torch = report.get("torch")
    if torch is None:
        yield make_finding("ENV-003", ["torch"], msg("env.torch_missing"), (_install(run.install_line),))
        return
    if not torch.get("cuda") and not torch.get("hip"):
        yield make_finding(
            "ENV-003",
            ["torch"],
            msg("env.torch_cpu", version=torch.get("version") or "?"),
            (_install(run.install_line),),
        )
        return
    nvml = report.get("nvml") or {}
    cuda_build, driver = torch.get("cuda"), nvml.get("cuda_driver")
    if not cuda_build or not nvml.get("ok") or not driver:
        return
    supported = (int(driver) // 1000, int(driver) % 1000 // 10)
    try:
        built = tuple(int(p) for p in cuda_build.split(".")[:2])
    except ValueError:
        return
    shown = {"build": cuda_build, "driver": f"{supported[0]}.{supported[1]}", "version": nvml.get("driver", "?")}
    if supported[0] < built[0]:
        yield make_finding("ENV-005", ["torch"], msg("env.cuda_too_old", **shown))
    elif supported < built:
        yield warning("ENV-005", ["torch"], msg("env.cuda_minor_older", **shown), why("ENV-005"))


@emits(
    "ENV-004",
    Severity.ERROR,
    title="No NVIDIA driver or fewer GPUs than the run asks for on this machine",
    why="verl asks Ray for trainer.n_gpus_per_node GPUs per node; where NVML finds no driver or fewer GPUs, Ray has none to give and verl stops with 'Total available GPUs 0 is less than total desired GPUs'.",
)
def check_gpus(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    nvml = report.get("nvml") or {}
    need = build_plan(run.answers).gpus_per_node
    if not nvml.get("ok"):
        yield make_finding(
            "ENV-004", ["trainer.n_gpus_per_node"], msg("env.no_driver", problem=nvml.get("error", "?"), need=need)
        )
        return
    have = len(nvml.get("gpus", []))
    if have < need:
        yield make_finding("ENV-004", ["trainer.n_gpus_per_node"], msg("env.too_few_gpus", have=have, need=need))


@emits(
    "ENV-006",
    Severity.ERROR,
    title="The rollout engine is missing or outside the range verl declares",
    why="verl imports the engine actor_rollout_ref.rollout.name names (vllm, sglang) in its rollout workers, after the models have loaded; verl's own package metadata pins the engine release it was tested with, and another release breaks its server and weight-sync calls.",
)
def check_engine(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    name = run.rollout
    if name not in ENGINES:
        return
    pins = [r for r in requirements(report, name) if canonicalize_name(r.name) == name]
    have = _installed(report, name)
    if have is None:
        yield make_finding(
            "ENV-006",
            ["actor_rollout_ref.rollout.name"],
            msg("env.engine_missing", engine=name),
            (_install(run.install_line),),
        )
        return
    for req in pins:
        if not _satisfies(have, req):
            yield make_finding(
                "ENV-006",
                ["actor_rollout_ref.rollout.name"],
                msg(
                    "env.engine_out_of_range",
                    engine=name,
                    have=have,
                    wanted=str(req.specifier),
                    version=report.get("verl", {}).get("version") or verl_schema.TARGET_VERSION,
                ),
                (_install(run.install_line),),
            )


@emits(
    "ENV-007",
    Severity.ERROR,
    title="A package verl requires is missing or outside verl's declared range",
    why="verl's metadata states the releases it works with (transformers, ray, tensordict, numpy, ...); a package installed later over it (a newer transformers for another model) breaks imports or model loading after the workers start. The pins of the engine's extra (torch, transformers) are the tested set: outside them is a warning.",
)
def check_requirements(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    """verl's base requirements (errors) and the rollout extra's other pins (warnings)."""
    if report.get("verl", {}).get("requires") is None:
        return
    for req in requirements(report):
        name = canonicalize_name(req.name)
        if name not in CORE:
            continue
        have = _installed(report, name)
        if have is None:
            yield make_finding(
                "ENV-007",
                [name],
                msg("env.requirement_missing", name=name, wanted=str(req)),
                (_install(run.install_line),),
            )
        elif not _satisfies(have, req):
            yield make_finding(
                "ENV-007",
                [name],
                msg("env.requirement_out_of_range", name=name, have=have, wanted=str(req.specifier)),
                (_install(run.install_line),),
            )
    if run.rollout not in ENGINES or _installed(report, run.rollout) is None:
        return
    for req in requirements(report, run.rollout):
        name = canonicalize_name(req.name)
        have = _installed(report, name)
        if name in (run.rollout, "verl") or have is None or name not in ("torch", "transformers"):
            continue
        if not _satisfies(have, req):
            yield warning(
                "ENV-007",
                [name],
                msg("env.extra_pin_differs", name=name, have=have, wanted=str(req.specifier), extra=run.rollout),
                why("ENV-007"),
            )


def _attention(run: Run) -> str:
    for key in ("actor_rollout_ref.model.override_config.attn_implementation",):
        if run.flat.get(key):
            return str(run.flat[key])
    nested = run.flat.get("actor_rollout_ref.model.override_config")
    if isinstance(nested, dict) and nested.get("attn_implementation"):
        return str(nested["attn_implementation"])
    return "flash_attention_2"


@emits(
    "ENV-008",
    Severity.ERROR,
    title="An attention or kernel package the config uses is missing",
    why="verl's FSDP workers load the model with attn_implementation flash_attention_2 unless override_config says otherwise, which needs flash-attn; use_liger needs liger-kernel; both fail when the model is built, after the Ray workers start.",
)
def check_kernels(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    needs_flash = engine_of(run.answers) != "megatron" and _attention(run) == "flash_attention_2"
    if needs_flash and _installed(report, "flash-attn") is None:
        yield make_finding(
            "ENV-008",
            ["actor_rollout_ref.model.override_config.attn_implementation"],
            msg("env.flash_attn_missing"),
            (
                Fix(
                    set={"actor_rollout_ref.model.override_config.attn_implementation": "sdpa"},
                    label=msg("env.fix.sdpa"),
                ),
            ),
        )
    for key in ("actor_rollout_ref.model.use_liger", "critic.model.use_liger"):
        if run.flat.get(key) is True and _installed(report, "liger-kernel") is None:
            yield make_finding(
                "ENV-008",
                [key],
                msg("env.liger_missing", key=key),
                (Fix(set={key: False}, label=msg("env.fix.no_liger", key=key)),),
            )


PACKAGE_CHECKS = (check_verl, check_torch, check_gpus, check_engine, check_requirements, check_kernels)
