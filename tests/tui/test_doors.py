"""Every door writes the same bytes for the same answers: the TUI and `new`, for every preset and target and
for an answers file with a launch script imported over it; and `new --answers` of what the TUI wrote finds
nothing to replace in the TUI's folder.

Every preset x target pair is compared at the workspace level (the TUI's session, edited and written as its
screens do, against `new`); one Pilot run per target drives the real TUI to Write and compares its bytes too.

The layers have one precedence whichever door fills them (wizard.core.workspace): an answers file setting
train_batch_size 128 under a script setting 256 gives 256 in both doors (until issue 17 the TUI said 256 and
`new` 128).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.helpers import make_app
from wizard.cli import main
from wizard.core.choices import Target, values
from wizard.core.presets import load_preset, preset_names
from wizard.detect.inputs import read_inputs
from wizard.tui.session import Session

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "fixtures" / "old_scripts" / "removed_keys_v02_gsm8k.sh"  # data.train_batch_size=256
ANSWERS = "batch:\n  train_batch_size: 128\n  ppo_mini_batch_size: 32\nmodels:\n  data_source: openai/gsm8k\n"
ANSWERS += "deploy:\n  target: slurm\n"


def new(capsys, *argv: str) -> int:
    """`verl-wizard new ...` in this process; its exit code."""
    code = main(["new", *argv])
    capsys.readouterr()
    return code


def folder(path: Path) -> dict[str, bytes]:
    """Every file of a written folder, the writer's record of the set (.verl-wizard-files.json) included."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())} if path.exists() else {}


def artefacts(path: Path) -> set[str]:
    return {name for name in folder(path) if not name.startswith(".")}


def assert_replay_replaces_nothing(capsys, out: Path) -> None:
    """`new --answers OUT/answers.yaml --out OUT` (no --force) exits 0 and leaves every byte as it was."""
    before = folder(out)
    assert new(capsys, "--answers", str(out / "answers.yaml"), "--out", str(out)) == 0
    assert folder(out) == before


async def write_in_tui(app, pilot, out: Path) -> bool:
    """Go to Review, name the folder, press Write; whether the button could be pressed."""
    app.goto("review")
    await pilot.pause()
    app.screen.query_one("#out-dir").value = str(out)
    await pilot.pause()
    if app.screen.query_one("#write").disabled:
        return False
    await pilot.click("#write")
    await pilot.pause()
    return True


def tui_session_write(preset: str, target: str, out: Path) -> bool:
    """What the TUI does for this preset and target, without Pilot: the session its start builds
    (wizard.commands.tui.build_app), the Deployment step's edit of the target (a Select posts an edit only when
    the value changes, wizard.tui.widgets.field_row) and Review's write; whether the write was allowed."""
    session = Session(out_dir=str(out))
    read_inputs(session.workspace, preset=preset, answers=None, topology=None)
    if session.layered.answers.deploy.target != target:
        session.set("deploy.target", target)
    assert session.source_of("deploy.target") == ("wizard default" if target == "local" else "edited")
    if session.blocked:  # Review's Write button is disabled then
        return False
    session.write()
    return True


@pytest.mark.parametrize("target", values(Target))
@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_and_target_writes_what_new_writes(preset, target, tmp_path, capsys):
    tui_out, cli_out = tmp_path / "tui", tmp_path / "cli"
    wrote = tui_session_write(preset, target, tui_out)
    code = new(capsys, "--preset", preset, "--target", target, "--out", str(cli_out))
    single_node = load_preset(preset).nnodes == 1
    assert wrote == (code == 0) == (single_node or target != "k8s-job"), code
    assert folder(tui_out) == folder(cli_out)
    if wrote:
        assert "answers.yaml" in artefacts(tui_out) and len(artefacts(tui_out)) == 4 + (target != "local")
        assert_replay_replaces_nothing(capsys, tui_out)


# One real TUI run per target, each from another preset: the Deployment step's Select, Review's folder and its
# Write button, compared byte for byte with `new` (the session-level test above covers every pair).
PILOT_PRESETS = {
    "local": "workshop-0.5b-1gpu",
    "ray-job": "grpo-7b-2x8",
    "kuberay-job": "grpo-lora-8b-2gpu",
    "kuberay-cluster": "grpo-megatron-tp2pp2-1x8",
    "slurm": "ppo-critic-8b-1x8",
    "k8s-job": "grpo-8b-1x8",
}


def test_the_pilot_runs_cover_every_target_with_shipped_presets():
    assert tuple(PILOT_PRESETS) == values(Target)
    assert set(PILOT_PRESETS.values()) <= set(preset_names())


@pytest.mark.parametrize(("target", "preset"), PILOT_PRESETS.items())
async def test_the_tui_writes_what_new_writes_for_each_target(target, preset, tmp_path, capsys):
    app = make_app(preset, out=str(tmp_path / "unused"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("deployment")
        await pilot.pause()
        app.screen.query_one("#input-deploy-target").value = target  # the Select, as a user picks it
        await pilot.pause()
        assert app.session.layered.answers.deploy.target == target
        assert app.session.source_of("deploy.target") == ("wizard default" if target == "local" else "edited")
        tui_out = tmp_path / "tui"
        assert await write_in_tui(app, pilot, tui_out)
    cli_out = tmp_path / "cli"
    assert new(capsys, "--preset", preset, "--target", target, "--out", str(cli_out)) == 0
    assert folder(tui_out) == folder(cli_out)
    assert "answers.yaml" in artefacts(tui_out) and len(artefacts(tui_out)) == 4 + (target != "local")
    assert_replay_replaces_nothing(capsys, tui_out)


async def load_in_start_step(app, pilot, field: str, link: str, path: Path) -> None:
    app.screen.query_one(field).value = str(path)
    app.screen.query_one(link).scroll_visible(animate=False)  # a blank start asks its question above them
    await pilot.pause()
    await pilot.click(link)
    await pilot.pause()


@pytest.mark.parametrize("order", ["answers, then script", "script, then answers"])
async def test_an_answers_file_under_an_imported_script_gives_the_same_files_in_both_doors(order, tmp_path, capsys):
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS)
    app = make_app(None, out=str(tmp_path / "unused"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        steps = [("#answers-path", "#load-answers", answers), ("#script-path", "#import-script", SCRIPT)]
        for field, link, path in steps if order.startswith("answers") else steps[::-1]:
            await load_in_start_step(app, pilot, field, link, path)
        session = app.session
        # the script's batch sizes win over the file's; what only the file says stays
        assert session.value("data.train_batch_size") == 256 and session.source_of("data.train_batch_size") == (
            "launch script"
        )
        assert session.value("actor_rollout_ref.actor.ppo_mini_batch_size") == 64
        assert session.value("deploy.target") == "slurm" and session.source_of("deploy.target") == "answers file"
        tui_out = tmp_path / "tui"
        assert await write_in_tui(app, pilot, tui_out)
    cli_out = tmp_path / "cli"
    assert new(capsys, "--answers", str(answers), "--from-script", str(SCRIPT), "--out", str(cli_out)) == 0
    assert folder(tui_out) == folder(cli_out)
    written = folder(tui_out)
    assert artefacts(tui_out) == {"config.yaml", "run.sh", "answers.yaml", "RUN.md", "job.sbatch"}
    assert b"train_batch_size: 256\n" in written["config.yaml"]
    assert b"## Migrated from `" + str(SCRIPT).encode() + b"`" in written["RUN.md"]
    assert b"batch.train_batch_size: launch script\n" in written["answers.yaml"]
    assert b"deploy.target: answers file\n" in written["answers.yaml"]
    assert_replay_replaces_nothing(capsys, tui_out)  # the migration travels in answers.yaml


async def test_edits_and_flags_are_both_recorded_as_set_by_you(tmp_path, capsys):
    """The TUI's edit and `new --set` are one answer through two doors: answers.yaml says "set" for both."""
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "unused"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.apply_edit("batch.train_batch_size", 512)
        await pilot.pause()
        assert app.session.source_of("data.train_batch_size") == "edited"
        assert await write_in_tui(app, pilot, tmp_path / "tui")
    assert (
        new(capsys, "--preset", "grpo-8b-1x8", "--set", "data.train_batch_size=512", "--out", str(tmp_path / "cli"))
        == 0
    )
    assert folder(tmp_path / "tui") == folder(tmp_path / "cli")
    assert b"batch.train_batch_size: set\n" in folder(tmp_path / "tui")["answers.yaml"]
    # the neighbour: another value is other bytes
    assert (
        new(capsys, "--preset", "grpo-8b-1x8", "--set", "data.train_batch_size=256", "--out", str(tmp_path / "c2")) == 0
    )
    assert folder(tmp_path / "c2")["config.yaml"] != folder(tmp_path / "cli")["config.yaml"]
