"""Chinese text wraps between CJK characters and at spaces; a Latin word or identifier is never split."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from rich.text import Text
from textual.content import Content

from tests.tui.helpers import make_app
from wizard.i18n import set_language, t
from wizard.tui import textual_compat
from wizard.tui.textual_compat import screen_strips

SENTENCE = (
    "从 verl 官方示例中选一个预设，或者从空白开始；每一步的答案都可以随时修改。rollout 的 log-prob 计算没有设置。"
)
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*")


def _split_words(lines: list[str], whole: str) -> list[str]:
    """Latin words of `whole` that a line break cut in two."""
    words = set(LATIN.findall(whole))
    return [w for line in lines for w in LATIN.findall(line) if w not in words]


@pytest.fixture(autouse=True)
def cjk_wrap():
    assert textual_compat.install_cjk_wrap()


@pytest.mark.parametrize("width", range(12, 48))
def test_rich_and_textual_wrap_keep_latin_words_whole(width):
    rich_lines = [line.plain for line in Text(SENTENCE).wrap(Console(width=200), width)]
    content_lines = [line.plain for line in Content(SENTENCE).wrap(width)]
    for lines in (rich_lines, content_lines):
        assert "".join("".join(lines).split()) == "".join(SENTENCE.split())  # nothing lost
        assert not _split_words(lines, SENTENCE), lines
        assert all(Text(line).cell_len <= width for line in lines), lines
        assert not any(line.lstrip().startswith(("，", "。", "；")) for line in lines), lines


def test_a_line_of_chinese_fills_the_width():
    """Between CJK characters a line may break anywhere: the first line is not cut short at the last space."""
    lines = [line.plain for line in Content(SENTENCE).wrap(30)]
    assert Text(lines[0]).cell_len >= 28, lines


def test_an_identifier_wider_than_the_line_is_still_folded():
    lines = [line.plain for line in Content("设置 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu").wrap(20)]
    assert "".join(lines).replace(" ", "").endswith("ppo_micro_batch_size_per_gpu")
    assert all(Text(line).cell_len <= 20 for line in lines)


async def test_the_start_step_in_chinese_splits_no_latin_word():
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang="zh")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            intro = app.screen.query_one(".intro")
            region = app.screen.find_widget(intro).region
            lines = [s.crop(region.x, region.right).text for s in screen_strips(app.screen)[region.y : region.bottom]]
            assert not _split_words(lines, t("start.intro")), lines
    finally:
        set_language("en")
