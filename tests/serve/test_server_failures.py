"""The workshop server in this process (aiohttp's test client, no wizard processes): a tab whose wizard cannot
start at all still gives its place back and is logged as ended, in one line each."""

from __future__ import annotations

import logging
import re

import pytest

pytest.importorskip("textual_serve")

from aiohttp.test_utils import TestClient, TestServer

from wizard.serve.server import WorkshopConfig, WorkshopServer


class NoProcesses:
    """A launcher on a machine out of processes: every launch fails."""

    async def start(self, args) -> None:
        pass

    async def launch(self, args, cwd, width, height):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    async def stop(self) -> None:
        pass


async def open_tab(client: TestClient) -> str:
    """A page, then its websocket; what the server did with it: 'closed' or the first message."""
    page = await client.get("/")
    assert page.status == 200
    token = re.search(r'"/ws/([^"]+)"', await page.text())[1]
    websocket = await client.ws_connect(f"/ws/{token}?width=100&height=30")
    message = await websocket.receive(timeout=10)
    await websocket.close()
    return message.type.name


async def test_a_wizard_that_cannot_start_gives_its_place_back(caplog):
    caplog.set_level(logging.INFO, logger="verl-wizard.serve")
    config = WorkshopConfig("127.0.0.1", 0, ["tui"], most=1, launcher=NoProcesses(), start_slots=0)
    server = WorkshopServer(config)
    async with TestClient(TestServer(server.make_app())) as client:
        assert await open_tab(client) == "CLOSE"
        assert await open_tab(client) == "CLOSE"  # the one place was free again
    assert server.places.taken == 0 and not server.tabs
    lines = [record.getMessage() for record in caplog.records if record.name == "verl-wizard.serve"]
    assert lines == [
        "wizard 1: its tab failed (BlockingIOError: [Errno 11] Resource temporarily unavailable)",
        "wizard 1 ended; 0 of 1 places taken",
        "wizard 2: its tab failed (BlockingIOError: [Errno 11] Resource temporarily unavailable)",
        "wizard 2 ended; 0 of 1 places taken",
    ]
    assert not any(record.exc_info for record in caplog.records)  # no traceback anywhere
