#!/usr/bin/env python3
"""PNG screenshots of `verl-wizard serve` in a real browser (Debian's Chromium), for the README's workshop section.

python scripts/serve_screenshots.py     # screenshots/serve-start.png and screenshots/serve-review.png

Starts `verl-wizard serve --preset grpo-7b-2x8 --topology 2x8xH100` on 127.0.0.1 (a free port), opens one
tab in headless Chromium, shoots the Start screen, walks to Review with ctrl+n, presses "Write files" and
shoots the tab with its download notice; then stops the server.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serve.chromium import context_options  # noqa: E402 - after the sys.path line above


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = ROOT / "screenshots"
    with tempfile.TemporaryDirectory() as scratch:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "wizard",
                "serve",
                "--port",
                "0",
                "--preset",
                "grpo-7b-2x8",
                "--topology",
                "2x8xH100",
            ],
            cwd=scratch,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            url = next(m[1] for line in server.stdout if (m := re.search(r"(http://[\w.:]+/)", line)))
            with sync_playwright() as playwright:
                context = playwright.chromium.launch_persistent_context(
                    **context_options(Path(scratch) / "profile", 1280, 800, accept_downloads=True)
                )
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("body.-first-byte")
                page.focus(".xterm-helper-textarea")  # the terminal's keyboard input
                page.wait_for_timeout(2500)  # the findings come after the first screen
                page.screenshot(path=str(out / "serve-start.png"))
                page.focus(".xterm-helper-textarea")
                for _ in range(6):
                    page.keyboard.press("Control+n")
                    page.wait_for_timeout(300)
                page.keyboard.press("Control+p")
                page.wait_for_timeout(300)
                page.keyboard.type("Write files")
                page.wait_for_timeout(500)
                page.keyboard.press("Enter")
                page.wait_for_timeout(2000)
                page.bring_to_front()
                page.screenshot(path=str(out / "serve-review.png"))
                context.close()
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
    print(f"wrote {out / 'serve-start.png'} and {out / 'serve-review.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
