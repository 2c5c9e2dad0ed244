"""A private tmux server for the tests that drive the installed wizard in a real terminal.

Every test process gets its own socket, so a developer's tmux (or `tui-drive`) never shares the tests'
server, and the server is told not to exit when its last session ends: with tmux's default, a test that
kills the last session makes the server shut down while the next test's `new-session` is already talking
to it, and that new session fails with "server exited unexpectedly" (seen once in a CI run under load).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import time

SOCKET = f"verl-wizard-tests-{os.getpid()}"
_BASE = ["tmux", "-L", SOCKET, "-f", "/dev/null"]
_started = False


def tmux(*args: str) -> str:
    """Run one tmux command on the tests' server and return what it printed; a failure raises."""
    return subprocess.run([*_BASE, *args], capture_output=True, text=True, check=True).stdout


def _start_server() -> None:
    global _started
    if _started:
        return
    subprocess.run(
        [*_BASE, "start-server", ";", "set-option", "-s", "exit-empty", "off"], capture_output=True, check=True
    )
    atexit.register(subprocess.run, [*_BASE, "kill-server"], capture_output=True, check=False)
    _started = True


def new_session(session: str, width: int, height: int, script: str) -> None:
    """Start `script` in a detached session of `width` x `height` cells on the tests' server."""
    _start_server()
    tmux("new-session", "-d", "-s", session, "-x", str(width), "-y", str(height), script)


def kill_session(session: str) -> None:
    """End a session whether or not it still runs; the server stays up for the next test."""
    subprocess.run([*_BASE, "kill-session", "-t", session], capture_output=True, check=False)


def wait_for(session: str, text: str, timeout: float = 60) -> str:
    """The session's screen once it shows `text`; an assertion naming the last screen after `timeout` s."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.3)
    raise AssertionError(f"{text!r} did not appear; the screen was:\n{screen}")
