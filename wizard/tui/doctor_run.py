"""Review's "Check this machine": `doctor` for the run on screen, on the machine the wizard runs on.

The same probe and judgement as `verl-wizard doctor` (wizard.detect.env.doctor: the request, the probe, the findings), with
the active interpreter, for the TUI's thread worker; findings are rendered in the wizard's language.
"""

from __future__ import annotations

import sys

from wizard.core.findings import Finding
from wizard.core.layers import LayeredAnswers
from wizard.detect.env.doctor import doctor
from wizard.emit.install import install_for
from wizard.tui.finding_lines import counted


def doctor_here(layered: LayeredAnswers) -> list[Finding]:
    """The ENV findings for this machine and the active interpreter (ENV-001 when the probe fails)."""
    return doctor(layered, sys.executable, install_for(layered.answers).line)[0]


def doctor_summary(findings: list[Finding]) -> str:
    return counted("review.doctor_done", findings)
