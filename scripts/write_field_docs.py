#!/usr/bin/env python3
"""Write docs/fields.md from the field declarations (tests/test_docs.py fails when it is out of date)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.core.answers.model import SECTIONS  # noqa: E402
from wizard.core.field_keys import field_help, specs  # noqa: E402
from wizard.core.fields import condition_text  # noqa: E402


def _default(section: str, attr: str) -> str:
    info = SECTIONS[section].model_fields[attr]
    value = info.get_default(call_default_factory=True)
    return "unset" if value is None else f"`{json.dumps(value)}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render() -> str:
    lines = [
        "# Answer fields",
        "",
        "Generated from the field declarations in `wizard/core/answers/` by `scripts/write_field_docs.py`.",
        "Each field is set in an answers file as `section: {field: value}`, with `--set` by its verl key (or,",
        "without one, by its field name), or on the TUI step named here. The TUI shows a field when its",
        "condition holds; `-` in the step column means only files and flags set it.",
        "",
    ]
    for section in SECTIONS:
        lines += [
            f"## {section}",
            "",
            "| field | verl key | default | choices | unit | step (row) | shown when | what it is |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for name, spec in specs().items():
            if not name.startswith(section + "."):
                continue
            attr = name.partition(".")[2]
            choices = ", ".join(spec.choice_values) or "-"
            if spec.choices is not None and not spec.enforced:
                choices += " (others: KEY-004)"
            step = f"{spec.step} ({spec.row})" if spec.offered else "-"
            cells = [
                f"`{attr}`",
                f"`{spec.verl}`" if spec.verl else "-",
                _default(section, attr),
                choices,
                spec.unit or "-",
                step,
                condition_text(spec.when) if spec.offered else "-",
                _cell(field_help(name)),
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    (ROOT / "docs" / "fields.md").write_text(render(), encoding="utf-8")
    print("wrote docs/fields.md")
