"""On a Textual release other than the pinned one, the wizard runs stock Textual and shows the same screens.

wizard/tui/textual_compat.py turns its speed-ups on only on the release it was tested against. Here the
running version is made another one: the app must then use the stock compositor, OptionList behaviour and
bindings, and a keystroke, a jump to a finding's field and a fix must leave the terminal (a pyte screen
fed with every frame, as in test_partial_frames.py) showing what the pinned release shows.
"""

from __future__ import annotations

import os

import pytest
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer

from tests.tui.helpers import edit_at_end_of, make_app
from tests.tui.test_partial_frames import SIZE, Terminal, differences, full_repaint
from wizard.i18n import set_language
from wizard.tui import textual_compat
from wizard.tui.bindings import LocalizedBindings

pytestmark = pytest.mark.terminal  # compares pictures through test_partial_frames' terminal emulator (pyte)


@pytest.fixture
def textual_version(monkeypatch):
    """Call with a version string: textual_compat then sees that release running (until the test ends)."""

    def pretend(version: str | None) -> None:
        monkeypatch.setattr(textual_compat, "running_version", lambda: version)
        textual_compat.in_use.cache_clear()

    yield pretend
    monkeypatch.undo()
    textual_compat.in_use.cache_clear()


def test_the_speedups_run_on_the_pinned_release_alone(textual_version, monkeypatch):
    textual_version(textual_compat.TESTED_WITH)
    assert textual_compat.in_use() == frozenset(textual_compat.PRIVATE_USES)
    for other in ("8.2.9", "8.3.0", "9.0.0", None):
        textual_version(other)
        assert textual_compat.in_use() == frozenset(), other
    textual_version(textual_compat.TESTED_WITH)
    monkeypatch.setenv(textual_compat.STOCK_ENV, "compositor, option_keep")
    textual_compat.in_use.cache_clear()
    assert textual_compat.in_use() == frozenset(textual_compat.PRIVATE_USES) - {"compositor", "option_keep"}
    monkeypatch.setenv(textual_compat.STOCK_ENV, "all")
    textual_compat.in_use.cache_clear()
    assert textual_compat.in_use() == frozenset()


def test_the_pin_and_the_tested_release_agree():
    from importlib.metadata import version
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert f'"textual=={textual_compat.TESTED_WITH}",' in [line.strip() for line in pyproject.splitlines()]
    assert textual_compat.running_version() == version("textual")  # the quick look agrees with the metadata


def test_the_running_version_asks_the_metadata_when_the_folder_does_not_tell(monkeypatch):
    from importlib.metadata import version

    listed = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path: [*listed(path), "textual-0.1.dist-info"])  # two: ambiguous
    assert textual_compat.running_version() == version("textual")
    monkeypatch.setattr(os, "listdir", lambda path: ["textual-0.1.dist-info"])
    assert textual_compat.running_version() == "0.1"


async def drive(app, pilot, terminal) -> dict[str, list]:
    """A keystroke, a step change, a jump and a fix; the terminal's picture after each."""
    pictures = {}

    async def settle(name: str) -> None:
        await pilot.pause()
        await pilot.pause()
        assert not differences(terminal.picture(), full_repaint(app)), name  # the partial frames add up
        pictures[name] = terminal.picture()

    await edit_at_end_of(app, pilot, "rollout.tensor_parallel_size", step="hardware")
    await pilot.press("backspace", "3")  # rollout TP 3 on 8 GPUs: PLACE-001 and PLACE-005
    await settle("keystroke")
    assert [f.id for f in app.session.findings][:2] == ["PLACE-001", "PLACE-005"]
    await pilot.press("ctrl+n")  # Batch comes after Hardware
    await settle("next step")
    assert app.step == "batch"
    app.screen.query_one("#findings-list").focus()
    await pilot.press("home", "enter")  # PLACE-001: its field is on the hardware step
    await settle("jump")
    assert app.step == "hardware"
    assert app.focused is app.screen.row_for("rollout.tensor_parallel_size").input_widget
    app.screen.query_one("#findings-list").focus()
    await pilot.press("home", "f")
    await settle("fix")
    assert app.session.value("rollout.tensor_parallel_size") == 4
    assert "PLACE-001" not in {f.id for f in app.session.findings}
    return pictures


async def run_through(tmp_path, name: str) -> tuple[dict[str, list], dict]:
    """The pictures of drive(), and what ran: the screen's compositor class, the findings list's speed-ups."""
    app = make_app("grpo-8b-1x8", out=str(tmp_path / name))
    async with app.run_test(size=SIZE) as pilot:
        pictures = await drive(app, pilot, Terminal(app))
        ran = {
            "compositor": type(app.screen._compositor),
            "list private uses": app.screen.query_one("#findings-list")._private_uses,
        }
    return pictures, ran


@pytest.mark.usefixtures("steady_cursor")
async def test_another_textual_release_shows_the_same_screens_with_stock_textual(tmp_path, textual_version):
    textual_version(textual_compat.TESTED_WITH)
    pinned, pinned_ran = await run_through(tmp_path, "pinned")
    assert pinned_ran["compositor"] is textual_compat.DirtyRegionCompositor
    assert pinned_ran["list private uses"] == frozenset(textual_compat.PRIVATE_USES)
    textual_version("9.0.0")
    stock, stock_ran = await run_through(tmp_path, "stock")
    assert not issubclass(stock_ran["compositor"], textual_compat.DirtyRegionCompositor)  # Textual's own
    assert stock_ran["list private uses"] == frozenset()
    assert list(stock) == ["keystroke", "next step", "jump", "fix"]
    for name in stock:
        assert not differences(stock[name], pinned[name]), name


async def test_the_comparison_sees_a_screen_that_differs(tmp_path, textual_version):
    """The neighbour: the stock run with one more keystroke than the pinned run does not pass for the same."""
    textual_version(textual_compat.TESTED_WITH)
    pinned, _ = await run_through(tmp_path, "pinned")
    textual_version("9.0.0")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "stock"))
    async with app.run_test(size=SIZE) as pilot:
        terminal = Terminal(app)
        await edit_at_end_of(app, pilot, "rollout.tensor_parallel_size", step="hardware")
        await pilot.press("backspace", "3", "2")  # TP 32
        await pilot.pause()
        await pilot.pause()
        assert differences(terminal.picture(), pinned["keystroke"])


class Keys(LocalizedBindings, App):
    BINDINGS = [Binding("ctrl+n", "next", "key.next"), Binding("ctrl+x", "nothing", "not a catalogue key")]

    def compose(self):
        yield Footer()


@pytest.mark.parametrize("release", ["pinned", "other"])
async def test_footer_labels_follow_the_language_on_the_pinned_release_and_stay_english_on_others(
    release, textual_version
):
    textual_version(textual_compat.TESTED_WITH if release == "pinned" else "9.0.0")
    set_language("zh")
    try:
        app = Keys()
        async with app.run_test(size=(80, 5)) as pilot:
            await pilot.pause()
            labels = {key: b.binding.description for key, b in app.screen.active_bindings.items()}
    finally:
        set_language("en")
    from wizard.i18n import en, zh

    assert labels["ctrl+n"] == (zh.STRINGS["key.next"] if release == "pinned" else en.STRINGS["key.next"])
    assert labels["ctrl+n"] != "key.next"
    assert labels["ctrl+x"] == "not a catalogue key"
