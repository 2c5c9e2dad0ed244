"""How to install verl for a run: the extras that verl's own wheel declares for the run's engine and rollout.

The extras and what they pin are data (the snapshot's `extras`, read from the wheel's METADATA by
scripts/snapshot_verl_schema.py), so another verl version brings its own install line. verl 0.9.1 declares
`vllm` and `sglang` (each pinning its engine, torch and transformers) and `fsdp` and `megatron` (the training
engine's kernels); each of them pulls in `verl-core`, which the default V1 trainer needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.plan import engine_of

BASE_EXTRA = "verl-core"  # what every engine and rollout extra of verl 0.9.x pulls in
_PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^;,\s]+)")
_SELF = re.compile(r"^verl\[([^\]]+)\]")


@dataclass(frozen=True)
class Install:
    """The pip line for one run and what it brings."""

    extras: tuple[str, ...]  # in the pip line's order: rollout first, then the training engine
    line: str  # pip install "verl[vllm,fsdp]==0.9.1"
    pins: tuple[str, ...]  # name==version pins those extras bring, nested extras included (vllm==0.24.0, ...)
    undeclared: tuple[str, ...]  # what the run uses and verl declares no extra for (trtllm in 0.9.1)


def wanted_extras(answers: Answers) -> tuple[str, str]:
    """The rollout's extra and the training engine's extra that this run needs (verl's extra names)."""
    rollout = answers.rollout.name or "vllm"
    return rollout, "megatron" if engine_of(answers) == "megatron" else "fsdp"


def _closure(names: tuple[str, ...], declared: dict[str, list[str]]) -> list[str]:
    """Every requirement of the extras, following verl[other] references once each."""
    seen: list[str] = []
    todo = list(names)
    out: list[str] = []
    while todo:
        name = todo.pop(0)
        if name in seen or name not in declared:
            continue
        seen.append(name)
        for req in declared[name]:
            nested = _SELF.match(req)
            if nested:
                todo += [n.strip() for n in nested.group(1).split(",")]
            else:
                out.append(req)
    return out


def install_for(answers: Answers, version: str = verl_schema.TARGET_VERSION) -> Install:
    """The extras of `version` that fit the run (an undeclared one is named, not invented), and the pip line."""
    declared = verl_schema.extras(version)
    chosen = tuple(name for name in wanted_extras(answers) if name in declared)
    undeclared = tuple(name for name in wanted_extras(answers) if name not in declared)
    if not chosen and BASE_EXTRA in declared:
        chosen = (BASE_EXTRA,)
    spec = f"verl[{','.join(chosen)}]=={version}" if chosen else f"verl=={version}"
    pins = []
    for req in _closure(chosen, declared):
        m = _PIN.match(req)
        if m and m.group(0) not in pins:
            pins.append(m.group(0))
    return Install(chosen, f'pip install "{spec}"', tuple(pins), undeclared)
