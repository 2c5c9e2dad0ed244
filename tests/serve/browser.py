"""Chromium tabs on a served wizard: open, read the screen, press keys, collect downloads (sync Playwright)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from tests.serve.chromium import context_options

VIEWPORT = {"width": 1200, "height": 860}


class Browser:
    """One Chromium with a fresh profile folder; downloads from every tab are collected in `downloads`."""

    def __init__(self, profile: Path) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self.context = self._playwright.chromium.launch_persistent_context(
            **context_options(
                profile,
                VIEWPORT["width"],
                VIEWPORT["height"],
                # Keep Chromium's popup blocker on, as in a student's browser: a download opens a new window.
                ignore_default_args=["--disable-popup-blocking"],
                accept_downloads=True,
            )
        )
        self.downloads: list = []
        self.context.on("page", self._watch)

    def _watch(self, page) -> None:
        page.on("download", self._downloaded)

    def _downloaded(self, download) -> None:
        if all(d.url != download.url for d in self.downloads):
            self.downloads.append(download)

    def open(self, url: str) -> Tab:
        return Tab(self, url)

    def wait_for_downloads(self, n: int, timeout: float = 30) -> list:
        deadline = time.monotonic() + timeout
        while len(self.downloads) < n and time.monotonic() < deadline:
            self.context.pages[0].wait_for_timeout(100)
        assert len(self.downloads) >= n, f"{len(self.downloads)} download(s), expected {n}"
        return self.downloads[:n]

    def close(self) -> None:
        self.context.close()
        self._playwright.stop()


class Tab:
    """A browser tab on the served wizard, with its terminal screen decoded from the websocket's bytes."""

    def __init__(self, browser: Browser, url: str) -> None:
        import pyte

        self.browser = browser
        self.page = browser.context.new_page()
        self.screen: pyte.Screen | None = None
        self.last_frame = time.monotonic()  # when the websocket last brought screen bytes (see settle())
        self._pyte = pyte
        self.page.on("websocket", self._attach)
        self.response = self.page.goto(url)

    def _attach(self, websocket) -> None:
        size = re.search(r"width=(\d+)&height=(\d+)", websocket.url)
        self.screen = self._pyte.Screen(int(size[1]), int(size[2]))
        stream = self._pyte.ByteStream(self.screen)

        def received(payload) -> None:
            if isinstance(payload, bytes):
                self.last_frame = time.monotonic()
                stream.feed(payload)

        websocket.on("framereceived", received)

    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen else ""

    def wait_for(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.text():
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.text()}")

    def wait_gone(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text not in self.text():
                return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{text!r} never went away; the screen:\n{self.text()}")

    def settle(self, quiet: float = 0.1, timeout: float = 5) -> None:
        """Wait until no screen bytes came for `quiet` seconds (a cursor's blink is ~0.5 s apart)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and time.monotonic() - self.last_frame < quiet:
            self.page.wait_for_timeout(20)

    def focus(self) -> None:
        # The terminal's keyboard input; a click would land on whatever widget is under the pointer.
        self.page.focus(".xterm-helper-textarea")

    def press(self, *keys: str, pause_ms: int = 150) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(pause_ms)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def close(self) -> None:
        self.page.close()
