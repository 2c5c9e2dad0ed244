"""Run `verl-wizard [ARGS]` headless in this (fresh) process and print, as JSON, what was loaded at the
first paint and what the screen held once the findings were shown. Used by test_startup.py."""

from __future__ import annotations

import gc
import json
import os
import sys

from textual.app import App

from wizard.cli import parse
from wizard.commands.tui import build_app

WATCH = (
    "pydantic",
    "wizard.core.answers.model",
    "wizard.core.rules",
    "wizard.commands.new",
    "wizard.commands.check",
    "yaml",
)
report: dict = {}


def _highlighted_preset(screen) -> str | None:
    if not screen.query("#preset-list"):
        return None
    listing = screen.query_one("#preset-list")
    return None if listing.highlighted is None else listing.get_option_at_index(listing.highlighted).id


def main() -> None:
    original = App._display

    def display(self, screen, renderable):
        result = original(self, screen, renderable)
        if renderable is None or screen is not self.screen or not screen.children:
            return result
        if "first_paint" not in report:
            report["first_paint"] = {
                "screen": type(screen).__name__,
                "loaded": sorted(m for m in WATCH if m in sys.modules),
                "presets": screen.query_one("#preset-list").option_count if screen.query("#preset-list") else None,
                "steps": screen.query_one("#step-nav").option_count,
                "findings_shown": screen.query_one("#findings-panel").shown_once,
                "rows": len(screen.query("FieldRow")),
                "highlighted": _highlighted_preset(screen),
                "status": str(screen.query_one("#start-status").render()) if screen.query("#start-status") else None,
            }
        panel = screen.query_one("#findings-panel")
        if panel.shown_once and "findings" not in report:
            report["findings"] = {
                "ids": [f.id for f in panel.findings],
                "session": [f.id for f in self.session.findings],
                "options": panel.query_one("#findings-list").option_count,
            }
            self.set_timer(0.2, lambda: report.update(rows=[row.field_name for row in self.screen.query("FieldRow")]))
            self.set_timer(0.3, lambda: self.exit())
        return result

    App._display = display
    app = build_app(parse(["tui", *sys.argv[1:]]), hold_gc=True)
    report["gc_held_while_building"] = not gc.isenabled()
    app.run(headless=True, size=(100, 40))
    report["gc_enabled_after"] = gc.isenabled()
    report["gc_frozen"] = gc.get_freeze_count()
    report["gc_threshold"] = list(gc.get_threshold())
    sys.stdout.write(json.dumps(report) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
