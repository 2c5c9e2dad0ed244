"""Start `verl-wizard serve` as a teacher would, drive it from a real Chromium or speak its websocket protocol
without one (open_wizard), and list what it left running.

The browser is Debian's Chromium (/usr/bin/chromium), driven by Playwright's Python package without any
browser download. A tab's screen is read from the bytes its websocket receives (the terminal's own input,
decoded by pyte at the tab's size): xterm.js draws on a canvas, so the DOM holds no text.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.serve.chromium import CHROMIUM

REQUIRED = "VERL_WIZARD_BROWSER_TESTS"  # "required" (CI): a missing browser fails instead of skipping
URL = re.compile(r"(http://[\w.:\[\]-]+/)")  # the first URL serve prints is the one to open


def need_browser() -> None:
    """Skip (fail in CI) unless Chromium, Playwright and textual-serve are installed."""
    missing = []
    if not os.path.exists(CHROMIUM):
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    for module in ("playwright", "textual_serve", "pyte"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"the {module} package")
    if missing:
        message = "the browser tests need " + ", ".join(missing)
        if os.environ.get(REQUIRED) == "required":
            pytest.fail(message)
        pytest.skip(message)


def descendants(pid: int) -> list[int]:
    """Every live process below pid (children, their children, ...), from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue  # a zombie has ended
        parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def name_of(pid: int) -> str:
    """The process name ps shows (a tab's wizard names itself verl-wizard-tab, the fork server verl-forkserver)."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


@dataclass
class Served:
    """A running `verl-wizard serve`: its process, the URL it printed, what it printed so far."""

    process: subprocess.Popen
    folder: Path
    url: str = ""
    lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Read the log as it comes: a full pipe would stall the server.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self, timeout: float = 20) -> int:
        """Ctrl+C, as a teacher stops it; returns its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self._reader.join(5)
        return code

    def wait_for_line(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((line for line in self.lines if text in line), None)
            if found is not None:
                return found
            time.sleep(0.05)
        raise AssertionError(f"serve never logged {text!r}:\n" + "\n".join(self.lines))

    def lines_with(self, text: str, count: int, since: int = 0, timeout: float = 20) -> list[str]:
        """The lines after `since` holding `text`, once there are `count` of them or the timeout passes (the server
        logs each request as it ends it, so a loaded machine may log the last ones after the answers came back)."""
        deadline = time.monotonic() + timeout
        while True:
            found = [line for line in self.lines[since:] if text in line]
            if len(found) >= count or time.monotonic() >= deadline:
                return found
            time.sleep(0.05)


def start_serve(folder: Path, *args: str) -> Served:
    """`verl-wizard serve --port 0 ARGS` started in `folder` (its own TMPDIR inside), once it prints its URL."""
    tmp = folder / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "wizard", "serve", "--port", "0", *args],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    served = Served(process, folder)
    try:
        served.url = URL.search(served.wait_for_line("http://", timeout=60))[1]
    except AssertionError:
        stop_quietly(served)
        raise
    return served


def wait_until(condition, timeout: float = 20, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} did not hold within {timeout} s")


def stop_quietly(served: Served) -> None:
    if served.process.poll() is None:
        served.process.kill()
        served.process.wait()


def unzip(path: Path, into: Path) -> Path:
    shutil.unpack_archive(path, into, "zip")
    return into


async def open_wizard(url: str, token: str | None = None, width: int = 100, height: int = 30, **ws_options):
    """A tab without a browser: the page, then its websocket at width x height (ws_options: aiohttp's
    ws_connect options); returns (client, websocket, the page's status), or (None, None, status) without a page."""
    import aiohttp

    client = aiohttp.ClientSession()
    async with client.get(url) as page:
        html = await page.text()
        status = page.status
    if token is None:
        found = re.search(r'"/ws/([^"]+)"', html)
        if found is None:
            await client.close()
            return None, None, status
        token = found[1]
    address = url.replace("http://", "ws://") + f"ws/{token}?width={width}&height={height}"
    websocket = await client.ws_connect(address, **ws_options)
    return client, websocket, status


async def receive_until(websocket, predicate, timeout: float = 30):
    import aiohttp

    received = b""
    async with asyncio.timeout(timeout):
        async for message in websocket:
            if message.type == aiohttp.WSMsgType.BINARY:
                received += message.data
            elif message.type == aiohttp.WSMsgType.TEXT:
                received += message.data.encode()
            if predicate(received):
                return received
    return received
