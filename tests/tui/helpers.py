"""Build the real app for Pilot and snapshot tests: fixed size, a fake topology, no real hardware."""

from __future__ import annotations

import argparse

from wizard.commands.tui import build_app


def make_app(preset: str | None = "grpo-8b-1x8", out: str = "verl-run", topology: str | None = "8xH100", lang: str = "en", answers: str | None = None):
    return build_app(argparse.Namespace(preset=preset, answers=answers, topology=topology, lang=lang, out=out))
