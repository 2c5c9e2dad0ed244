"""Debian's Chromium as the browser tests, the serve benchmark and the screenshot script start it.

Headless, no sandbox (CI runs as root), and none of Chromium's own network traffic: this machine's network is
closed, and Chromium's background connections would be refused many at a time. Nothing is downloaded.
"""

from __future__ import annotations

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def context_options(profile: Path | str, width: int, height: int, **more) -> dict:
    """Playwright's launch_persistent_context arguments (sync or async API) for a fresh profile folder."""
    return {
        "user_data_dir": str(profile),
        "executable_path": CHROMIUM,
        "headless": True,
        "args": CHROMIUM_FLAGS,
        "viewport": {"width": width, "height": height},
        **more,
    }
