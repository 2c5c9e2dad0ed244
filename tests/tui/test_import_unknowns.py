"""An imported script's unset variable is said in the TUI (issue 32 item 2): beside the field it feeds (what
the script reads, type it here or import again with --env) and under the import box (check's note). Before,
Nodes showed 1 (default) with no word, and the import help never mentioned --env."""

from __future__ import annotations

from textual.widgets import Label

from tests.cli.test_import_unknowns import SCRIPT
from tests.tui.helpers import edit_at_end_of, make_app
from wizard.i18n import t


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _unknown_line(app, field: str) -> str:
    row = app.screen.row_for(field)
    line = row._unknown_line
    return str(line.render()) if line is not None and line.parent is not None else ""


async def _import(app, pilot, spec: str):
    app.screen.query_one("#script-path").value = spec
    app.screen._import_script()
    await _settle(pilot)


async def test_an_unset_variable_is_said_beside_nodes_and_under_the_import(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await _settle(pilot)
        assert "--env NAME=VALUE" in t("start.script")
        await _import(app, pilot, str(script))
        status = str(app.screen.query_one("#script-status", Label).render())
        assert "$WORLD_SIZE" in status and "--env WORLD_SIZE=VALUE" in status and "trainer.nnodes" in status
        app.goto("hardware")
        await _settle(pilot)
        line = _unknown_line(app, "cluster.nnodes")
        assert "$WORLD_SIZE" in line and f"{script} --env WORLD_SIZE=VALUE" in line, line
        assert not _unknown_line(app, "cluster.n_gpus_per_node")  # the script gives that one
        widget = await edit_at_end_of(app, pilot, "cluster.nnodes")
        widget.value = "2"
        await _settle(pilot)
        assert not _unknown_line(app, "cluster.nnodes")  # given now: known, and the rules read it again
        assert app.session.layered.answers.cluster.nnodes == 2


async def test_a_script_given_its_variable_says_nothing(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await _settle(pilot)
        await _import(app, pilot, f"{script} --env WORLD_SIZE=2")
        status = str(app.screen.query_one("#script-status", Label).render())
        assert "$WORLD_SIZE" not in status and status.startswith("Imported")
        app.goto("hardware")
        await _settle(pilot)
        assert not _unknown_line(app, "cluster.nnodes")
        assert app.session.layered.answers.cluster.nnodes == 2
