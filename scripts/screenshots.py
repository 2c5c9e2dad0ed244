#!/usr/bin/env python3
"""Write an SVG of every step of the real app into screenshots/ (the README shows the main ones).

python scripts/screenshots.py            # 120x40, grpo-8b-1x8 on a fake 8xH100, plus an error state
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.commands.tui import build_app  # noqa: E402
from wizard.tui.steps import STEPS  # noqa: E402

SHOTS = [(step, {}, "en") for step in STEPS] + [
    ("batch", {"data.train_batch_size": 1000, "actor_rollout_ref.actor.ppo_mini_batch_size": 2048}, "en"),
    ("batch", {"data.train_batch_size": 1000, "actor_rollout_ref.actor.ppo_mini_batch_size": 2048}, "zh"),
]
# The question ctrl+q asks over the Batch step after an edit (save / discard / stay), in both languages.
QUIT_SHOTS = ["en", "zh"]


async def shoot(step: str, edits: dict, lang: str, out: Path, size=(120, 40)) -> Path:
    app = build_app(
        argparse.Namespace(preset="grpo-8b-1x8", answers=None, topology="8xH100", lang=lang, out="verl-run")
    )
    async with app.run_test(size=size) as pilot:
        for address, value in edits.items():
            app.session.set(address, value)
        app.goto(step)
        await pilot.pause()
        app.screen.refresh_view()
        await pilot.pause()
        name = f"{STEPS.index(step) + 1}-{step}{'-error' if edits else ''}{'-' + lang if lang != 'en' else ''}.svg"
        app.save_screenshot(filename=name, path=str(out))
    from wizard.i18n import set_language

    set_language("en")
    return out / name


async def shoot_quit_question(lang: str, out: Path, size=(120, 40)) -> Path:
    app = build_app(
        argparse.Namespace(preset="grpo-8b-1x8", answers=None, topology="8xH100", lang=lang, out="verl-run")
    )
    async with app.run_test(size=size) as pilot:
        app.goto("batch")
        await pilot.pause()
        app.apply_edit("data.train_batch_size", 128)  # an unsaved edit, as typing it would make
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
        name = f"quit-question{'-' + lang if lang != 'en' else ''}.svg"
        app.save_screenshot(filename=name, path=str(out))
    from wizard.i18n import set_language

    set_language("en")
    return out / name


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(exist_ok=True)
    for step, edits, lang in SHOTS:
        print("wrote", await shoot(step, edits, lang, args.out))
    for lang in QUIT_SHOTS:
        print("wrote", await shoot_quit_question(lang, args.out))


if __name__ == "__main__":
    asyncio.run(main())
