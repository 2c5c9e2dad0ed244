"""Review's "Check this machine": `doctor` for the run on screen, on the machine the wizard runs on.

The same probe and judgement as `verl-wizard doctor` (wizard.detect.env_probe, wizard.core.rules.environment*), with
the active interpreter, for the TUI's thread worker; findings are rendered in the wizard's language.
"""

from __future__ import annotations

import os
import sys

from wizard.core.findings import Finding, Severity, error
from wizard.core.layers import LayeredAnswers
from wizard.core.rules.catalogue import why
from wizard.core.rules.environment import Run
from wizard.core.rules.environment_machine import is_hub_id, judge_environment
from wizard.detect.env_probe import request_for, run_probe
from wizard.emit.install import install_for
from wizard.i18n import t
from wizard.i18n.text import msg, render

MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}
DEFAULT_LOCAL_DIR = "checkpoints"


def doctor_here(layered: LayeredAnswers) -> list[Finding]:
    """The ENV findings for this machine and the active interpreter (ENV-001 when the probe fails)."""
    answers = layered.answers
    models = sorted({p for p in (answers.models.actor_path, answers.models.critic_path) if is_hub_id(p)})
    outcome = run_probe(sys.executable, request_for(models, os.path.join(os.getcwd(), DEFAULT_LOCAL_DIR)))
    if outcome.problem:
        text = msg("env.probe.failed", python=outcome.python, detail=outcome.detail or outcome.problem)
        return [error("ENV-001", ["--python"], text, why("ENV-001"))]
    run = Run(answers, layered.flat, install_for(answers).line, str(answers.deploy.target))
    return judge_environment(run, outcome.report)


def doctor_summary(findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity is Severity.WARNING)
    return t("review.doctor_done", errors=errors, warnings=warnings)


def finding_lines(findings: list[Finding]) -> list[str]:
    return [f"{MARK[f.severity]} {f.id} {render(f.message)}" for f in findings]
