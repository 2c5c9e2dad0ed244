"""`verl-wizard serve` in a real browser (Debian's Chromium, headless): the Start screen, keys to Review, the
files as downloads equal to `new`'s, the tab beyond --max-sessions, and no process left behind."""

from __future__ import annotations

import zipfile

import pytest

from tests.cli.helpers import cli
from tests.serve.helpers import (
    command_of,
    descendants,
    name_of,
    need_browser,
    start_serve,
    stop_quietly,
    unzip,
    wait_until,
)
from wizard.i18n import en, zh

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("browser_available")]

CATALOGUES = {"en": en.STRINGS, "zh": zh.STRINGS}
FILES = ("config.yaml", "run.sh", "answers.yaml", "RUN.md")


@pytest.fixture
def browser_available():
    need_browser()


@pytest.fixture
def browser(tmp_path):
    from tests.serve.browser import Browser

    opened = Browser(tmp_path / "profile")
    yield opened
    opened.close()


def header(lang: str, n: int, step: str) -> str:
    return f"{n}/7 {CATALOGUES[lang]['step.' + step]}"


def below_server(pid: int) -> dict[str, int]:
    """What runs below the server, counted by process name (the fork server, tabs' wizards, anything else)."""
    counts: dict[str, int] = {}
    for child in descendants(pid):
        counts[name_of(child) or command_of(child)] = counts.get(name_of(child) or command_of(child), 0) + 1
    return counts


FORK_SERVER_ONLY = {"verl-forkserver": 1}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tab_walks_to_review_and_downloads_what_new_writes(lang, tmp_path, browser):
    teacher = tmp_path / "teacher"
    served = start_serve(teacher, "--preset", "grpo-8b-1x8", "--topology", "8xH100", "--lang", lang)
    try:
        tab = browser.open(served.url)
        tab.wait_for(header(lang, 1, "start"))
        tab.wait_for("grpo-8b-1x8")  # the teacher's preset, shown as loaded
        tab.focus()
        tab.press(*["Control+n"] * 6)
        tab.wait_for(header(lang, 7, "review"))
        # The command palette lists every command, then only the one typed: Enter runs it.
        every_step = CATALOGUES[lang]["palette.goto"].format(step=CATALOGUES[lang]["step.models"])
        tab.press("Control+p")
        tab.wait_for(every_step)
        tab.type(CATALOGUES[lang]["review.write"])
        tab.wait_gone(every_step)
        tab.press("Enter")
        (bundle,) = browser.wait_for_downloads(1)
        tab.press("Control+s")
        _, answers = browser.wait_for_downloads(2)

        assert bundle.suggested_filename == "verl-run.zip"
        assert answers.suggested_filename == "verl-wizard-answers.yaml"
        bundle.save_as(tmp_path / "verl-run.zip")
        answers.save_as(tmp_path / "answers-download.yaml")
        unzip(tmp_path / "verl-run.zip", tmp_path / "unzipped")
        assert (
            cli(
                "new", "--preset", "grpo-8b-1x8", "--topology", "8xH100", "--lang", lang, "--out", str(tmp_path / "new")
            ).returncode
            == 0
        )
        got = tmp_path / "unzipped" / "verl-run"
        assert sorted(p.name for p in got.iterdir()) == sorted(FILES)
        for name in FILES:
            assert (got / name).read_bytes() == (tmp_path / "new" / name).read_bytes(), name
        assert (tmp_path / "answers-download.yaml").read_bytes() == (tmp_path / "new" / "answers.yaml").read_bytes()
        mode = zipfile.ZipFile(tmp_path / "verl-run.zip").getinfo("verl-run/run.sh").external_attr >> 16
        assert mode & 0o111, "run.sh is executable in the zip"

        tab.close()
        wait_until(lambda: below_server(served.process.pid) == FORK_SERVER_ONLY, what="the closed tab's wizard ended")
        assert served.stop() == 0
        assert descendants(served.process.pid) == []
    finally:
        stop_quietly(served)
    # The exit report went to the server's log; nothing was written on the teacher's disk.
    log = "\n".join(served.lines)
    assert "verl-run.zip: config.yaml" in log.replace("：", ": ")
    assert "verl-wizard-answers.yaml" in log
    assert [p.name for p in teacher.iterdir()] == ["tmp"]
    assert list((teacher / "tmp").iterdir()) == []  # every tab's folder removed


def test_the_tab_beyond_max_sessions_gets_a_clear_page_and_a_stop_ends_every_wizard(tmp_path, browser):
    served = start_serve(tmp_path / "teacher", "--max-sessions", "1")
    try:
        first = browser.open(served.url)
        first.wait_for(header("en", 1, "start"))
        second = browser.open(served.url)
        assert second.response.status == 503
        assert "All 1 wizards of this workshop are in use" in second.page.inner_text("body")
        assert second.screen is None  # no terminal was started for it

        first.close()
        wait_until(lambda: below_server(served.process.pid) == FORK_SERVER_ONLY, what="the closed tab's wizard ended")
        second.page.reload()
        second.wait_for(header("en", 1, "start"))
        assert below_server(served.process.pid) == {"verl-forkserver": 1, "verl-wizard-tab": 1}

        assert served.stop() == 0  # with the tab still open
        assert descendants(served.process.pid) == []
        second.page.wait_for_selector("body.-closed")  # the tab says its wizard has ended
    finally:
        stop_quietly(served)
