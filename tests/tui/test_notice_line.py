"""Notifications keep every Chinese character (issue 32 item 9): a toast drawn over the step was cut at the
edges of the widgets under it ("已写出 4   文件"); the notice line under the step has none under it."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.i18n import t
from wizard.tui.screens.dialogs import QuitDialog
from wizard.tui.textual_compat import screen_strips


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _painted(app) -> str:
    return "\n".join(strip.text for strip in screen_strips(app.screen))


async def test_a_chinese_notification_keeps_every_character(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="zh")
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await _settle(pilot)
        message = t("review.written", n=4, out="verl-run")  # a toast painted it "已  出 4 个文件到 verl-run"
        app.notify(message)
        await _settle(pilot)
        assert message in _painted(app), _painted(app)[-400:]


async def test_an_english_notification_shows_whole(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="en")
    async with app.run_test(size=(100, 40), notifications=True) as pilot:
        await _settle(pilot)
        message = t("review.written", n=4, out="verl-run")
        app.notify(message)
        await _settle(pilot)
        assert message in _painted(app), _painted(app)[-400:]


async def test_the_notice_goes_after_its_timeout_and_a_dialog_still_gets_a_toast(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), lang="zh")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _settle(pilot)
        # a timeout well past a loaded machine's settling (0.5 s had run out before the first look in a CI run)
        app.notify("已应用：只记录到 console", timeout=3)
        await _settle(pilot)
        line = app.screen.query_one("#notice-line")
        assert line.display
        await pilot.pause(3.5)
        assert not line.display
        app.push_screen(QuitDialog("answers.yaml"))  # a dialog: no notice line there
        await _settle(pilot)
        assert not app.screen.query("#notice-line")
        app.notify("帮助")
        await _settle(pilot)
        assert [n.message for n in app._notifications] == ["帮助"]  # a toast
