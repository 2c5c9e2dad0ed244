"""The step on screen lists its own findings first (issue 32 item 3): on a blank start, Models' and Data's
errors were below other steps' "to do" items, out of sight at 80x24 while the count said "✗ 2 errors"."""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app
from wizard.core.findings import Severity
from wizard.tui.textual_compat import screen_strips
from wizard.tui.visited import step_at


def _painted_list(screen) -> str:
    """The characters painted in the findings list's box, as the user sees them."""
    region = screen.find_widget(screen.query_one("#findings-list")).region
    lines = screen_strips(screen)
    return "\n".join(strip.crop(region.x, region.right).text for strip in lines[region.y : region.bottom])


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


@pytest.mark.parametrize(("step", "size"), [("models", (80, 24)), ("data", (100, 40)), ("data", (80, 24))])
async def test_the_steps_own_errors_are_listed_first_and_visible(tmp_path, step, size):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        app.goto(step)
        await _settle(pilot)
        here = [
            f for f in app.session.findings if f.severity is Severity.ERROR and f.paths and step_at(f.paths[0]) == step
        ]
        assert here  # a blank start misses this step's answers
        panel = app.screen.query_one("#findings-panel")
        assert panel.findings[0] in here
        painted = _painted_list(app.screen)
        assert f"✗ {panel.findings[0].id}" in painted, painted


async def test_to_do_items_stay_below_shown_findings_and_fix_keys_follow_the_order(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await _settle(pilot)
        app.goto("models")
        await _settle(pilot)
        panel = app.screen.query_one("#findings-panel")
        pending = panel._pending
        assert any(pending) and not all(pending)
        assert pending == sorted(pending)  # no shown finding below a to-do one
        assert sorted(map(id, panel.findings)) == sorted(map(id, app.session.findings))  # none lost
        listing = app.screen.query_one("#findings-list")
        assert str(listing.get_option_at_index(0).prompt).startswith(f"✗ {panel.findings[0].id}")


async def test_review_lists_every_finding_worst_first(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await _settle(pilot)
        app.goto("review")
        await _settle(pilot)
        panel = app.screen.query_one("#findings-panel")
        assert panel.findings == app.session.findings  # the session's order: severity, then id
        assert not any(panel._pending)
