"""The command palette speaks the UI language: footer key, search placeholder and Textual's own entries."""

from __future__ import annotations

import pytest
from textual.command import CommandInput

from tests.tui.helpers import make_app
from wizard.i18n import t
from wizard.tui.palette import SYSTEM_ENTRIES
from wizard.tui.textual_compat import screen_strips


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_palette_is_in_the_ui_language(lang):
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang=lang)
    async with app.run_test(size=(100, 40)) as pilot:
        for _ in range(20):  # a loaded machine paints the footer's keys a few pauses later (seen blank at load 8)
            await pilot.pause()
            footer = screen_strips(app.screen)[-1].text
            if footer.strip():
                break
        assert t("key.palette") in footer, footer
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert titles and not titles & set(SYSTEM_ENTRIES) if lang == "zh" else titles <= set(SYSTEM_ENTRIES)
        assert t("palette.sys.quit") in titles and t("palette.sys.theme") in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.query_one(CommandInput).placeholder == t("palette.placeholder")
        if lang == "zh":
            assert "palette" not in footer and "Search" not in t("palette.placeholder")
