"""Snapshots of every step in a valid and an error state, at 100x40 and 80x24, on a fake 8xH100.

Regenerate after an intended change with `python -m pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the report before committing.
"""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app
from wizard.tui.steps import STEPS

ERRORS = {
    "start": {"data.train_batch_size": 100},
    "models": {"algorithm.adv_estimator": "gae", "actor_rollout_ref.rollout.n": 1},
    "data": {"data.max_response_length": 30000},
    "batch": {"data.train_batch_size": 100},
    "hardware": {"actor_rollout_ref.rollout.tensor_model_parallel_size": 3},
    "deployment": {"trainer.logger": ["console", "wandbb"]},
    "review": {"actor_rollout_ref.actor.ppo_mini_batch_size": 2048},
}
SIZES = [(100, 40), (80, 24)]

# Each step focuses its first field, so a picture holds a cursor: keep it from blinking.
pytestmark = pytest.mark.usefixtures("steady_cursor")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("state", ["valid", "error"])
@pytest.mark.parametrize("step", STEPS)
def test_step_snapshot(step, state, size, snap_compare, tmp_path):
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100")
    _snapshot(app, step, state, size, snap_compare)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("step", STEPS)
def test_chinese_step_snapshot(step, size, snap_compare):
    """Every step in Chinese at both sizes (tests/tui/test_cut_text.py checks nothing in them is cut)."""
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang="zh")
    _snapshot(app, step, "valid", size, snap_compare)


def _snapshot(app, step, state, size, snap_compare):

    async def prepare(pilot):
        if state == "error":
            for address, value in ERRORS[step].items():
                app.session.set(address, value)
        app.goto(step)
        await pilot.pause()
        app.screen.refresh_view()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=prepare)


def test_chinese_batch_snapshot(snap_compare):
    """The Batch step in Chinese with an uneven mini-batch: the chain reads count, then measure word (in red)."""
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang="zh")

    async def prepare(pilot):
        app.session.set("actor_rollout_ref.actor.ppo_mini_batch_size", 96)
        app.goto("batch")
        await pilot.pause()
        app.screen.refresh_view()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 40), run_before=prepare)
