"""Golden files: what `new` writes for each preset, byte for byte. Regenerate with UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wizard.core.layers import build
from wizard.core.presets import load_preset, preset_names
from wizard.core.rules import context_for, evaluate
from wizard.emit.artifacts import render_artifacts

GOLDEN = Path(__file__).resolve().parent / "golden"


def rendered(preset: str) -> dict[str, str]:
    layered = build([("preset", load_preset(preset).values)])
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    return render_artifacts(layered, ctx.plan, evaluate(ctx))


@pytest.mark.parametrize("preset", preset_names())
def test_artefacts_match_golden_files(preset):
    files = rendered(preset)
    folder = GOLDEN / preset
    if os.environ.get("UPDATE_GOLDEN"):
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    for name, text in files.items():
        assert (folder / name).read_text(encoding="utf-8") == text, (
            f"{preset}/{name} differs; UPDATE_GOLDEN=1 to accept"
        )
