"""What a rule says about a configuration: `Finding`, its `Severity`, and the `Fix`es it offers.

Rules (wizard.core.rules) produce findings; the CLI prints them, the TUI renders them, and a fix is
plain data (verl dotted keys -> values) that either front end applies with one action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from wizard.core.masking import shown
from wizard.i18n.text import Msg, render


class Severity(str, Enum):
    """How bad a finding is: errors block writing, warnings are listed, infos explain."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


FAMILY_OF_PREFIX = {
    "ROLE": "roles and models",
    "BATCH": "batch arithmetic",
    "PLACE": "device mapping",
    "DATA": "data",
    "DEPLOY": "environment and cluster",
    "KEY": "schema",
    "SCRIPT": "launch scripts",
    "ENV": "environment and cluster",
    "VERL": "verl's own verdict",
}


@dataclass(frozen=True)
class Fix:
    """The smallest change that removes a finding: verl dotted keys and the values to set.

    A value of None means "remove the key" (fall back to verl's default).
    """

    set: dict[str, Any]
    label: str | Msg  # a Msg renders in the current language

    def to_json(self) -> dict[str, Any]:
        """The fix for a program: its values as they may be shown (a secret among them masked)."""
        return {"set": {key: shown(key, value) for key, value in self.set.items()}, "label": render(self.label)}


@dataclass(frozen=True)
class Finding:
    """One rule's verdict: which rule, how bad, which keys, what is wrong, why it matters, how to fix."""

    id: str
    severity: Severity
    paths: tuple[str, ...]
    message: str | Msg  # a Msg (catalogue key + parameters) renders in the current language
    why: str
    fixes: tuple[Fix, ...] = field(default=())

    @property
    def family(self) -> str:
        return FAMILY_OF_PREFIX.get(self.id.split("-")[0], "other")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "severity": self.severity.value,
            "paths": list(self.paths),
            "message": render(self.message),
            "why": self.why,
            "fixes": [f.to_json() for f in self.fixes],
        }


def error(rule_id: str, paths, message: str | Msg, why: str, fixes=()) -> Finding:
    return Finding(rule_id, Severity.ERROR, tuple(paths), message, why, tuple(fixes))


def warning(rule_id: str, paths, message: str | Msg, why: str, fixes=()) -> Finding:
    return Finding(rule_id, Severity.WARNING, tuple(paths), message, why, tuple(fixes))


def info(rule_id: str, paths, message: str | Msg, why: str, fixes=()) -> Finding:
    return Finding(rule_id, Severity.INFO, tuple(paths), message, why, tuple(fixes))


def has_errors(findings) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
