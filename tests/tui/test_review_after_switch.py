"""Review after a target switch (issue 32 item 6): the status no longer says "Wrote 5 file(s)" about the files
of the old target, the replace dialog says which files of the earlier set Replace removes (job.sbatch after
slurm -> local), and "Keep mine" says on Review that nothing was written."""

from __future__ import annotations

from textual.widgets import Label

from tests.tui.helpers import make_app
from wizard.i18n import t


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _status(app) -> str:
    return str(app.screen.query_one("#write-status", Label).render())


async def _written_for_slurm_then_local(app, pilot):
    app.session.set("deploy.target", "slurm")
    app.goto("review")
    await _settle(pilot)
    app.request_write()
    await _settle(pilot)
    assert "job.sbatch" in app.session.render_files() and _status(app).startswith("Wrote")
    app.goto("deployment")
    await _settle(pilot)
    app.session.set("deploy.target", "local")
    app.goto("review")
    await _settle(pilot)


async def test_a_switch_clears_wrote_and_the_dialog_names_the_removed_file(tmp_path):
    out = tmp_path / "o"
    app = make_app("grpo-8b-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await _written_for_slurm_then_local(app, pilot)
        assert not _status(app).startswith("Wrote"), _status(app)  # those were the slurm files
        app.request_write()
        await _settle(pilot)
        assert app.screen.id == "confirm-replace"
        assert "job.sbatch" in str(app.screen.query_one("#confirm-removes", Label).render())
        await pilot.click("#keep")
        await _settle(pilot)
        assert _status(app) == t("confirm.kept", out=out)
    assert (out / "job.sbatch").exists()  # kept: nothing was written


async def test_replace_removes_the_earlier_sets_file_and_says_wrote(tmp_path):
    out = tmp_path / "o"
    app = make_app("grpo-8b-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await _written_for_slurm_then_local(app, pilot)
        app.request_write()
        await _settle(pilot)
        await pilot.click("#replace")
        await _settle(pilot)
        assert _status(app).startswith("Wrote")
    assert not (out / "job.sbatch").exists() and (out / "run.sh").exists()
