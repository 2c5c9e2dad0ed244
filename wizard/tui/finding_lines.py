"""Findings as Review's lines under a button (doctor's, verl's): a mark, the id, the message in the wizard's language."""

from __future__ import annotations

from wizard.core.findings import Finding, Severity
from wizard.i18n import t
from wizard.i18n.text import render
from wizard.tui.widgets.findings_panel import MARK


def finding_lines(findings: list[Finding]) -> list[str]:
    return [f"{MARK[f.severity]} {f.id} {render(f.message)}" for f in findings]


def counted(key: str, findings: list[Finding]) -> str:
    """The summary line `key` (a message with {errors} and {warnings}) for these findings."""
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    warnings = sum(1 for f in findings if f.severity is Severity.WARNING)
    return t(key, errors=errors, warnings=warnings)
