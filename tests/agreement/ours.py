"""The wizard's side of the agreement: answers -> config.yaml -> answers read back -> rule findings.

The verdict is taken the way a user meets it: `new` renders config.yaml from the answers, and `check`
reads that file back and runs every rule on what it read (mode cluster: paths are not looked up on
this machine). Model facts (heads) come from the same inspectors `check` uses.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wizard.core.findings import Finding, Severity
from wizard.core.layers import LayeredAnswers, build
from wizard.core.plan import build_plan
from wizard.core.presets import load_preset
from wizard.core.rules import context_for, run_rules
from wizard.detect.config.files import read_check_input
from wizard.detect.facts import gather
from wizard.emit.verl_config import render_config

# num_attention_heads, num_key_value_heads of the models the generator uses, from their config.json.
# None: a local in-house checkpoint that nobody can read from here (heads unknown).
MODEL_HEADS: dict[str, tuple[int, int] | None] = {
    "Qwen/Qwen2.5-0.5B-Instruct": (14, 2),
    "Qwen/Qwen2.5-7B-Instruct": (28, 4),
    "Qwen/Qwen3-8B": (32, 8),
    "Qwen/Qwen2.5-14B-Instruct": (40, 8),
    "/models/in-house-7b": None,
}


@dataclass
class Rendered:
    """One generated config: its answers, the config.yaml text, and the findings on the read-back."""

    values: dict[str, Any]  # the generated layer over the preset
    preset: str
    text: str
    findings: list[Finding]
    heads_known: tuple[int, int] | None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


def layered_for(preset: str, values: dict[str, Any]) -> LayeredAnswers:
    """The answers of a preset with the generated values laid on top (as an answers file would)."""
    return build([("preset", load_preset(preset).values), ("answers file", values)])


def render(layered: LayeredAnswers) -> str:
    """config.yaml as `new` writes it (whatever the findings: verl must judge the broken ones too)."""
    return render_config(layered, build_plan(layered.answers))


def read_back(text: str) -> LayeredAnswers:
    """The answers `check` reads from a config.yaml with this text."""
    with tempfile.TemporaryDirectory(prefix="agreement-") as tmp:
        path = Path(tmp) / "config.yaml"
        path.write_text(text, encoding="utf-8")
        source = read_check_input(path)
    return build([(source.kind, source.flat)])


def findings_of(layered: LayeredAnswers) -> tuple[list[Finding], Any]:
    """Every rule's findings (fixes unverified) on these answers as `check --mode cluster` sees them."""
    facts = gather(layered.answers, "cluster")
    # a config.yaml does not say where the run starts: check leaves the target unknown (DEPLOY-017 speaks only
    # about an answers file or a manifest)
    ctx = context_for(layered.answers, layered.flat, mode="cluster", target_known=False, **facts)
    return run_rules(ctx), ctx


def heads_known_to_rules(ctx) -> tuple[int, int] | None:
    """The actor's (heads, KV heads) when the rules can know them (a model inspector read them)."""
    facts = (ctx.models or {}).get("actor") if isinstance(ctx.models, dict) else None
    heads = getattr(facts, "num_heads", None)
    kv = getattr(facts, "num_kv_heads", None) or heads
    return (heads, kv) if heads else None


def judge_ours(preset: str, values: dict[str, Any]) -> Rendered:
    """Render the generated answers, read the file back and run the rules on it."""
    return judge_layered(preset, values, layered_for(preset, values))


def judge_layered(preset: str, values: dict[str, Any], layered: LayeredAnswers) -> Rendered:
    """judge_ours for answers already built (`preset` and `values` only label them)."""
    text = render(layered)
    findings, ctx = findings_of(read_back(text))
    return Rendered(values, preset, text, findings, heads_known_to_rules(ctx))
