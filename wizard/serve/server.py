"""The workshop web server: a page per tab, a wizard process per page's websocket, at most --max-sessions.

Built on textual-serve's Server (its download route); what differs: the pages (pages.py), the places
(places.py), the wizard processes (wizard_process.py), every message from a tab checked before use
(protocol.py), a log of one line per event (server_log.py), a bound port read back (so `--port 0` works and
the printed URL is the real one), and a stop that ends every wizard before the server exits.

Anyone who can reach the port can send anything, so a tab's place is freed and "ended" logged however its
wizard ends: the tab closes, the wizard exits or dies, a message breaks the protocol, or a write to a tab
that has gone fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from aiohttp import WebSocketError, WSMsgType, web
from textual_serve.server import Server

from wizard.errors import UsageError
from wizard.i18n.text import msg, render
from wizard.serve import protocol
from wizard.serve.launchers import Launcher, default_launcher
from wizard.serve.pages import full_page, wizard_page
from wizard.serve.places import Places
from wizard.serve.server_log import RequestErrors, configure, one_line, reason_of
from wizard.serve.wizard_process import WizardProcess

log = logging.getLogger("verl-wizard.serve")

LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach `host` (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address


def url_for(host: str, port: int) -> str:
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


@dataclass(eq=False)  # kept in a set by identity
class Tab:
    """A connected tab: its websocket and its wizard."""

    websocket: web.WebSocketResponse
    wizard: WizardProcess


@dataclass
class WorkshopConfig:
    """What `verl-wizard serve` was asked for (commands/serve.py builds it from the command line)."""

    host: str
    port: int
    wizard_args: Sequence[str]  # every tab's wizard runs `verl-wizard` with these (tui --preset P ...)
    most: int
    lang: str = "en"
    out: Callable[[str], None] = field(default=lambda line: print(line, flush=True))
    launcher: Launcher | None = None  # launchers.py; default: the fork server where it works
    start_slots: int | None = None  # wizards building their first screen at once (None: one per CPU; 0: no limit)


class WorkshopServer(Server):
    """The server of one workshop: run() serves until Ctrl+C; serve_until_stopped() for tests and embedding."""

    def __init__(self, config: WorkshopConfig) -> None:
        super().__init__(" ".join(config.wizard_args), host=config.host, port=config.port, title="verl-wizard")
        self.config = config
        self.launcher: Launcher = config.launcher or default_launcher()
        self.places = Places(config.most)
        self.tabs: set[Tab] = set()
        self._count = 0
        # Wizards building their first screen at once: a tab waits for a slot, so that twenty tabs opened
        # together get their screens one after another instead of all of them late.
        slots = config.start_slots if config.start_slots is not None else max(1, os.cpu_count() or 1)
        self.starting = asyncio.Semaphore(slots) if slots > 0 else None
        self.bound_port: int | None = None

    def text(self, message) -> str:
        return render(message, self.config.lang)

    # -- the web application -------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.handle_index, allow_head=False),  # a HEAD must not hold a place
                web.get("/full", self.handle_full),
                web.get("/ws/{token}", self.handle_websocket),
                web.get("/download/{key}", self.handle_download),
                web.static("/static", self.statics_path),
            ]
        )
        return app

    async def handle_index(self, request: web.Request) -> web.Response:
        token = self.places.hold()
        if token is None:
            log.info("%s", self.text(msg("serve.session_refused", most=self.places.most)))
            return self._full_response()
        font_size = request.query.get("fontsize", "16")
        size = int(font_size) if font_size.isdigit() and 6 <= int(font_size) <= 48 else 16
        return web.Response(text=wizard_page(token, self.config.lang, size), content_type="text/html", headers=NO_STORE)

    async def handle_full(self, request: web.Request) -> web.Response:
        return self._full_response()

    def _full_response(self) -> web.Response:
        return web.Response(
            text=full_page(self.places.most, self.config.lang), status=503, content_type="text/html", headers=NO_STORE
        )

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=protocol.MAX_MESSAGE_BYTES)
        try:
            await websocket.prepare(request)
        except web.HTTPException as exc:  # not a websocket handshake: aiohttp answers it (400), the log says so
            reason = one_line(f"{type(exc).__name__}: {exc.text}")
            log.info("%s", self.text(msg("serve.bad_request", remote=str(request.remote), reason=reason)))
            raise
        if not self.places.take(request.match_info["token"]):
            # Held places ran out between the page and its websocket: send the tab to the full page.
            log.info("%s", self.text(msg("serve.session_refused", most=self.places.most)))
            await websocket.send_str(json.dumps(["open_url", {"url": "/full", "new_tab": False}]))
            await websocket.close()
            return websocket
        self._count += 1
        wizard = WizardProcess(
            self.config.wizard_args,
            self._count,
            self.launcher,
            lang=self.config.lang,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        tab = Tab(websocket, wizard)
        self.tabs.add(tab)
        # Whatever ends this tab (its browser, its wizard, a failure), the finally below frees its place.
        try:
            await self._start(wizard, request)
            log.info(
                "%s",
                self.text(
                    msg(
                        "serve.session_started",
                        n=wizard.number,
                        pid=wizard.pid,
                        active=self.places.taken,
                        most=self.places.most,
                    )
                ),
            )
            await self._serve_tab(websocket, wizard)
        except (asyncio.CancelledError, ConnectionError):
            pass  # the browser left, or the server is stopping
        except Exception as exc:  # noqa: BLE001 - a tab's failure must not keep its place
            log.info("%s", self.text(msg("serve.tab_failed", n=wizard.number, reason=reason_of(exc))))
        finally:
            try:
                await wizard.stop()
            finally:
                self.tabs.discard(tab)
                self.places.give_back()
                log.info(
                    "%s",
                    self.text(
                        msg("serve.session_ended", n=wizard.number, active=self.places.taken, most=self.places.most)
                    ),
                )
                with contextlib.suppress(Exception):  # the browser may be gone already
                    await websocket.close()
        return websocket

    async def _start(self, wizard: WizardProcess, request: web.Request) -> None:
        """Start the tab's wizard at the size its address asks for (clamped), in a start slot if they are limited."""
        width = protocol.query_size(request.query.get("width", ""), protocol.WIDTH, protocol.DEFAULT_WIDTH)
        height = protocol.query_size(request.query.get("height", ""), protocol.HEIGHT, protocol.DEFAULT_HEIGHT)
        starting = self.starting
        if starting is None:
            await wizard.start(width, height)
            return
        await starting.acquire()
        try:
            await wizard.start(width, height)
        finally:
            asyncio.get_running_loop().create_task(self._free_start_slot(wizard, starting))

    async def _serve_tab(self, websocket: web.WebSocketResponse, wizard: WizardProcess) -> None:
        """Pass the tab's messages to its wizard until the tab leaves or the wizard ends, whichever is first."""
        messages = asyncio.ensure_future(self._process_messages(websocket, wizard))
        reading = wizard.reading
        assert reading is not None  # _start has started the wizard, and with it the task that reads it
        try:
            await asyncio.wait([messages, reading], return_when=asyncio.FIRST_COMPLETED)
        finally:
            messages.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await messages  # raises what the messages' loop raised
        # A tab that broke the protocol (a message over the size limit, a malformed frame) is told why in one
        # line; a tab that just went away (a closed laptop) is not worth one.
        if isinstance(error := websocket.exception(), WebSocketError):
            log.info("%s", self.text(msg("serve.tab_connection_closed", n=wizard.number, reason=reason_of(error))))

    # Called by _serve_tab only, always with its own WizardProcess (textual-serve's loop, which takes any
    # AppService, is not used), so the narrower parameter type is safe.
    async def _process_messages(  # type: ignore[override]
        self, websocket: web.WebSocketResponse, wizard: WizardProcess
    ) -> None:
        """Each text message the tab sends, checked (protocol.py) and passed on; anything else is ignored."""
        ignored = 0
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            parsed = protocol.parse(message.data)
            if isinstance(parsed, protocol.Stdin):
                await wizard.send_bytes(parsed.data)
            elif isinstance(parsed, protocol.Resize):
                await wizard.set_terminal_size(parsed.width, parsed.height)
            elif isinstance(parsed, protocol.Ping):
                await websocket.send_json(["pong", parsed.data])
            elif isinstance(parsed, protocol.Focus):
                await (wizard.focus() if parsed.focused else wizard.blur())
            else:
                ignored += 1
                if ignored == 1:  # once per tab: a tab sending garbage must not flood the log
                    excerpt = one_line(repr(message.data), most=60)
                    log.info("%s", self.text(msg("serve.message_ignored", n=wizard.number, excerpt=excerpt)))

    async def _free_start_slot(self, wizard: WizardProcess, slot: asyncio.Semaphore) -> None:
        """Give the start slot back once the wizard has sent its first screen (or ended, or took too long)."""
        try:
            await wizard.painted_or_ended(START_SLOT_S)
        finally:
            slot.release()

    # -- running -------------------------------------------------------------------------------------
    async def serve_until_stopped(self, stop: asyncio.Event, ready: Callable[[int], None] | None = None) -> None:
        """Listen, announce the URL, and serve until `stop` is set; then end every wizard and close."""
        runner = web.AppRunner(
            self.make_app(),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=5,
            logger=RequestErrors(self.config.lang),  # a malformed request is one line, not a traceback
        )
        await runner.setup()
        site = web.TCPSite(runner, self.config.host, self.config.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise UsageError(
                self.text(
                    msg("serve.cannot_listen", host=self.config.host, port=self.config.port, reason=exc.strerror or exc)
                )
            ) from None
        self.bound_port = runner.addresses[0][1]
        await self.launcher.start(self.config.wizard_args)
        self.announce()
        if ready is not None:
            ready(self.bound_port)
        try:
            await stop.wait()
        finally:
            await self.end_every_tab()
            await runner.cleanup()
            await self.launcher.stop()

    def announce(self) -> None:
        host, port, out = self.config.host, self.bound_port, self.config.out
        assert port is not None  # announced once listening (serve_until_stopped)
        shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        out(self.text(msg("serve.url", url=url_for(shown, port), n=self.places.most)))
        if not is_loopback(host):
            if host in ("", "0.0.0.0", "::"):
                out(self.text(msg("serve.url_students", url=url_for(socket.gethostname(), port))))
            out(self.text(msg("serve.open_host", host=host, port=port)))
        out(self.text(msg("serve.stop")))

    async def end_every_tab(self) -> None:
        tabs = list(self.tabs)
        await asyncio.gather(*(tab.wizard.stop() for tab in tabs), return_exceptions=True)
        for tab in tabs:
            with contextlib.suppress(Exception):
                await tab.websocket.close()

    def run(self) -> None:
        """Serve until SIGINT or SIGTERM (Ctrl+C): the blocking entry of `verl-wizard serve`."""
        configure(sys.stdout)

        async def main() -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, stop.set)
            await self.serve_until_stopped(stop)

        asyncio.run(main())


START_SLOT_S = 3.0  # a wizard that has not painted by then gives its start slot back anyway
NO_STORE = {"Cache-Control": "no-store"}  # a page holds a place: never show a cached one
