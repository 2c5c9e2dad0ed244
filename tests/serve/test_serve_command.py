"""`verl-wizard serve` without a browser: its options, the URL and the warning it prints, the places, and no
wizard left when the server dies (tests/serve/test_browser.py has the browser)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys

import pytest

from tests.cli.helpers import cli
from tests.serve.helpers import (
    descendants,
    name_of,
    open_wizard,
    receive_until,
    start_serve,
    stop_quietly,
    wait_until,
)
from wizard.commands.serve import wizard_args
from wizard.serve.places import Places

pytest.importorskip("textual_serve")


def test_options_no_wizard_could_start_with_are_refused_at_once(tmp_path):
    bad_preset = cli("serve", "--preset", "no-such-preset")
    assert bad_preset.returncode == 2 and len(bad_preset.stderr.strip().splitlines()) == 1
    assert "no-such-preset" in bad_preset.stderr
    broken = tmp_path / "answers.yaml"
    broken.write_text("batch: [unclosed\n")
    assert cli("serve", "--answers", str(broken)).returncode == 2
    assert cli("serve", "--topology", "3xNoSuchGPU").returncode == 2
    result = cli("serve", "--max-sessions", "0")
    assert result.returncode == 2 and "--max-sessions 0" in result.stderr
    assert cli("serve", "--port", "70000").returncode == 2


def test_the_tabs_wizards_get_the_teachers_options_with_absolute_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "class.yaml").write_text("")
    args = cli_args("--preset", "grpo-8b-1x8", "--answers", "class.yaml", "--topology", "2x8xH100", "--lang", "zh")
    assert wizard_args(args) == [
        "tui",
        "--lang",
        "zh",
        "--preset",
        "grpo-8b-1x8",
        "--answers",
        str(tmp_path / "class.yaml"),
        "--topology",
        "2x8xH100",
    ]


def cli_args(*argv: str):
    from wizard.cli import parse

    return parse(["serve", *argv])


class NotInstalled:
    """A module finder for which textual-serve is not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "textual_serve":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def test_without_textual_serve_it_says_which_extra_to_install(monkeypatch):
    monkeypatch.setattr(sys, "meta_path", [NotInstalled(), *sys.meta_path])
    for name in [m for m in sys.modules if m.split(".")[0] == "textual_serve"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "wizard.serve.server", raising=False)
    monkeypatch.delitem(sys.modules, "wizard.serve.wizard_process", raising=False)
    result = cli("serve")
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == "verl-wizard: error: verl-wizard serve needs textual-serve; install it with: pip install 'verl-wizard[serve]'"
    )


def test_a_port_in_use_is_a_one_line_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port))
    assert result.returncode == 2
    assert re.fullmatch(
        rf"verl-wizard: error: --host 127.0.0.1 --port {port}: cannot listen there \(.+\); choose another --port or --host\n",
        result.stderr,
    )


def test_loopback_prints_the_url_and_no_warning(tmp_path):
    served = start_serve(tmp_path)
    try:
        served.wait_for_line("Ctrl+C")
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", served.url)
        assert not any("warning" in line for line in served.lines)
        assert served.stop() == 0
    finally:
        stop_quietly(served)


def test_a_non_loopback_host_is_warned_about_plainly(tmp_path):
    served = start_serve(tmp_path, "--host", "0.0.0.0")  # listening only; nothing is sent anywhere
    try:
        served.wait_for_line("Ctrl+C")
        port = served.url.rsplit(":", 1)[1].strip("/")
        warning = served.wait_for_line("warning")
        assert warning == (
            f"warning: --host 0.0.0.0 is not a loopback address: anyone who can reach port {port} "
            "of this machine gets a wizard, with no password"
        )
        assert served.stop() == 0
    finally:
        stop_quietly(served)


def test_a_websocket_beyond_the_places_is_sent_to_the_full_page(tmp_path):
    served = start_serve(tmp_path, "--max-sessions", "1")

    async def scenario():
        import aiohttp

        async with aiohttp.ClientSession() as client:
            async with client.get(served.url) as page:  # holds the one place
                assert page.status == 200
            async with client.get(served.url) as page:
                assert page.status == 503
                assert 'http-equiv="refresh" content="15; url=/"' in await page.text()  # retries the wizard page
            websocket = await client.ws_connect(served.url.replace("http://", "ws://") + "ws/not-a-held-token")
            text = await receive_until(websocket, lambda data: b"open_url" in data)
            assert b'"/full"' in text
            await websocket.close()

    try:
        asyncio.run(scenario())
        # No wizard started: below the server runs its fork server alone (named once it has started).
        wait_until(lambda: [name_of(p) for p in descendants(served.process.pid)] == ["verl-forkserver"])
        assert served.stop() == 0
    finally:
        stop_quietly(served)


def test_a_killed_server_leaves_no_wizard_behind(tmp_path):
    served = start_serve(tmp_path, "--preset", "grpo-8b-1x8")

    async def open_one():
        client, websocket, _ = await open_wizard(served.url)
        await receive_until(websocket, lambda data: b"Preset" in data)
        return client, websocket

    loop = asyncio.new_event_loop()
    try:
        client, _ = loop.run_until_complete(open_one())
        running = descendants(served.process.pid)
        assert sorted(name_of(p) for p in running) == ["verl-forkserver", "verl-wizard-tab"]
        os.kill(served.process.pid, signal.SIGKILL)
        served.process.wait()
        wait_until(lambda: not any(alive(p) for p in running), timeout=20, what="the wizard and the fork server ended")
        loop.run_until_complete(client.close())
    finally:
        loop.close()
        stop_quietly(served)


def test_without_its_fork_server_a_tab_still_gets_a_wizard(tmp_path):
    served = start_serve(tmp_path)

    async def open_one() -> bytes:
        client, websocket, _ = await open_wizard(served.url)
        try:
            return await receive_until(websocket, lambda data: b"Preset" in data)
        finally:
            await client.close()

    try:
        (fork_server,) = wait_until(
            lambda: [p for p in descendants(served.process.pid) if name_of(p) == "verl-forkserver"],
            what="a fork server",
        )
        os.kill(fork_server, signal.SIGKILL)
        wait_until(lambda: not alive(fork_server), what="the fork server ended")
        assert b"Preset" in asyncio.run(open_one())
        served.wait_for_line("the fork server does not answer")
        assert served.stop() == 0
        assert descendants(served.process.pid) == []
    finally:
        stop_quietly(served)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_places_hold_a_page_then_take_it_and_free_it():
    clock = Clock()
    places = Places(2, hold_s=30, clock=clock)
    first, second = places.hold(), places.hold()
    assert first and second and places.hold() is None  # both places held by pages just served
    assert places.take(first) and places.take(second)
    assert places.take(None) is False  # no place left for a websocket without a hold
    places.give_back()
    assert places.in_use == 1 and places.hold() is not None


def test_a_hold_that_no_websocket_claims_lapses():
    clock = Clock()
    places = Places(1, hold_s=30, clock=clock)
    token = places.hold()
    assert places.hold() is None
    clock.now = 29.9
    assert places.hold() is None
    clock.now = 30.0
    assert places.take(token) is True  # lapsed, but a place is free: taken anyway
    assert places.in_use == 1 and places.hold() is None


def test_a_token_takes_one_place_once():
    places = Places(2, clock=Clock())
    token = places.hold()
    assert places.take(token)
    assert places.take(token)  # a reused token is like no token: the second place is free
    assert not places.take(token)
