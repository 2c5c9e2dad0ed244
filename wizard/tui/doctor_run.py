"""Review's "Check this machine": `doctor` for the run on screen, on the machine the wizard runs on.

The same probe and judgement as `verl-wizard doctor` (wizard.detect.env.doctor: the request, the probe, the findings), with
the active interpreter, for the TUI's thread worker; findings are rendered in the wizard's language.
"""

from __future__ import annotations

import sys

from wizard.core.findings import Finding, Severity
from wizard.core.layers import LayeredAnswers
from wizard.detect.env.doctor import doctor
from wizard.emit.install import install_for
from wizard.i18n import t
from wizard.i18n.text import render
from wizard.tui.widgets.findings_panel import MARK


def doctor_here(layered: LayeredAnswers) -> list[Finding]:
    """The ENV findings for this machine and the active interpreter (ENV-001 when the probe fails)."""
    return doctor(layered, sys.executable, install_for(layered.answers).line)[0]


def doctor_summary(findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity is Severity.WARNING)
    return t("review.doctor_done", errors=errors, warnings=warnings)


def finding_lines(findings: list[Finding]) -> list[str]:
    return [f"{MARK[f.severity]} {f.id} {render(f.message)}" for f in findings]
