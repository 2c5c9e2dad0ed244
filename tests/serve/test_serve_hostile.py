"""`verl-wizard serve` against what anyone who can reach its port may send (issue 28's probe, one test each):
websocket messages that are not textual-serve's protocol, sizes no screen has, a message too long, HTTP that is
not HTTP. Each leaves the other tabs' wizards running, frees the places of the wizards it ends, and puts one
line in the server's log, never a traceback. Beside each, the ordinary message it imitates still works.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal

import pytest

from tests.serve.terminal import NEXT_STEP, ON_MODELS, TabClosed, a_wizard, shows
from wizard.serve.protocol import MAX_HEIGHT, MAX_MESSAGE_BYTES, MAX_WIDTH

pytest.importorskip("textual_serve")
pytest.importorskip("pyte")
pytestmark = pytest.mark.terminal  # a served wizard's screen, read by a terminal emulator (pyte)


async def test_a_normal_resize_keystroke_and_ping_still_work(serve):
    served = serve("--max-sessions", "1")
    tab = await a_wizard(served)
    await tab.resize(120, 40)
    await tab.until(shows("^q Quit", row=39), what="the footer on row 40")
    await tab.send("ping", "1733360000000")
    await tab.send("stdin", NEXT_STEP)
    await tab.until(ON_MODELS, what="the Models step after ctrl+n")
    assert '["pong", "1733360000000"]' in tab.texts
    await tab.close()


async def test_a_resize_to_3000_by_3000_is_clamped_and_frees_its_place(serve):
    # The probe: this one message ended the tab's wizard without "ended" in the log and kept its place, so
    # that with --max-sessions 1 every later tab got the full page. aiohttp's client refuses a message over
    # 4 MiB, as the probe's did: the clamped screen must fit.
    served = serve("--max-sessions", "1")
    tab = await a_wizard(served)
    await tab.resize(3000, 3000, shown=(MAX_WIDTH, MAX_HEIGHT))
    await tab.until(shows("^q Quit", row=MAX_HEIGHT - 1), what=f"the footer on row {MAX_HEIGHT}")
    await tab.send("stdin", NEXT_STEP)
    await tab.until(ON_MODELS, what="the Models step after ctrl+n")
    await tab.close()
    for later in range(2):  # the probe's later tabs all got the full page (it tried four)
        served.wait_for_line(f"wizard {later + 1} ended")
        tab = await a_wizard(served)
        await tab.close()


MALFORMED = [
    "{{{",
    '{"a":1}',
    "[]",
    '["stdin",5]',
    '["resize",{}]',
    '["resize",{"width":"80","height":"24"}]',
    '["resize",{"width":-80,"height":-24}]',
    '["resize",{"width":0,"height":24}]',
    '["resize",{"width":80.5,"height":true}]',
    '["resize",[80,24]]',
    '["stdin"]',
    '["stdin","a","b"]',
    '["ping",{"x":1}]',
    '["ping","' + "9" * 1000 + '"]',
    '["focus",1]',
    "[5]",
    '"stdin"',
    "null",
    '["quit"]',
    '["stdin","\\ud800"]',  # a lone surrogate: valid JSON, no UTF-8 (passed on as a replacement character)
    "[" * 100_000,
]


async def test_malformed_messages_are_ignored_and_the_tab_keeps_its_wizard(serve):
    served = serve("--max-sessions", "1")
    tab = await a_wizard(served)
    for message in MALFORMED:
        await tab.websocket.send_str(message)
    await tab.websocket.send_bytes(b"\x00\xff binary")
    await tab.send("stdin", NEXT_STEP)
    await tab.until(ON_MODELS, what="the Models step after the malformed messages and ctrl+n")
    ignored = [line for line in served.lines if "not textual-serve's protocol" in line]
    assert ignored == ["wizard 1: its tab sent a message that is not textual-serve's protocol, ignored ('{{{'); "
                       "further ones are ignored without a line"]  # fmt: skip
    await tab.close()
    served.wait_for_line("wizard 1 ended; 0 of 1 places taken")


async def test_a_message_over_the_limit_ends_only_that_tab_and_one_just_under_is_typed(serve):
    served = serve("--max-sessions", "1")
    tab = await a_wizard(served)
    paste = "x" * (MAX_MESSAGE_BYTES - 100)  # a paste, as xterm.js sends one (the preset list ignores it)
    await tab.send("stdin", f"\x1b[200~{paste}\x1b[201~")
    await tab.send("stdin", NEXT_STEP)
    await tab.until(ON_MODELS, what="the Models step after a long paste and ctrl+n")
    with contextlib.suppress(ConnectionError):  # the server may close the connection before it is all sent
        await tab.websocket.send_str('["stdin","' + "a" * 5_000_000 + '"]')
    await tab.closed()
    served.wait_for_line("wizard 1 ended; 0 of 1 places taken")
    line = served.wait_for_line("the connection to its tab was closed")
    assert f"exceeds limit {MAX_MESSAGE_BYTES}" in line
    await tab.close()
    tab = await a_wizard(served)
    await tab.close()


async def test_a_wizard_that_dies_frees_its_place_and_is_logged_as_ended(serve):
    served = serve("--max-sessions", "1")
    tab = await a_wizard(served)
    pid = int(re.search(r"wizard 1 started \(pid (\d+)\)", served.wait_for_line("wizard 1 started"))[1])
    os.kill(pid, signal.SIGKILL)
    served.wait_for_line("wizard 1 ended; 0 of 1 places taken")
    await tab.closed()  # the tab's terminal ends with it, as after the wizard's own exit
    await tab.close()
    tab = await a_wizard(served)
    with pytest.raises(TabClosed):  # a neighbour: the wizard's own quit ends its tab the same way
        await tab.send("stdin", "\x11")  # ctrl+q
        await tab.until(lambda screen: False, what="nothing", timeout=20)
    served.wait_for_line("wizard 2 ended; 0 of 1 places taken")
    await tab.close()


GARBAGE_REQUESTS = [
    b"GARBAGE\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(32)),  # a TLS hello on the HTTP port
    b"GET / HTTP/9.9\r\nHost: a\r\n\r\n",
    b"GET / HTTP/1.1 extra\r\nHost: a\r\n\r\n",
    b"G\xffT / HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nNo colon here\r\n\r\n",
    b"GET / HTTP/1.1\r\nHo\x00st: a\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\n folded: continuation\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",  # an oversized header
    b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: a\r\n\r\n",  # an oversized request line
    b"GET / HTTP/1.1\r\nHost: a\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(2000)) + b"\r\n",  # many headers
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
    b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked, x\r\n\r\n",
    # websocket handshakes that are not one: no key, a version that does not exist
    b"GET /ws/x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n",
    b"GET /ws/x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n\r\n",
]


def answer_to(port: int, request: bytes) -> bytes:
    """What the server answers to `request` on a connection of its own (until it closes, or 5 s)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        with contextlib.suppress(OSError):  # the server may answer and close before it has read everything
            connection.sendall(request)
        answer = b""
        with contextlib.suppress(OSError):
            while chunk := connection.recv(65536):
                answer += chunk
    return answer


def test_malformed_http_requests_are_refused_with_one_line_each(serve):
    served = serve("--max-sessions", "1")
    port = int(served.url.rsplit(":", 1)[1].strip("/"))
    before = len(served.lines)
    answers = [answer_to(port, request) for request in GARBAGE_REQUESTS]
    statuses = [answer[:12].decode("latin-1") for answer in answers]
    assert all(re.fullmatch(r"HTTP/1\.[01] 4\d\d", status) for status in statuses), statuses
    refused = served.lines_with("a malformed HTTP request from 127.0.0.1", len(GARBAGE_REQUESTS), since=before)
    assert len(refused) == len(GARBAGE_REQUESTS)
    assert len(served.lines) - before == len(refused)  # one line each, nothing else
    # A neighbour: a well-formed request still gets its page.
    assert answer_to(port, b"GET /full HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").startswith(b"HTTP/1.1 503")
