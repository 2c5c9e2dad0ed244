"""VERL-*: the verdict of the verl installed for an interpreter (`check --verl`), as findings.

The verdict is plain data (wizard.detect.env.verl_verdict.Verdict.facts): verl's release and where it is, the stage
that refused the config and verl's own exception text, the checks that ran, were skipped or that release lacks,
and the arguments left out. The findings quote verl's text as it is and name the release (a checkout: its folder
and git describe); the wizard's own rules run beside them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizard.core.findings import Finding, error, info, warning
from wizard.core.rules.catalogue import why
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


def judge_verl(facts: Mapping[str, Any], not_asked: Msg | None = None) -> list[Finding]:
    """The findings of one verdict (none when verl accepted the config with everything the run gives it)."""
    problem = facts.get("problem")
    if problem == "not_asked":
        return [warning("VERL-004", PATHS, not_asked or msg("verl.not_asked.no_folder", path="?"), why("VERL-004"))]
    if problem in ("timeout", "failed", "no_report", "garbled"):
        return [
            error("VERL-003", PATHS, _no_verdict(problem, facts["python"], facts.get("detail") or ""), why("VERL-003"))
        ]
    findings: list[Finding] = []
    stage, quoted = facts.get("stage"), facts.get("error") or ""
    if stage == "import":
        findings.append(
            error("VERL-003", PATHS, msg("verl.import_failed", python=facts["python"], error=quoted), why("VERL-003"))
        )
    elif stage == "compose":
        findings.append(
            error("VERL-001", PATHS, msg("verl.refuses_compose", verl=who(facts), error=quoted), why("VERL-001"))
        )
    elif stage:
        text = msg("verl.refuses_check", verl=who(facts), check=stage, error=quoted)
        findings.append(error("VERL-002", PATHS, text, why("VERL-002")))
    for check, quoted_skip in facts.get("skipped") or []:
        text = msg("verl.skipped", verl=who(facts), check=check, error=quoted_skip)
        findings.append(warning("VERL-004", PATHS, text, why("VERL-004")))
    if facts.get("left_out"):
        text = msg("verl.left_out", verl=who(facts), arguments=list(facts["left_out"]))
        findings.append(warning("VERL-004", PATHS, text, why("VERL-004")))
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
