"""The pieces that keep `verl-wizard serve` whole, without a server: the browser's messages checked and sizes
clamped (wizard/serve/protocol.py), the log in one line per event (server_log.py), and a tab's wizard whose
tab has gone (wizard_process.py). tests/serve/test_serve_hostile.py sends the same things to a real server."""

from __future__ import annotations

import asyncio
import io
import logging
import sys

import pytest

from wizard.serve import protocol
from wizard.serve.protocol import Focus, Ping, Resize, Stdin, parse

pytest.importorskip("textual_serve")

from aiohttp.http_exceptions import BadStatusLine

from wizard.serve.server_log import OneLineFormatter, RequestErrors, configure
from wizard.serve.wizard_process import PRELUDE, WizardProcess

# The probe's messages (issue 28), each of which printed a traceback or ended the tab's wizard.
PROBE = [
    "{{{",
    '{"a":1}',
    "[]",
    '["stdin",5]',
    '["resize",{}]',
    '["resize",{"width":"80","height":"24"}]',
    '["resize",{"width":-80,"height":24}]',
    '["resize",{"width":80,"height":0}]',
    '["stdin","' + "a" * 5_000_000 + '"]',  # over the size limit (aiohttp closes such a websocket before this)
]


@pytest.mark.parametrize("text", PROBE, ids=lambda text: text[:30])
def test_the_probes_messages_are_not_messages(text):
    assert parse(text) is None


def test_what_textual_js_sends_is_passed_on():
    assert parse('["stdin","q\\u001b[A"]') == Stdin(b"q\x1b[A")
    assert parse('["resize",{"width":120,"height":40}]') == Resize(120, 40)
    assert parse('["ping","1733360000000"]') == Ping("1733360000000")
    assert parse('["focus"]') == Focus(True) and parse('["blur"]') == Focus(False)


def test_sizes_are_clamped_to_what_a_screen_can_show():
    assert parse('["resize",{"width":3000,"height":3000}]') == Resize(protocol.MAX_WIDTH, protocol.MAX_HEIGHT)
    assert parse('["resize",{"width":1,"height":1}]') == Resize(protocol.MIN_WIDTH, protocol.MIN_HEIGHT)
    assert parse('["resize",{"width":500,"height":200}]') == Resize(500, 200)  # the bounds themselves pass
    assert parse('["resize",{"width":10000000000000000000000,"height":30}]') == Resize(500, 30)
    assert parse('["resize",{"width":true,"height":30}]') is None  # JSON's true is not 1
    assert parse('["resize",{"width":80.0,"height":30}]') is None


def test_the_sizes_in_the_websockets_address_are_clamped_too():
    assert protocol.query_size("3000", protocol.WIDTH, 80) == protocol.MAX_WIDTH
    assert protocol.query_size("120", protocol.WIDTH, 80) == 120
    assert protocol.query_size("0", protocol.WIDTH, 80) == 80
    assert [protocol.query_size(text, protocol.HEIGHT, 24) for text in ("", "-5", "２０", "1e3", "9" * 50)] == [24] * 5


def test_unknown_types_and_extra_parts_are_ignored():
    for text in ('["quit"]', '["exit",{}]', '["focus",1]', '["stdin","a","b"]', '["ping","' + "9" * 65 + '"]'):
        assert parse(text) is None, text
    assert parse("[" * 100_000) is None  # deeper than the JSON parser goes


def test_a_lone_surrogate_is_typed_as_a_replacement_character():
    assert parse('["stdin","a\\ud800b"]') == Stdin(b"a?b")


def one_line_log(record_exception: BaseException) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(OneLineFormatter())
    logger = logging.getLogger("test-serve-one-line")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            raise record_exception
        except BaseException:
            logger.exception("Error handling request from %s", "10.0.0.7")
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_an_exception_in_the_log_is_one_line_not_a_traceback():
    assert one_line_log(KeyError("width")) == "Error handling request from 10.0.0.7: KeyError: 'width'\n"
    assert one_line_log(ValueError("two\nlines")) == "Error handling request from 10.0.0.7: ValueError: two lines\n"


def request_errors_line(lang: str, exc: BaseException, capsys) -> str:
    configure(sys.stdout)
    try:
        RequestErrors(lang).exception("Error handling request from %s", "10.0.0.7", exc_info=exc)
    finally:
        logging.getLogger().handlers.clear()
    return capsys.readouterr().out


def test_a_malformed_request_is_one_line_in_both_languages(capsys):
    bad = BadStatusLine("GARBAGE")
    english = request_errors_line("en", bad, capsys)
    assert english == "a malformed HTTP request from 10.0.0.7 was refused (BadStatusLine: Bad status line 'GARBAGE')\n"
    chinese = request_errors_line("zh", bad, capsys)
    assert chinese.startswith("拒绝了来自 10.0.0.7 的格式错误的 HTTP 请求") and chinese.count("\n") == 1
    # A neighbour: a handler's own failure (aiohttp answers 500) says so, also in one line.
    assert request_errors_line("en", KeyError("x"), capsys) == "a request from 10.0.0.7 failed (KeyError: 'x')\n"


class GoneTab:
    """A tab whose websocket is gone: every write fails as aiohttp's did in the probe (a plain ConnectionError)."""

    def __init__(self, fails: bool) -> None:
        self.fails, self.received, self.closed = fails, [], False

    async def write(self, data) -> None:
        if self.fails:
            raise ConnectionError("Connection lost")
        self.received.append(data)

    async def close(self) -> None:
        self.closed = True


class Pipe:
    """The wizard's stdin: takes what the server writes."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        pass


class FakeWizard:
    """A wizard process that has printed one screen and then ends when asked to quit."""

    pid = 4242

    def __init__(self) -> None:
        self.returncode = None
        self.stdin = Pipe()
        self.stdout, self.stderr = asyncio.StreamReader(), asyncio.StreamReader()
        screen = b"x" * 2000
        self.stdout.feed_data(PRELUDE + b"D" + len(screen).to_bytes(4, "big") + screen)
        self._ended = asyncio.Event()

    def end(self) -> None:
        self.returncode = 0
        self.stdout.feed_eof()
        self.stderr.feed_eof()
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        return 0

    terminate = kill = end


class Launcher:
    def __init__(self) -> None:
        self.process = FakeWizard()

    async def launch(self, args, cwd, width, height):
        return self.process


async def served_once(fails: bool) -> tuple[GoneTab, WizardProcess, Launcher]:
    from textual_serve.download_manager import DownloadManager

    tab, launcher = GoneTab(fails), Launcher()
    wizard = WizardProcess(
        ["tui"],
        1,
        launcher,
        write_bytes=tab.write,
        write_str=tab.write,
        close=tab.close,
        download_manager=DownloadManager(),
    )
    await wizard.start(80, 24)
    asyncio.get_running_loop().call_later(0.1, launcher.process.end)  # the wizard hears the quit below
    await asyncio.wait_for(wizard.stop(), 5)
    return tab, wizard, launcher


async def test_a_wizard_whose_tab_has_gone_stops_without_raising():
    # Before: the ConnectionError of the failed write came out of stop(), and the server's handler never gave
    # the tab's place back nor logged "ended" (issue 28: a 3000x3000 screen over the client's size limit).
    tab, _, launcher = await served_once(fails=True)  # stop() does not raise what the write raised
    assert tab.received == [] and b'"quit"' in launcher.process.stdin.data


async def test_a_wizard_whose_tab_is_there_passes_its_screen_on():
    tab, _, launcher = await served_once(fails=False)
    assert tab.received == [b"x" * 2000] and b'"quit"' in launcher.process.stdin.data
