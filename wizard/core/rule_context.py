"""What the rules see (`RuleContext`), and the context after a fix: the rules' input, apart from the rules.

The rules engine (wizard.core.rules), the fix checks and the memory fixes' search (wizard.core.memory.fixes)
all build contexts from answers; keeping this apart from the engine lets those import it without the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from wizard.core.answers.model import Answers
from wizard.core.findings import Finding
from wizard.core.layers import answers_from_flat, canonical_address
from wizard.core.plan import Plan, build_plan

if TYPE_CHECKING:
    from wizard.core.model_facts import ModelFacts
    from wizard.core.paths import LocalPath
    from wizard.core.rule_inputs import DataReport, LaunchScriptFacts
    from wizard.core.rules.deploy.facts import DeployFacts
    from wizard.core.topology import Topology
    from wizard.core.unknowns import Unknowns

Rule = Callable[["RuleContext"], Iterable[Finding]]


@dataclass(frozen=True)
class RuleContext:
    """What the rules see. `topology`, `models`, `data` and `paths` are filled in when detected, pasted or read."""

    answers: Answers
    plan: Plan
    flat: dict[str, Any] = field(default_factory=dict)
    mode: str = "local"  # "local": paths are checked on this machine; "cluster": they are not
    topology: Topology | None = None
    models: dict[str, ModelFacts] = field(default_factory=dict)
    data: DataReport | dict[str, Any] = field(default_factory=dict)  # the data report (wizard.detect.data.report)
    paths: dict[str, LocalPath] = field(default_factory=dict)  # path -> this machine's facts about it
    deploy: DeployFacts | None = None
    env: frozenset[str] | None = None  # the run's secret variables set in this machine's environment; None: not known
    script: LaunchScriptFacts | None = (
        None  # the launch script `check` read (overrides with their +/~ prefixes, shell problems)
    )
    unknowns: Unknowns | None = None  # keys a script leaves unknown; rules that read them are skipped
    # False where `check` read a verl config or a launch script: nothing says where it runs (the rules that judge
    # the target the answers name, such as DEPLOY-017's one-node local Ray, say nothing then).
    target_known: bool = True


def context_for(answers: Answers, flat: dict | None = None, **kwargs: Any) -> RuleContext:
    """The context of these answers (and their flat values), the plan made from them, and the facts given."""
    return RuleContext(answers=answers, plan=build_plan(answers), flat=dict(flat or {}), **kwargs)


def flat_after_fix(flat: dict[str, Any], fix_set: dict[str, Any]) -> dict[str, Any]:
    """The flat answers after setting the fix's keys (None removes a key)."""
    flat = dict(flat)
    for key, value in fix_set.items():
        address = canonical_address(key)
        if value is None:
            flat.pop(address, None)
        else:
            flat[address] = value
    return flat


def with_flat(ctx: RuleContext, flat: dict[str, Any]) -> RuleContext:
    """The context with these flat answers (and the answers and plan made from them), the rest as it is."""
    answers = answers_from_flat(flat)
    return replace(ctx, answers=answers, plan=build_plan(answers), flat=flat)


def apply_fix(ctx: RuleContext, fix_set: dict[str, Any]) -> RuleContext:
    """The context after setting the fix's keys (None removes a key) on the flat answers."""
    return with_flat(ctx, flat_after_fix(ctx.flat, fix_set))
