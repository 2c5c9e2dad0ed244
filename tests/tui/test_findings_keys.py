"""Reaching the findings from the keyboard (issue 32 item 5): F2 focuses them from anywhere on a step; the
palette's "apply the first fix" applies a warning's fix when no error has one; closing F1's help gives the focus
back to the control it was opened on (it went to the step's first field)."""

from __future__ import annotations

from tests.tui.helpers import make_app


async def _settle(pilot, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def test_f2_focuses_the_findings_and_enter_jumps_to_the_field(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("batch")
        await _settle(pilot)
        app.session.set("actor_rollout_ref.actor.ppo_mini_batch_size", 7)
        app.refresh_step()
        await _settle(pilot)
        assert app.focused.id != "findings-list"
        await pilot.press("f2")
        await _settle(pilot)
        assert app.focused.id == "findings-list"
        await pilot.press("enter")
        await _settle(pilot)
        assert app.focused.id != "findings-list" and app.step == "batch"


async def test_the_palettes_first_fix_applies_a_warnings_fix(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))  # its one fixable finding: DEPLOY-016, a warning
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(pilot)
        assert [f.id for f in app.session.findings if f.fixes] == ["DEPLOY-016"]
        await pilot.press("ctrl+p")
        await _settle(pilot)
        await pilot.press(*"first finding")
        await _settle(pilot)
        await pilot.press("enter")
        await _settle(pilot, 10)
        assert "DEPLOY-016" not in {f.id for f in app.session.findings}


async def test_closing_help_gives_the_focus_back_to_the_step_list(tmp_path):
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("models")
        await _settle(pilot)
        nav = app.screen.query_one("#step-nav")
        nav.focus()
        await _settle(pilot)
        await pilot.press("f1")
        await _settle(pilot)
        await pilot.press("escape")
        await _settle(pilot)
        assert app.focused is nav


async def test_closing_help_on_a_field_keeps_that_field(tmp_path):
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("batch")
        await _settle(pilot)
        second = app.screen.row_for("batch.rollout_n").input_widget
        second.focus()
        await _settle(pilot)
        await pilot.press("f1")
        await _settle(pilot)
        await pilot.press("escape")
        await _settle(pilot)
        assert app.focused is second and app.step == "batch"
