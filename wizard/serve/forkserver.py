"""A warm parent for the tabs' wizards: one process that has imported the wizard forks one child per tab.

Twenty tabs opened together on a 2-CPU machine would otherwise start twenty Pythons that each import
Textual, pydantic and the rules (about 0.4 s of CPU apiece) at the same moment; forked from a process that
did it once, a tab's wizard only builds its app. Each child is `verl-wizard tui` exactly as the exec'd
command would run it (the same argv, environment, folder and pipes); only the imports are inherited.

The server talks to this process over a SOCK_SEQPACKET socket: a request is one JSON packet
{"argv", "cwd", "env"} carrying three file descriptors (the child's stdin, stdout, stderr); the answer is
{"pid"}. Children are reaped here (SIGCHLD ignored); the server learns of an exit from its pid file
descriptor. Linux only (fork after imports is unsafe on macOS); elsewhere every tab's wizard is exec'd.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import socket
import sys

CONTROL_FD = "VERL_WIZARD_FORKSERVER_FD"
WARM_MODULES = (
    "wizard.cli",
    "wizard.commands.tui",
    "wizard.tui.app",
    "wizard.tui.session",
    "wizard.tui.delivery",
    "wizard.tui.screens.start",
    "wizard.tui.screens.models",
    "wizard.tui.screens.data",
    "wizard.tui.screens.batch",
    "wizard.tui.screens.hardware",
    "wizard.tui.screens.deployment",
    "wizard.tui.screens.review",
    "wizard.core.presets",
    "wizard.core.rules",
    "wizard.emit.artifacts",
    "wizard.emit.bundle",
    "wizard.detect.hardware.source",
    "textual.drivers.web_driver",
)


def warm(args: list[str]) -> None:
    """Import what every wizard imports and fill the caches its first screens fill, so that children share them.

    `args` are the tabs' wizard arguments (tui --preset P ...): the same app is built once here (never run),
    its session evaluated and its files rendered, which loads verl's key tree, the presets and the rules.
    """
    import importlib

    for name in WARM_MODULES:
        importlib.import_module(name)
    from wizard.cli import parse
    from wizard.commands.tui import build_app
    from wizard.errors import UsageError

    try:
        app = build_app(parse(args))
        session = app.session
        session.findings  # noqa: B018 - evaluates the rules
        session.render_files()
    except UsageError:
        pass  # the tabs' wizards say it themselves; serve checked the options already


def serve(control: socket.socket) -> None:
    """Fork a wizard per request until the server closes the socket."""
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
            become_wizard(request, fds, me)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"pid": pid}).encode())


def become_wizard(request: dict, fds: list[int], parent: str) -> None:
    """In the forked child: take the tab's pipes, folder and environment, run the wizard, exit."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.update(request["env"])
        from wizard.serve.child import SERVER_PID, TAB_NAME, end_with_server, name_process

        end_with_server({SERVER_PID: parent})  # a fork does not keep the death signal: ask again, of this parent
        name_process(TAB_NAME)
        from wizard.cli import main

        code = main(request["argv"])
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


def main() -> None:
    """`python -m wizard.serve.forkserver tui --preset P ...`: warm up for these arguments, then fork on request."""
    from wizard.serve.child import FORK_SERVER_NAME, end_with_server, name_process

    end_with_server()
    name_process(FORK_SERVER_NAME)
    control = socket.socket(fileno=int(os.environ.pop(CONTROL_FD)))
    warm(sys.argv[1:])
    # What the imports built lives as long as every child: keep the collector off it (fewer copied pages).
    gc.collect()
    gc.freeze()
    serve(control)


if __name__ == "__main__":
    main()
