"""`preflight --timeout T` ends within T seconds of being started, its own start-up included.

A port that accepts connections and never answers is the slow case: the probe child waits for a GCS reply
until it is killed at the deadline. Measured from before the process exists to after it is gone.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

from tests.cli.helpers import ROOT

TIMEOUT_S = 3


def test_a_port_that_never_answers_ends_within_the_timeout():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])  # held open, never answered
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    address = f"127.0.0.1:{server.getsockname()[1]}"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("RAY_AUTH_MODE", None)
    try:
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "wizard", "preflight", "--address", address, "--timeout", str(TIMEOUT_S)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        took = time.monotonic() - start
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        server.close()
    assert proc.returncode == 1 and "DEPLOY-013" in proc.stdout and "no Ray GCS answered" in proc.stdout, proc
    assert accepted  # the probe did reach the port
    assert took < TIMEOUT_S + 0.15, took  # the process's start counts; only fork/exec and exit come on top
