"""Printing findings for people (text) and for programs (the JSON shape of DESIGN.md section 4)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from wizard.core.findings import Finding, Severity, has_errors
from wizard.core.masking import shown
from wizard.emit.yaml_text import scalar
from wizard.i18n.text import render

MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}


def verdict(findings: Iterable[Finding]) -> str:
    return "fail" if has_errors(findings) else "pass"


def as_json(findings: list[Finding], written: list[str] | None = None, **extra: Any) -> str:
    """The JSON document of a command; findings mask their own values (Finding.to_json), the rest is masked here
    as data (paths, a data report, a cluster's summary), before json.dumps."""
    doc: dict[str, Any] = {"verdict": verdict(findings), "findings": [f.to_json() for f in findings]}
    if written is not None:
        doc["written"] = shown(None, written)
    doc.update({key: shown(key, value) for key, value in extra.items()})
    return json.dumps(doc, indent=2, ensure_ascii=False)


def fix_as_flags(fix_set: dict) -> str:
    parts = []
    for key, value in fix_set.items():
        parts.append(f"--set {key}=null" if value is None else f"--set {key}={scalar(shown(key, value))}")
    return " ".join(parts)


def as_text(findings: list[Finding], show_why: bool = True) -> str:
    lines = []
    for f in findings:
        lines.append(f"{MARK[f.severity]} {f.id} {f.severity.value}: {render(f.message)}")
        if show_why and f.severity is not Severity.INFO:
            lines.append(f"    why: {f.why}")
        for fix in f.fixes:
            flags = f"   ({fix_as_flags(fix.set)})" if fix.set else ""  # a command to run sets no key
            lines.append(f"    fix: {render(fix.label)}{flags}")
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    lines.append(
        f"verdict: {verdict(findings)} ({counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), {counts[Severity.INFO]} note(s))"
    )
    return "\n".join(lines)


def emit(text: str) -> None:
    """Print a result. It is printed as it is: secrets were masked on the data before it was made into text
    (wizard.core.masking), never here, where a pattern over JSON could break it."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
