"""Review's "Ask verl": the verdict of the verl `tui --verl PYTHON` names, on the config.yaml the wizard would write.

The same question `new --verl` asks (wizard.detect.env.verl_verdict.for_config_text: that config.yaml composed from a
fresh folder, as run.sh runs it) and the same judgement (wizard.core.rules.verl.verdict), for the TUI's thread
worker; whatever filled the answers (a preset, an answers file, an imported script, edits), verl judges the file the
wizard writes. Lines are rendered in the wizard's language.
"""

from __future__ import annotations

from pathlib import Path

from wizard.core.findings import Finding, Severity
from wizard.core.rules.verl.verdict import accepted, judge_verl
from wizard.detect.env import verl_verdict
from wizard.errors import UsageError
from wizard.i18n import t
from wizard.i18n.text import render
from wizard.tui.finding_lines import counted, finding_lines
from wizard.tui.widgets.findings_panel import MARK


def short_name(python: str) -> str:
    """The interpreter as the button names it: its venv's folder and program (`.venv-verl/bin/python`)."""
    parts = Path(python).parts
    return str(Path(*parts[-3:])) if len(parts) > 3 else python


def ask_verl(python: str, deadline_s: float, config_text: str) -> tuple[str, list[str]]:
    """(the summary line, the VERL-* findings' lines or verl's acceptance) for this config.yaml's text."""
    try:
        asking = verl_verdict.ask(python, deadline_s)
        asking.send(verl_verdict.for_config_text(config_text))
        verdict = asking.result()
    except UsageError as exc:  # the interpreter went away or lost verl since the start
        return t("review.verl_unusable"), [f"{MARK[Severity.ERROR]} {exc}"]
    facts = verdict.facts()
    findings = judge_verl(facts, verdict.question.not_asked)
    note = accepted(facts)
    lines = finding_lines(findings) + ([f"{MARK[Severity.INFO]} {render(note)}"] if note is not None else [])
    return verl_summary(findings), lines


def verl_summary(findings: list[Finding]) -> str:
    return counted("review.verl_done", findings)
