"""A served wizard's tab without a browser: its websocket (textual-serve's protocol) and its screen, decoded by pyte.

The screen is kept at the size the tab last asked for, as xterm.js would keep it; the wizard's output is fed
into it as it arrives, so a test can wait for what a student would see.
"""

from __future__ import annotations

import asyncio
import json

from tests.serve.helpers import Served, open_wizard

CLOSED = ("CLOSE", "CLOSING", "CLOSED", "ERROR")


class TabClosed(AssertionError):
    """The server closed the tab's websocket while a test waited for its screen."""


class Terminal:
    """One tab: `await Terminal.open(url)`, then send(), resize(), until(); close() when done."""

    def __init__(self, client, websocket, status: int, width: int, height: int) -> None:
        import pyte

        self.client, self.websocket, self.status = client, websocket, status
        self.screen = pyte.Screen(width, height)
        self._stream = pyte.ByteStream(self.screen)
        self.texts: list[str] = []  # the server's text messages (pong, open_url, ...)

    @classmethod
    async def open(cls, url: str, width: int = 100, height: int = 30, **ws_options) -> Terminal:
        """The page, then its websocket at width x height (open_wizard's tab, with aiohttp's ws options)."""
        client, websocket, status = await open_wizard(url, width=width, height=height, **ws_options)
        return cls(client, websocket, status, width, height)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def send(self, *message) -> None:
        """A protocol message, as textual.js sends it (a JSON array)."""
        await self.websocket.send_str(json.dumps(list(message)))

    async def resize(self, width: int, height: int, shown: tuple[int, int] | None = None) -> None:
        """Ask for width x height; the local screen takes `shown` (the size the server is expected to keep)."""
        await self.send("resize", {"width": width, "height": height})
        columns, rows = shown or (width, height)
        self.screen.resize(rows, columns)

    async def until(self, condition, timeout: float = 30, what: str = "the screen") -> None:
        """Read the tab's websocket until condition(screen) holds; TabClosed if the server closes it first."""
        import aiohttp

        try:
            async with asyncio.timeout(timeout):
                while not condition(self.screen):
                    message = await self.websocket.receive()
                    if message.type == aiohttp.WSMsgType.BINARY:
                        self._stream.feed(message.data)
                    elif message.type == aiohttp.WSMsgType.TEXT:
                        self.texts.append(message.data)
                    elif message.type.name in CLOSED:
                        raise TabClosed(f"the tab was closed ({message.type.name}, {message.data!r}):\n{self.text()}")
        except TimeoutError:
            raise AssertionError(f"{what} never appeared within {timeout} s; the screen:\n{self.text()}") from None

    async def closed(self, timeout: float = 20) -> int | None:
        """Wait until the server closes the websocket; its close code."""
        async with asyncio.timeout(timeout):
            while not self.websocket.closed:
                await self.websocket.receive()
        return self.websocket.close_code

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()


def shows(text: str, row: int | None = None):
    """A condition: `text` is on the screen (on that row, when given; -1 is the last)."""

    def condition(screen) -> bool:
        rows = screen.display if row is None else [screen.display[row]]
        return any(text in line for line in rows)

    return condition


FIRST_SCREEN = shows("Preset")
NEXT_STEP = "\x0e"  # ctrl+n
ON_MODELS = shows("2/7 Models", row=0)


async def a_wizard(served: Served, **options) -> Terminal:
    """A new tab that gets a wizard: its page (200), then its first screen."""
    tab = await Terminal.open(served.url, **options)
    assert tab.status == 200, f"a new tab got {tab.status}:\n" + "\n".join(served.lines)
    await tab.until(FIRST_SCREEN, what="the first screen")
    return tab
