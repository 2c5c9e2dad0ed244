"""Start-up: `verl-wizard` (with or without a preset) paints the Start step before the answers model and the
rules are loaded, then shows the findings; the CLI loads only the TUI's command for it; the Start step lists the presets as the
core reads them; the garbage collector is held for the start and on again after it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.preset_files import preset_dir
from wizard.core.presets import all_presets
from wizard.tui.preset_list import preset_dir as light_preset_dir
from wizard.tui.preset_list import preset_summaries

ROOT = Path(__file__).resolve().parents[2]


def probe(*args: str) -> dict:
    """Start the wizard headless in a fresh interpreter (tests/tui/startup_probe.py) and read its report."""
    env = {name: value for name, value in os.environ.items() if name != "WANDB_API_KEY"}
    proc = subprocess.run(
        [sys.executable, "-m", "tests.tui.startup_probe", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_plain_start_paints_before_the_answers_model_then_shows_the_findings():
    report = probe()
    first = report["first_paint"]
    assert first["screen"] == "StartScreen"
    assert first["presets"] == len(preset_summaries()) + 1  # "(blank)" and every preset
    assert first["steps"] == 7
    assert not {"pydantic", "wizard.core.answers.model", "wizard.core.rules", "yaml"} & set(first["loaded"]), first
    assert first["findings_shown"] is False
    findings = report["findings"]
    assert findings["ids"] == findings["session"] and findings["ids"], findings  # a blank session has findings
    assert findings["options"] == len(findings["ids"])


def test_a_preset_start_paints_the_start_step_with_the_preset_chosen_then_its_findings():
    report = probe("--preset", "grpo-8b-1x8", "--topology", "8xH100")
    first = report["first_paint"]
    assert first["screen"] == "StartScreen"
    assert not {"pydantic", "wizard.core.answers.model", "wizard.core.rules", "yaml"} & set(first["loaded"]), first
    assert first["highlighted"] == "preset-grpo-8b-1x8"
    assert "grpo-8b-1x8" in first["status"] and "8xH100" in first["status"]
    assert first["findings_shown"] is False  # every rule runs after the first paint
    # The preset's, on 8xH100; it logs to wandb, and the probe's environment has no WANDB_API_KEY (DEPLOY-016).
    assert report["findings"]["ids"] == report["findings"]["session"] == ["DEPLOY-016", "ROLE-009"]


async def test_the_form_of_a_preset_start_holds_the_preset_and_the_topology(tmp_path):
    from tests.tui.helpers import make_app

    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.step == "models"
        row = app.screen.row_for("models.actor_path")
        assert row.input_widget.value == "Qwen/Qwen3-8B" and app.session.source_of("models.actor_path") == "preset"
        assert app.session.value("trainer.n_gpus_per_node") == 8


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--preset", "grpo-8b-1x9"], "--preset grpo-8b-1x9: no such preset; did you mean grpo-8b-1x8?"),
        (["--answers", "no-such-answers.yaml"], "no-such-answers.yaml"),
        (["--topology", "9xQ100"], "unknown fake topology '9xQ100'"),
    ],
)
def test_a_name_or_path_that_does_not_exist_is_refused_before_the_app_starts(argv, message):
    from wizard.cli import parse
    from wizard.commands.tui import build_app
    from wizard.errors import UsageError

    with pytest.raises(UsageError) as caught:
        build_app(parse(["tui", *argv]))
    assert message in str(caught.value)


async def start_with_answers(tmp_path, text: str):
    """Run the wizard started with `--answers` holding this text until its first screen settles; return the app."""
    from wizard.cli import parse
    from wizard.commands.tui import build_app

    answers = tmp_path / "answers.yaml"
    answers.write_text(text)
    app = build_app(parse(["tui", "--answers", str(answers), "--out", str(tmp_path / "o")]))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        value = app.session.value("batch.train_batch_size")
    return app, value


async def test_an_answers_file_with_wrong_contents_ends_the_start_with_exit_2_and_one_line(tmp_path):
    app, _ = await start_with_answers(tmp_path, "batch:\n  train_batch_size: -4\n")
    assert app.return_code == 2
    assert "train_batch_size" in app.start_error and "\n" not in app.start_error
    assert not (tmp_path / "o").exists()
    app, value = await start_with_answers(tmp_path, "batch:\n  train_batch_size: 64\n")
    assert value == 64 and app.start_error is None and app.return_code in (0, None)


def test_the_collector_is_held_for_the_start_and_on_again_with_the_start_up_heap_frozen():
    report = probe()
    assert report["gc_held_while_building"] is True
    assert report["gc_enabled_after"] is True
    assert report["gc_frozen"] > 0
    assert report["gc_threshold"][0] >= 10_000  # typing collects young objects rarely


@pytest.mark.parametrize(
    "argv, loaded",
    [
        ([], False),
        (["tui", "--lang", "zh"], False),
        (["presets"], False),
        (["new", "--preset", "grpo-8b-1x8", "--out", "o"], True),
    ],
)
def test_the_cli_imports_the_other_commands_only_for_them(argv, loaded):
    code = f"import sys; from wizard.cli import parse; parse({argv!r}); print('new' in dir(sys.modules['wizard.commands']) or 'wizard.commands.new' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.stdout.strip() == str(loaded), proc.stderr


def test_the_start_step_lists_the_presets_as_the_core_reads_them():
    assert light_preset_dir() == preset_dir()
    light = [(p.name, p.description, p.nnodes, p.n_gpus_per_node) for p in preset_summaries()]
    core = [(p.name, p.description, p.nnodes, p.n_gpus_per_node) for p in all_presets()]
    assert light == core and len(light) >= 6


TRICKY = [
    "description: plain words, (verl's example); 1 node x 8 GPUs\ncluster:\n  nnodes: 2\n  n_gpus_per_node: 4\n",
    "description: 'quoted: with a colon'\n",
    'description: "escaped \\u00e9"\n',
    "description: true\n",
    "description: 123\n",
    "description: 1_000\n",
    "description: null\n",
    "description: 2024-01-01\n",
    "description: first line\n  and a second line\n",
    "description: text # a comment\n",
    "description: a#b is plain\n",
    "description: >\n  folded\n",
    "description: key: value\n",
    "cluster: {nnodes: 3}\n",
    "cluster:\n  nnodes: '2'\n",
    "cluster:\n  nnodes: 0x10\n",
    "extra:\n  trainer.nnodes: 4\n",
    "---\ndescription: after a marker\n",
    "'description': quoted key\n",
    "description: tab\there\n",
    "name: x\nalgorithm:\n  adv_estimator: grpo\n",
]


@pytest.mark.parametrize("text", TRICKY)
def test_the_line_reader_answers_only_where_yaml_agrees(text):
    from wizard.tui.preset_list import _read_yaml, read_plain

    fast = read_plain(text)
    assert fast is None or fast == _read_yaml(text), (fast, _read_yaml(text))


def test_the_line_reader_reads_the_shipped_layout():
    from wizard.tui.preset_list import read_plain

    assert read_plain(TRICKY[0]) == ("plain words, (verl's example); 1 node x 8 GPUs", 2, 4)
    assert read_plain(TRICKY[-1]) == ("", 1, 8)
    for path in sorted(preset_dir().glob("*.yaml")):
        assert read_plain(path.read_text(encoding="utf-8")) is not None, path.name  # no YAML import at start-up


@pytest.mark.parametrize("edit", [None, ("batch.ppo_mini_batch_size", 25), ("rollout.tensor_parallel_size", 4)])
def test_the_plan_a_step_shows_before_the_rules_run_is_the_rules_plan(edit):
    from wizard.tui.session import Session

    session = Session()
    session.load_preset("ppo-critic-8b-1x8")
    if edit:
        session.set(*edit)
        session.refresh()  # back to a session whose rules have not run
    early = session.plan  # no facts gathered, no rules run
    assert not session.evaluated
    assert early == session.ctx.plan and session.plan is session.ctx.plan
