#!/usr/bin/env python3
"""Write docs/rules.md from the rule catalogue (tests/test_docs.py fails when it is out of date)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.core.findings import FAMILY_OF_PREFIX  # noqa: E402
from wizard.core.rules.catalogue import CATALOGUE  # noqa: E402


def render() -> str:
    lines = [
        "# Rule catalogue",
        "",
        "Generated from `wizard/core/rules/catalogue.py` by `scripts/write_rule_docs.py`.",
        "`verl-wizard explain RULE-ID` prints the same text.",
        "",
    ]
    for prefix, family in FAMILY_OF_PREFIX.items():
        lines += [
            f"## {family.capitalize()} ({prefix}-*)",
            "",
            "| id | severity | what | why it matters |",
            "|---|---|---|---|",
        ]
        for doc in CATALOGUE.values():
            if doc.id.startswith(prefix + "-"):
                lines.append(f"| {doc.id} | {doc.severity} | {doc.title} | {doc.why} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    (ROOT / "docs" / "rules.md").write_text(render(), encoding="utf-8")
    print("wrote docs/rules.md")
