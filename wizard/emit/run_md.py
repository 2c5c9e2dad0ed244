"""RUN.md: what was written, how to install verl and launch, what to watch, and the warnings left open."""

from __future__ import annotations

from wizard.core import verl_schema
from wizard.core.answers import Answers
from wizard.core.findings import Finding, Severity
from wizard.core.plan import Plan
from wizard.emit.run_script import uses_wandb
from wizard.emit.verl_config import chain_summary
from wizard.emit.yaml_text import one_line
from wizard.i18n.text import render


def render_run_md(
    answers: Answers, plan: Plan, findings: list[Finding], files: list[str], migrated: dict | None = None
) -> str:
    """RUN.md; `migrated` ({source, changed, dropped, notes}) adds the "Migrated from" section of an import."""
    v = verl_schema.TARGET_VERSION
    engine = answers.rollout.name or "vllm"
    out = [
        f"# {one_line(answers.trainer.experiment_name)}: a verl {v} run",
        "",
        "## Files",
        *[f"- `{name}`" for name in files],
        "",
        "## Install (on every node)",
        "```bash",
        f'pip install "verl[verl-core]=={v}" {engine}',
        "```",
        f"verl {v}'s default (V1) trainer needs the `verl-core` extra; a bare `pip install verl` fails at run time"
        " with `No module named 'transfer_queue'`.",
        "",
        "## Launch",
        "```bash",
        "./run.sh",
        "```",
    ]
    if uses_wandb(answers):
        out += ["", "`trainer.logger` includes wandb: export `WANDB_API_KEY` first."]
    out += ["", "## What to expect", *[f"- {line}" for line in chain_summary(answers, plan)]]
    if migrated:
        out += ["", *_migrated_section(migrated, v)]
    open_items = [f for f in findings if f.severity is not Severity.ERROR]
    if open_items:
        out += ["", "## Open warnings and notes"]
        # In English whatever the interface's language: every door writes the same RUN.md for the same answers.
        out += [f"- **{f.id}** ({f.severity.value}): {one_line(render(f.message, 'en'))}" for f in open_items]
    return "\n".join(out) + "\n"


def _migrated_section(migrated: dict, version: str) -> list[str]:
    """Every change and every dropped key of a launch-script import, so nothing is lost silently."""
    out = [
        f"## Migrated from `{one_line(migrated['source'])}`",
        "",
        f"The run was read from that launch script and carried over to verl {version}.",
    ]
    for title, items, empty in (
        ("Keys changed", migrated.get("changed"), "none"),
        ("Keys dropped (no verl " + version + " equivalent)", migrated.get("dropped"), "none"),
        ("Notes", migrated.get("notes"), None),
    ):
        if items or empty:
            out += ["", f"### {title}", *([f"- {one_line(item)}" for item in items] if items else [f"- {empty}"])]
    return out
