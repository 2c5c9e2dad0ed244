"""VERL-*: the verdict of the verl installed for an interpreter (`check --verl`), as findings.

The verdict is plain data (wizard.detect.env.verl_verdict.Verdict.facts): verl's release and where it is, the stage
that refused the config and verl's own exception text, the checks that ran, were skipped or that release lacks,
and the arguments left out. The findings quote verl's text as it is and name the release (a checkout: its folder
and git describe); the wizard's own rules run beside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizard.core.findings import Finding, Severity, info
from wizard.core.rules.declare import emits, make_finding, why
from wizard.i18n.text import Msg, msg

PATHS = ("--verl",)


def who(facts: Mapping[str, Any]) -> Msg:
    """The verl that answered: its release and interpreter, or a checkout's folder and git describe."""
    version = facts.get("version") or "?"
    if facts.get("checkout"):
        if facts.get("describe"):
            return msg("verl.who.checkout", version=version, location=facts["location"], describe=facts["describe"])
        return msg("verl.who.folder", version=version, location=facts["location"])
    return msg("verl.who.installed", version=version, python=facts["python"])


@emits(
    "VERL-001",
    Severity.ERROR,
    title="The verl that runs refuses to compose the config",
    why="--verl asks the verl installed for that interpreter (any release, fork or checkout) to compose the config with its own Hydra config tree, as python -m verl.trainer.main_ppo does; a key or config group that release lacks, or a value Hydra cannot merge, stops the run before anything starts. The finding quotes verl's own error and names the release.",
)
@emits(
    "VERL-002",
    Severity.ERROR,
    title="The verl that runs refuses the config in its start-up checks",
    why="Before Ray starts, main_ppo runs validate_config (the batch split over the GPUs, the micro batch settings, the critic's chain) and its TaskRunner resolves every interpolation; what they raise stops the run before any worker starts. The finding quotes verl's own message and names the release.",
)
@emits(
    "VERL-003",
    Severity.ERROR,
    title="The verl that runs gave no verdict",
    why="verl is asked in a child process of that interpreter with a deadline (--timeout); a verl that hangs, fails on import or answers garbage gives no verdict, and would not start the run either.",
)
@emits(
    "VERL-004",
    Severity.WARNING,
    title="verl's verdict is partial",
    why="verl was asked without something the run gives it: an argument whose value is unknown here (verl composes its own value instead), a --config-path folder that is not on this machine, or a check that needs an engine not installed here (vLLM for the LoRA rank); the wizard's own rules still judge the rest.",
)
def judge_verl(facts: Mapping[str, Any], not_asked: Msg | None = None) -> list[Finding]:
    """The findings of one verdict (none when verl accepted the config with everything the run gives it)."""
    problem = facts.get("problem")
    if problem == "not_asked":
        return [make_finding("VERL-004", PATHS, not_asked or msg("verl.not_asked.no_folder", path="?"))]
    if problem in ("timeout", "failed", "no_report", "garbled"):
        return [make_finding("VERL-003", PATHS, _no_verdict(problem, facts["python"], facts.get("detail") or ""))]
    findings: list[Finding] = []
    stage, quoted = facts.get("stage"), facts.get("error") or ""
    if stage == "import":
        findings.append(
            make_finding("VERL-003", PATHS, msg("verl.import_failed", python=facts["python"], error=quoted))
        )
    elif stage == "compose":
        findings.append(make_finding("VERL-001", PATHS, msg("verl.refuses_compose", verl=who(facts), error=quoted)))
    elif stage:
        text = msg("verl.refuses_check", verl=who(facts), check=stage, error=quoted)
        findings.append(make_finding("VERL-002", PATHS, text))
    for check, quoted_skip in facts.get("skipped") or []:
        text = msg("verl.skipped", verl=who(facts), check=check, error=quoted_skip)
        findings.append(make_finding("VERL-004", PATHS, text))
    if facts.get("left_out"):
        text = msg("verl.left_out", verl=who(facts), arguments=list(facts["left_out"]))
        findings.append(make_finding("VERL-004", PATHS, text))
    if facts.get("missing") and stage != "import":
        text = msg("verl.missing", verl=who(facts), checks=list(facts["missing"]))
        findings.append(info("VERL-004", PATHS, text, why("VERL-004")))
    return findings


def _no_verdict(problem: str, python: str, detail: str) -> Msg:
    if problem == "timeout":
        return msg("verl.timeout", python=python, seconds=detail)
    if problem == "no_report":
        return msg("verl.no_report", python=python, detail=detail)
    if problem == "garbled":
        return msg("verl.garbled", python=python, detail=detail)
    return msg("verl.failed", python=python, detail=detail)


def accepted(facts: Mapping[str, Any]) -> Msg | None:
    """The note of a verl that accepted the config: its release and the checks that passed (None otherwise)."""
    if facts.get("problem") or facts.get("stage"):
        return None
    return msg("verl.accepts", verl=who(facts), checks=list(facts.get("checks") or []))
