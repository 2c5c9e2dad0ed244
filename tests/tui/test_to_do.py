"""A blank start shows what is missing as "to do" until the user reaches its step (issue 18 item 19):
no red errors on Start, the step list marks unseen steps as to do, a shown step's findings are what they
are, Review shows everything and writing stays blocked by errors."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.core.findings import Severity
from wizard.i18n import t
from wizard.tui.widgets.findings_panel import FindingsPanel
from wizard.tui.widgets.step_nav import StepNav


def _count(app) -> str:
    return app.screen.query_one("#findings-count")._text.plain


def _red(app) -> list[str]:
    listing = app.screen.query_one("#findings-list")
    texts = [listing.get_option_at_index(i).prompt for i in range(listing.option_count)]
    return [str(text) for text in texts if any("red" in str(span.style) for span in getattr(text, "spans", []))]


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


async def test_a_blank_start_shows_missing_answers_as_to_do(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(pilot)
        errors = [f for f in app.session.findings if f.severity is Severity.ERROR]
        severe = [f for f in app.session.findings if f.severity in (Severity.ERROR, Severity.WARNING)]
        assert errors  # a blank start is missing answers
        panel = app.screen.query_one(FindingsPanel)
        assert panel.state != "errors" and not _red(app)
        assert _count(app).endswith("0 error(s) · 0 warning(s) · " + t("findings.to_do", n=len(severe)))
        assert t("findings.count", errors=0, warnings=0).split()[0] == "0"
        nav = app.screen.query_one(StepNav)
        assert "✗" not in "".join(str(nav.get_option_at_index(i).prompt) for i in range(nav.option_count))
        assert app.session.blocked  # only the look changes


async def test_after_visiting_models_its_missing_actor_path_is_an_error(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(pilot)
        app.goto("models")
        await _settle(pilot)
        red = _red(app)
        assert red and any("actor" in text.lower() for text in red)
        assert app.screen.query_one(FindingsPanel).state == "errors"
        assert "to do" in _count(app)  # the other steps' missing answers are still to do
        app.goto("start")
        await _settle(pilot)
        assert _red(app)  # Models was seen: its errors stay errors on every step


async def test_review_shows_every_finding_as_it_is(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(pilot)
        app.goto("review")
        await _settle(pilot)
        errors = sum(f.severity is Severity.ERROR for f in app.session.findings)
        assert t("findings.count", errors=errors, warnings=0).split(" · ")[0] in _count(app)
        assert "to do" not in _count(app)
        assert app.session.blocked


async def test_a_preset_start_shows_no_to_do_where_nothing_is_missing(tmp_path):
    app = make_app(preset="workshop-0.5b-1gpu", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await _settle(pilot)
        pending = [f for f in app.session.findings if f.severity is not Severity.INFO]
        assert ("to do" in _count(app)) == bool(pending)
