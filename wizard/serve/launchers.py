"""How a tab's wizard process is started: exec'd afresh, or forked from the warm fork server (forkserver.py).

Both give an object with what wizard_process.py uses of asyncio's Process: pid, returncode, stdin (a
StreamWriter), stdout and stderr (StreamReaders), wait(), terminate(), kill().
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any, Protocol

from wizard.i18n.text import msg
from wizard.serve.child import SERVER_PID
from wizard.tui.delivery import ENVIRONMENT as DELIVERY

CHILD = [sys.executable, "-m", "wizard.tabs", "child"]
log = logging.getLogger("verl-wizard.serve")


def wizard_environment(width: int | None = None, height: int | None = None) -> dict[str, str]:
    """The environment of a tab's wizard: Textual's web driver (as textual-serve sets it), deliveries to the browser."""
    environment = dict(os.environ)
    environment.update(
        {
            "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
            "TEXTUAL_FPS": "60",
            "TEXTUAL_COLOR_SYSTEM": "truecolor",
            "TERM_PROGRAM": "textual",
            "TERM_PROGRAM_VERSION": version("textual-serve"),
            DELIVERY: "browser",
            SERVER_PID: str(os.getpid()),
        }
    )
    if width and height:
        environment.update(COLUMNS=str(width), ROWS=str(height))
    return environment


class Launcher(Protocol):
    """What the server and its tabs' wizards use of a launcher (ExecLauncher, ForkServer, a test's own)."""

    async def start(self, args: Sequence[str]) -> None:
        """Get ready to start wizards with `args` (the server has started listening)."""

    async def launch(self, args: Sequence[str], cwd: str, width: int, height: int) -> Any:
        """One wizard process: an object with what wizard_process.py uses of asyncio's Process."""

    async def stop(self) -> None:
        """The server is closing: nothing more is launched."""


class ExecLauncher:
    """Every wizard a fresh `python -m wizard.tabs child tui ...`."""

    async def start(self, args: Sequence[str]) -> None:
        pass

    async def launch(self, args: Sequence[str], cwd: str, width: int, height: int):
        return await asyncio.create_subprocess_exec(
            *CHILD,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=wizard_environment(width, height),
            cwd=cwd,
        )

    @property
    def pids(self) -> list[int]:
        return []

    async def stop(self) -> None:
        pass


class ForkedProcess:
    """A wizard forked by the fork server: not the server's child, so its end is seen through a pid fd."""

    def __init__(self, pid: int, stdin, stdout, stderr) -> None:
        self.pid = pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None  # 0 once it has ended (its status goes to the fork server)
        self._ended = asyncio.get_running_loop().create_future()
        try:
            self._pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            self._mark_ended()
            return
        asyncio.get_running_loop().add_reader(self._pidfd, self._mark_ended)

    def _mark_ended(self) -> None:
        if self.returncode is None:
            self.returncode = 0
            if hasattr(self, "_pidfd"):
                asyncio.get_running_loop().remove_reader(self._pidfd)
                os.close(self._pidfd)
            self._ended.set_result(None)

    async def wait(self) -> int:
        await asyncio.shield(self._ended)
        return 0

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The client side of forkserver.py: started once with the server, asked for one child per tab.

    Should the fork server be gone (it crashed, someone killed it), tabs' wizards are exec'd from then on.
    """

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self._socket: socket.socket | None = None
        self._lock = asyncio.Lock()
        self._fallback: ExecLauncher | None = None

    async def start(self, args: Sequence[str]) -> None:
        """Start the fork server; it warms up for `args` (the tabs' wizard arguments) while the server listens."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        environment = wizard_environment()
        environment["VERL_WIZARD_FORKSERVER_FD"] = str(theirs.fileno())
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "wizard.tabs",
            "forkserver",
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            env=environment,
            pass_fds=(theirs.fileno(),),
        )
        theirs.close()
        ours.setblocking(False)
        self._socket = ours

    @property
    def pids(self) -> list[int]:
        return [self.process.pid] if self.process and self.process.returncode is None else []

    async def launch(self, args: Sequence[str], cwd: str, width: int, height: int):
        if self._fallback is None:
            try:
                return await self._fork(args, cwd, width, height)
            except (OSError, ValueError, KeyError) as exc:
                log.warning("%s", msg("serve.fork_server_gone", reason=str(exc) or type(exc).__name__))
                self._fallback = ExecLauncher()
        return await self._fallback.launch(args, cwd, width, height)

    async def _fork(self, args: Sequence[str], cwd: str, width: int, height: int) -> ForkedProcess:
        loop = asyncio.get_running_loop()
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe()
        request = {"argv": list(args), "cwd": cwd, "env": {"COLUMNS": str(width), "ROWS": str(height)}}
        try:
            async with self._lock:  # one request and its answer at a time
                ours = self._socket
                assert ours is not None  # launch() forks only between start() and stop()
                socket.send_fds(ours, [json.dumps(request).encode()], [stdin_r, stdout_w, stderr_w])
                answer = json.loads(await loop.sock_recv(ours, 1 << 12) or b"null") or {}
        except BaseException:
            for fd in (stdin_w, stdout_r, stderr_r):
                os.close(fd)
            raise
        finally:
            for fd in (stdin_r, stdout_w, stderr_w):
                os.close(fd)
        stdin = await _writer(loop, stdin_w)
        return ForkedProcess(answer["pid"], stdin, await _reader(loop, stdout_r), await _reader(loop, stderr_r))

    async def stop(self) -> None:
        """Close the socket (the fork server exits on it) and wait for the fork server to end."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if self.process is not None and self.process.returncode is None:
            try:
                await asyncio.wait_for(self.process.wait(), 5)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


async def _reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0))
    return reader


async def _writer(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamWriter:
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", 0))
    return asyncio.StreamWriter(transport, protocol, None, loop)


def default_launcher() -> ExecLauncher | ForkServer:
    """The fork server on Linux (os.fork and pid fds), exec'd wizards elsewhere."""
    return ForkServer() if sys.platform.startswith("linux") and hasattr(os, "pidfd_open") else ExecLauncher()
