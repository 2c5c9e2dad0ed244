"""What makes a browser tab's wizard process one (`python -m wizard.tabs child tui --preset P ...`, wizard.tabs).

It is `verl-wizard tui` with one addition: it ends when the server that started it ends, however the
server ends (a SIGKILL included), so that a stopped workshop leaves no wizard behind.
"""

from __future__ import annotations

import os
import signal
import sys

SERVER_PID = "VERL_WIZARD_SERVER_PID"  # the server's pid, set by launchers.py
PR_SET_NAME = 15  # <linux/prctl.h>
PR_SET_PDEATHSIG = 1
TAB_NAME = b"verl-wizard-tab"  # what ps and top show for a tab's wizard (15 bytes at most)
FORK_SERVER_NAME = b"verl-forkserver"


def _prctl(option: int, value) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value)


def name_process(name: bytes) -> None:
    """Name this process for ps and top (a forked wizard keeps the fork server's command line)."""
    if sys.platform.startswith("linux"):
        import ctypes

        _prctl(PR_SET_NAME, ctypes.create_string_buffer(name[:15]))


def end_with_server(environ=os.environ) -> None:
    """Ask Linux for SIGTERM when the parent ends; exit now if the parent is not environ's SERVER_PID any more.

    The parent may have ended before the request was made; then this process would never be told.
    """
    expected = environ.get(SERVER_PID)
    _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if expected and os.getppid() != int(expected):
        raise SystemExit(0)
