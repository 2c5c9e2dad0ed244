"""Texts that were cut (issue 32 item 8): the findings' key line at 80 and 100 columns ("f: apply fix 1 ·
1-9: a"), Hardware's "No topology yet: hardware rules (weak li" with a stray scrollbar, and a finding's reason
cut mid-sentence by the detail's fixed height (Chinese at 80x24): it now ends in where the whole reason is."""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app
from wizard.i18n import t
from wizard.tui.textual_compat import screen_strips


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _painted(screen, selector: str) -> str:
    """The characters painted in a widget's box, without whitespace (a wrapped text reads as one)."""
    region = screen.find_widget(screen.query_one(selector)).region
    lines = screen_strips(screen)[region.y : region.bottom]
    return "".join("".join(strip.crop(region.x, region.right).text for strip in lines).split())


def _whole(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (100, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_findings_key_line_is_whole(size, lang):
    app = make_app("grpo-8b-1x8", lang=lang)
    async with app.run_test(size=size) as pilot:
        app.goto("batch")
        await _settle(pilot)
        assert _painted(app.screen, "#findings-keys") == _whole(t("findings.keys"))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_no_topology_is_said_whole_without_a_scrollbar(lang):
    app = make_app("workshop-grpo-0.5b-1gpu", topology=None, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("hardware")
        await _settle(pilot)
        app.screen.query_one("#matrix").scroll_visible(animate=False)
        await _settle(pilot)
        assert _painted(app.screen, "#matrix") == _whole(t("hardware.none"))
        assert not app.screen.query_one("#matrix-box").show_horizontal_scrollbar


async def test_a_topology_matrix_keeps_its_width():
    app = make_app("grpo-8b-1x8", topology="8xH100")
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("hardware")
        await _settle(pilot)
        assert not app.screen.query_one("#matrix").has_class("-prose")


async def _detail_on_models(size, lang):
    app = make_app(None, topology=None, lang=lang)
    async with app.run_test(size=size) as pilot:
        await _settle(pilot)
        app.goto("models")
        await _settle(pilot)
        panel = app.screen.query_one("#findings-panel")
        return _painted(app.screen, "#finding-detail"), panel.findings[0].id


async def test_a_reason_too_long_for_the_detail_says_where_the_rest_is():
    painted, rule = await _detail_on_models((80, 24), "zh")
    assert painted.endswith(_whole(t("findings.more", id=rule))), painted


async def test_a_reason_that_fits_is_shown_whole():
    painted, _ = await _detail_on_models((120, 40), "en")
    assert "explain" not in painted and painted.endswith(".")
