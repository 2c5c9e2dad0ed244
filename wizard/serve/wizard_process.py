"""One wizard process for one browser tab, spoken to with textual-serve's protocol.

textual-serve's AppService does the talking (keys and sizes in, screen bytes and downloads out); this
subclass changes how the process starts and ends:

- started by a launcher (launchers.py: forked from the warm fork server, or exec'd), never through a shell
  (the teacher's paths need no quoting), in an empty folder of its own that is removed when it ends, so
  that nothing a student does lands in the teacher's folders;
- its stderr (the wizard's exit report: what it delivered) goes to the server's log, line by line, named;
- stop() never hangs: the wizard is asked to quit, then terminated, then killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import tempfile
from collections.abc import Sequence

from textual_serve.app_service import AppService

from wizard.i18n.text import msg, render
from wizard.serve.launchers import Launcher
from wizard.serve.server_log import reason_of

log = logging.getLogger("verl-wizard.serve")

QUIT_WAIT_S = 5.0  # a wizard asked to quit has this long before it is terminated
TERM_WAIT_S = 2.0  # ... and then this long before it is killed
PRELUDE = b"__GANGLION__\n"  # what Textual's web driver prints before its first packet
SCREEN_BYTES = 1024  # a screen's worth of output: the web driver's set-up sequences before it are shorter


class WizardProcess(AppService):
    """A wizard process for one tab: `args` are the wizard's arguments (tui --preset P ...)."""

    def __init__(self, args: Sequence[str], number: int, launcher: Launcher, lang: str = "en", **service) -> None:
        super().__init__(" ".join(args), **service)
        self.args = list(args)
        self.number = number
        self.launcher = launcher
        self.lang = lang
        self.workdir: str | None = None
        self.stderr_lines: list[str] = []
        self._stop_lock = asyncio.Lock()
        self.first_screen = asyncio.Event()  # set once the wizard has sent a screen's worth of output

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    @property
    def reading(self) -> asyncio.Task | None:
        """The task that reads the wizard's output (run()); it ends when the wizard ends, however it ends."""
        return self._task

    async def _open_app_process(self, width: int = 80, height: int = 24):
        self.workdir = tempfile.mkdtemp(prefix="verl-wizard-tab-")
        self._process = process = await self.launcher.launch(self.args, self.workdir, width, height)
        self._stdin = process.stdin
        return process

    async def run(self) -> None:
        """Read the wizard's packets until it ends; its stderr is logged meanwhile."""
        process = self._process
        assert process is not None and process.stdout is not None
        stderr_task = asyncio.create_task(self._log_stderr())
        stdout = process.stdout
        handlers = {b"D": self.on_data, b"M": self.on_meta, b"P": self.on_packed}
        try:
            while (line := await stdout.readline()) and line != PRELUDE:
                pass  # anything printed before the web driver starts is not screen output
            while line:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                handler = handlers.get(kind)
                if handler is not None:
                    await handler(payload)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # the wizard ended, or its tab left (a send to a closed websocket)
        except Exception as exc:  # noqa: BLE001 - output the server cannot pass on ends the tab, in one log line
            log.info("%s", render(msg("serve.wizard_output_failed", n=self.number, reason=reason_of(exc)), self.lang))
        finally:
            with contextlib.suppress(asyncio.CancelledError):
                await stderr_task

    async def on_data(self, payload: bytes) -> None:
        if len(payload) >= SCREEN_BYTES:
            self.first_screen.set()
        await super().on_data(payload)

    async def painted_or_ended(self, timeout: float) -> None:
        """Return once the wizard has sent its first screen, or has ended, or after `timeout` seconds."""
        painted = asyncio.ensure_future(self.first_screen.wait())
        waits = [painted] + ([self._task] if self._task is not None else [])
        try:
            await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            painted.cancel()

    async def _log_stderr(self) -> None:
        # started by _open_app_process once the process is open, with its stderr a pipe
        assert self._process is not None and self._process.stderr is not None
        stderr = self._process.stderr
        while line := await stderr.readline():
            text = line.decode("utf-8", "replace").rstrip()
            self.stderr_lines.append(text)
            log.info("%s", render(msg("serve.wizard_says", n=self.number, line=text), self.lang))

    async def stop(self) -> None:
        """End the wizard (asked, then terminated, then killed) and remove its folder; safe to call twice."""
        async with self._stop_lock:
            process = self._process
            if process is not None and process.returncode is None:
                with contextlib.suppress(Exception):  # a download whose tab has gone
                    await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
                with contextlib.suppress(Exception):  # a pipe that is already closed
                    await self.send_meta({"type": "quit"})
                await self._wait_or(process.terminate, QUIT_WAIT_S)
                await self._wait_or(process.kill, TERM_WAIT_S)
                await process.wait()
            if self._task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
                self._task = None
            if self.workdir:
                shutil.rmtree(self.workdir, ignore_errors=True)
                self.workdir = None

    async def _wait_or(self, then, seconds: float) -> None:
        process = self._process
        assert process is not None  # stop() calls this only for a process it has
        if process.returncode is not None:
            return
        try:
            await asyncio.wait_for(process.wait(), seconds)
        except asyncio.TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                then()
