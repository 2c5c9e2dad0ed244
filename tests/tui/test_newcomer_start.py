"""A blank start asks what the user wants (issue 32, the newcomer start): a first run on one GPU takes the
workshop preset and goes on to Models; my cluster shows the presets with a multi-node one highlighted; a
script I have goes to the import box. A start given a preset asks nothing."""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app
from wizard.tui.screens.start import FIRST_RUN_PRESET


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


async def _choose(app, pilot, index: int):
    goals = app.screen.query_one("#goal-list")
    assert app.focused is goals  # the question is what a blank start focuses
    goals.highlighted = index
    await pilot.press("enter")
    await _settle(pilot)


@pytest.mark.parametrize("size", [(80, 24), (100, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_first_run_takes_the_workshop_preset_to_models(tmp_path, size):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        await _choose(app, pilot, 0)
        assert app.session.preset == FIRST_RUN_PRESET and app.step == "models"
        assert app.session.layered.answers.cluster.n_gpus_per_node == 1


async def test_my_cluster_highlights_a_multi_node_preset(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await _choose(app, pilot, 1)
        listing = app.screen.query_one("#preset-list")
        assert app.focused is listing and listing.get_option_at_index(listing.highlighted).id == "preset-grpo-7b-2x8"
        assert app.session.preset is None  # nothing chosen for them: they pick


async def test_a_script_i_have_goes_to_the_import_box(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None, lang="zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        await _choose(app, pilot, 2)
        assert app.focused is app.screen.query_one("#script-path")
        assert "--env" in str(app.screen.query_one("#start-status").render())


async def test_a_start_with_a_preset_asks_nothing(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot)
        assert not app.screen.query("#goal-list")
        assert app.session.preset == "grpo-8b-1x8"
