"""A warm parent for the tabs' wizards: one process that has imported the wizard forks one child per tab.

Twenty tabs opened together on a 2-CPU machine would otherwise start twenty Pythons that each import
Textual, pydantic and the rules (about 0.4 s of CPU apiece) at the same moment; forked from a process that
did it once, a tab's wizard only builds its app. Each child is `verl-wizard tui` exactly as the exec'd
command would run it (the same argv, environment, folder and pipes); only the imports are inherited.

The server talks to this process over a SOCK_SEQPACKET socket: a request is one JSON packet
{"argv", "cwd", "env"} carrying three file descriptors (the child's stdin, stdout, stderr); the answer is
{"pid"}. Children are reaped here (SIGCHLD ignored); the server learns of an exit from its pid file
descriptor. Linux only (fork after imports is unsafe on macOS); elsewhere every tab's wizard is exec'd.

What a child runs and how the parent warms up are given by the process's entry (wizard.tabs, a door over the
CLI): this module knows processes and sockets, not the commands.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import socket
import sys
from collections.abc import Callable

from wizard.serve.child import FORK_SERVER_NAME, SERVER_PID, TAB_NAME, end_with_server, name_process

CONTROL_FD = "VERL_WIZARD_FORKSERVER_FD"


def serve(control: socket.socket, run: Callable[[list[str]], int]) -> None:
    """Fork a wizard per request until the server closes the socket; `run(argv)` is the wizard's main."""
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    me = str(os.getpid())
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 3)
        except ConnectionResetError:
            return
        if not data:
            return
        request = json.loads(data)
        pid = os.fork()
        if pid == 0:
            control.close()
            become_wizard(request, fds, me, run)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"pid": pid}).encode())


def become_wizard(request: dict, fds: list[int], parent: str, run: Callable[[list[str]], int]) -> None:
    """In the forked child: take the tab's pipes, folder and environment, run the wizard, exit."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.update(request["env"])
        end_with_server({SERVER_PID: parent})  # a fork does not keep the death signal: ask again, of this parent
        name_process(TAB_NAME)
        code = run(request["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - the traceback goes to the tab's stderr, the server logs it
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # the tab's pipe is closed
                stream.flush()
        os._exit(code)


def main(args: list[str], warm: Callable[[list[str]], None], run: Callable[[list[str]], int]) -> None:
    """The fork server's life: `warm(args)` (args: the tabs' wizard arguments, tui --preset P ...), then fork a
    wizard that runs `run(argv)` on each request."""
    end_with_server()
    name_process(FORK_SERVER_NAME)
    control = socket.socket(fileno=int(os.environ.pop(CONTROL_FD)))
    warm(args)
    # What the imports built lives as long as every child: keep the collector off it (fewer copied pages).
    gc.collect()
    gc.freeze()
    serve(control, run)
