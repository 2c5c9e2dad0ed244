"""Start-up: `verl-wizard` paints the Start step before the answers model and the rules are loaded, then
shows the findings; the CLI loads only the TUI's command for it; the Start step lists the presets as the
core reads them; the garbage collector is held for the start and on again after it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.presets import all_presets, preset_dir
from wizard.tui.preset_list import preset_dir as light_preset_dir
from wizard.tui.preset_list import preset_summaries

ROOT = Path(__file__).resolve().parents[2]


def probe(*args: str) -> dict:
    """Start the wizard headless in a fresh interpreter (tests/tui/startup_probe.py) and read its report."""
    proc = subprocess.run([sys.executable, "-m", "tests.tui.startup_probe", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_plain_start_paints_before_the_answers_model_then_shows_the_findings():
    report = probe()
    first = report["first_paint"]
    assert first["screen"] == "StartScreen"
    assert first["presets"] == len(preset_summaries()) + 1  # "(blank)" and every preset
    assert first["steps"] == 7
    assert not {"pydantic", "wizard.core.answers", "wizard.core.rules"} & set(first["loaded"]), first
    assert first["findings_shown"] is False
    findings = report["findings"]
    assert findings["ids"] == findings["session"] and findings["ids"], findings  # a blank session has findings
    assert findings["options"] == len(findings["ids"])


def test_a_preset_start_shows_its_findings_in_the_first_frame():
    report = probe("--preset", "grpo-8b-1x8", "--topology", "8xH100")
    assert report["first_paint"]["screen"] == "ModelsScreen"
    assert report["first_paint"]["findings_shown"] is True
    assert report["findings"]["ids"] == report["findings"]["session"]


def test_the_collector_is_held_for_the_start_and_on_again_with_the_start_up_heap_frozen():
    report = probe()
    assert report["gc_held_while_building"] is True
    assert report["gc_enabled_after"] is True
    assert report["gc_frozen"] > 0


@pytest.mark.parametrize("argv, loaded", [([], False), (["tui", "--lang", "zh"], False), (["presets"], True)])
def test_the_cli_imports_the_other_commands_only_for_them(argv, loaded):
    code = f"import sys; from wizard.cli import parse; parse({argv!r}); print('new' in dir(sys.modules['wizard.commands']) or 'wizard.commands.new' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout.strip() == str(loaded), proc.stderr


def test_the_start_step_lists_the_presets_as_the_core_reads_them():
    assert light_preset_dir() == preset_dir()
    light = [(p.name, p.description, p.nnodes, p.n_gpus_per_node) for p in preset_summaries()]
    core = [(p.name, p.description, p.nnodes, p.n_gpus_per_node) for p in all_presets()]
    assert light == core and len(light) >= 6
