"""The children of bench_tui.py: each runs in a fresh process (`bench_tui.py --child start|walk|keys -- ARGS`)
and prints JSON records for the parent to tabulate. See bench_tui.py for what is measured and why.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from pathlib import Path

from benchmarks.common import profile_text, text_profiler

SIZE = (100, 40)
SETTLE_S = 0.1  # a keystroke's frames are done when none came for this long (6 ticks at 60 fps)


def _hook_first_paint(on_paint) -> None:
    """Patch App._display: render each full frame to bytes, and call on_paint(app, screen, n_bytes)."""
    from textual.app import App

    original = App._display

    def display(self, screen, renderable):
        result = original(self, screen, renderable)
        if renderable is not None and screen is self.screen:
            data = renderable.render_segments(self.console) if hasattr(renderable, "render_segments") else ""
            on_paint(self, screen, len(data))
        return result

    App._display = display


def _make_app(argv: list[str]):
    if argv[0] == "minimal":
        from textual.app import App
        from textual.widgets import Label

        class Minimal(App):
            def compose(self):
                yield Label("Hello")

        return Minimal()
    from wizard.cli import parse
    from wizard.commands.tui import build_app

    # The CLI's own parsing (wizard.cli.parse, what `verl-wizard ...` runs), then the app as `tui.run` builds it.
    args = parse(["tui", "--out", os.environ.get("BENCH_OUT", "verl-run"), *argv[1:]])
    return build_app(args, hold_gc=True)


def child_start(argv: list[str]) -> None:
    """Print {"painted_at": epoch, "cpu": s, "bytes": n, "screen": name, "findings_at": epoch, "findings_cpu": s}.

    painted: the first real frame. findings: the first frame that shows the step's findings (the same frame
    unless the app builds its session after the first paint). Exits after the latter.
    """

    phases: dict[str, float] = {}
    profiler = text_profiler()
    record: dict = {}

    def on_paint(app, screen, n_bytes):
        if not screen.children:  # the wizard's default screen is empty: wait for the step's screen
            return
        if not record:
            record.update(painted_at=time.time(), cpu=time.process_time(), bytes=n_bytes, screen=type(screen).__name__)
            if phases:
                record["phases_cpu_ms"] = dict(phases)
            if profiler:
                profiler.stop()
                Path(os.environ["BENCH_PROFILE"]).write_text(profile_text(profiler))
        panels = screen.query("#findings-panel")  # the minimal app has none
        if not panels or panels.first().shown_once or os.environ.get("BENCH_FIRST_PAINT_ONLY"):
            record.update(findings_at=time.time(), findings_cpu=time.process_time())
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()
            os._exit(0)

    _hook_first_paint(on_paint)
    before = time.process_time()
    app = _make_app(argv)
    if os.environ.get("BENCH_PHASES"):
        phases["python + textual"] = before * 1000
        phases["build app"] = (time.process_time() - before) * 1000
        _time_phases(phases, wizard=argv[0] != "minimal")
    app.run(headless=True, size=SIZE)
    os._exit(3)  # exited without painting


def child_walk(argv: list[str]) -> None:
    """Show every step in order, waiting for each one's frame; print the steps shown."""
    from wizard.tui.steps import STEPS

    painted: list[str] = []
    _hook_first_paint(lambda app, screen, n: painted.append(type(screen).__name__))
    app = _make_app(argv)

    async def walk(pilot):
        for step in STEPS:
            app.goto(step)
            await pilot.pause()
            await pilot.pause(0.05)
        app.exit()

    app.run(headless=True, size=SIZE, auto_pilot=walk)
    sys.stdout.write(json.dumps({"screens": sorted(set(painted))}) + "\n")


def child_keys(argv: list[str]) -> None:
    """Time keystrokes in the Batch step; print one JSON record per key.

    Per key: the first frame after the edit (the new findings on screen) and the last frame before the
    screen settles (no frame for SETTLE_S: the follow-up frames, e.g. the selected finding's detail,
    are done), each as wall ms and this process's CPU ms since the key press; the rules' CPU ms
    (Session.set); the number of frames. The Input's cursor does not blink, so no frame is a blink.
    Keys go in as the terminal driver hands them over, and the wait only sleeps: Pilot's press and pause
    message every widget per call (their own CPU) and pause forces frames the 60 fps timer would not paint.
    The keys alternate a backspace and a digit that cycles 0-9 (256 -> 25 -> 250 -> 25 -> 251 ...), so most
    values are new to the app: a finding's message carries the value, and toggling between two values
    would find every finding's text already rendered. BENCH_DIGIT=6 types that digit each time instead (a
    toggle, here 256 <-> 25: an error comes and goes at the top of the findings list).
    """
    import asyncio

    from textual import events

    from wizard.tui.session import Session

    state: dict = {"t0": None, "edited": 0, "rules_ms": 0.0, "frames": []}
    original_set = Session.set

    def timed_set(self, address, value):
        start = time.process_time()
        try:
            return original_set(self, address, value)
        finally:
            state["rules_ms"] += (time.process_time() - start) * 1000
            state["edited"] += 1

    Session.set = timed_set
    phases: dict[str, float] = {}
    if os.environ.get("BENCH_PHASES"):
        _time_phases(phases)

    def on_paint(app, screen, n_bytes):
        if state["t0"] is not None:
            state["frames"].append((time.perf_counter(), time.process_time(), state["edited"]))

    _hook_first_paint(on_paint)
    n_keys = int(os.environ.get("BENCH_KEYS", "40"))
    app = _make_app(argv)
    records = []

    async def settle() -> None:
        deadline = time.perf_counter() + 3.0
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.002)
            last = state["frames"][-1][0] if state["frames"] else state["t0"]
            if state["edited"] and state["frames"] and time.perf_counter() - last > SETTLE_S:
                return

    def send_key(key: str) -> None:  # what the terminal driver does with a key it read
        app._driver.process_message(events.Key(key, key if len(key) == 1 else None))

    async def type_keys(pilot):
        app.goto("batch")
        await pilot.pause(0.1)
        row = app.screen.row_for("batch.ppo_mini_batch_size")
        widget = row.input_widget
        widget.cursor_blink = False
        widget.focus()
        await pilot.pause(0.1)
        await pilot.press("end")  # focus selects the whole value; put the cursor after it
        await pilot.pause(0.2)
        for i in range(n_keys):
            key = "backspace" if i % 2 == 0 else os.environ.get("BENCH_DIGIT") or str((i // 2) % 10)
            before = [f.id for f in app.session.findings]
            if profiler:
                profiler.enable()
            phases.clear()
            state.update(t0=time.perf_counter(), cpu0=time.process_time(), edited=0, rules_ms=0.0, frames=[])
            send_key(key)
            await settle()
            if profiler:
                profiler.disable()
            after_edit = [f for f in state["frames"] if f[2]]
            if not after_edit:
                raise SystemExit(f"key {key!r}: no edit or no frame (edited={state['edited']})")
            (first_wall, first_cpu, _), (last_wall, last_cpu, _) = after_edit[0], after_edit[-1]
            records.append(
                {
                    "key": key,
                    "value": widget.value,
                    "ms": (first_wall - state["t0"]) * 1000,
                    "cpu_ms": (first_cpu - state["cpu0"]) * 1000,
                    "settled_ms": (last_wall - state["t0"]) * 1000,
                    "settled_cpu_ms": (last_cpu - state["cpu0"]) * 1000,
                    "frames": len(state["frames"]),
                    "rules_ms": state["rules_ms"],
                    "findings_changed": before != [f.id for f in app.session.findings],
                    **({"phases_cpu_ms": dict(phases)} if phases else {}),
                }
            )
        app.exit()

    profile_path = os.environ.get("BENCH_PROFILE")
    profiler = None
    if profile_path and profile_path.endswith(".txt"):
        profiler = text_profiler(start=False)
        profiler.enable, profiler.disable = profiler.start, profiler.stop
    elif profile_path:  # cProfile on CPU time, so that the machine's load does not count; pstats file
        import cProfile

        profiler = cProfile.Profile(time.process_time)
    app.run(headless=True, size=SIZE, auto_pilot=type_keys)
    if profile_path and profile_path.endswith(".txt"):
        Path(profile_path).write_text(profile_text(profiler))
    elif profiler:
        profiler.dump_stats(profile_path)
    for record in records:
        sys.stdout.write(json.dumps(record) + "\n")


def _time_phases(phases: dict[str, float], wizard: bool = True) -> None:
    """Add the CPU ms of the parts of a frame to `phases` (BENCH_PHASES=1): where the time goes.

    Each part counts only its outermost call (CSS rules apply recursively); the parts do not overlap
    except that "layout" includes the frame it renders ("render frame" is also shown on its own).
    """
    from textual.app import App
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen

    def wrap(cls, name: str, label: str) -> None:
        original = getattr(cls, name)
        depth = [0]

        def timed(*args, **kwargs):
            if depth[0]:
                return original(*args, **kwargs)
            depth[0] += 1
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1
                phases[label] = phases.get(label, 0.0) + (time.process_time() - start) * 1000

        setattr(cls, name, timed)

    for cls, name, label in [
        (Stylesheet, "apply", "css"),
        (Screen, "_refresh_layout", "layout"),
        (Screen, "_compositor_refresh", "render frame"),
        (App, "_display", "frame to bytes"),
    ]:
        wrap(cls, name, label)
    if wizard:  # wrapped as their modules load: importing them here would move their imports out of the start
        _when_imported("wizard.tui.session", lambda m: wrap(m.Session, "set", "rules"))
        _when_imported("wizard.tui.screens.base", lambda m: wrap(m.StepScreen, "refresh_view", "refresh_view"))
        _when_imported(
            "wizard.tui.widgets.findings_panel", lambda m: wrap(m.FindingsPanel, "show", "findings_panel.show")
        )
        _when_imported("wizard.tui.widgets.step_nav", lambda m: wrap(m.StepNav, "show", "step_nav.show"))


class _when_imported:
    """Call hook(module) once module `name` is imported (a finder first in sys.meta_path wraps its loading)."""

    def __init__(self, name: str, hook) -> None:
        self.name, self.hook = name, hook
        if name in sys.modules:
            hook(sys.modules[name])
        else:
            sys.meta_path.insert(0, self)

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        exec_module, hook = spec.loader.exec_module, self.hook
        spec.loader.exec_module = lambda module: (exec_module(module), hook(module))
        return spec
