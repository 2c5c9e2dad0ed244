"""Every shipped preset describes itself in both languages: English in its file, Chinese in wizard/i18n/zh_presets.py."""

from __future__ import annotations

import re

import pytest

from wizard.i18n import preset_description, set_language
from wizard.i18n.zh_presets import DESCRIPTIONS
from wizard.tui.preset_list import preset_summaries

PRESETS = preset_summaries()
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_every_preset_has_an_english_and_a_chinese_description(preset):
    assert preset.description and not CJK.search(preset.description)
    assert CJK.search(DESCRIPTIONS.get(preset.name, "")), f"{preset.name}: no Chinese description in zh_presets.py"


def test_the_description_follows_the_language():
    preset = PRESETS[0]
    assert preset_description(preset.name, preset.description) == preset.description
    set_language("zh")
    try:
        assert preset_description(preset.name, preset.description) == DESCRIPTIONS[preset.name]
        assert preset_description("not-shipped", "English") == "English"
    finally:
        set_language("en")
