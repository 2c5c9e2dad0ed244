"""Typing in Review's Output folder (issue 18 item 3): cheap per key, and Write uses the folder as typed, even
while keys are still queued."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.tui.screens import review as review_module
from wizard.tui.screens.review import ReviewScreen

WORKSHOP = "workshop-0.5b-1gpu"


async def _review(app, pilot):
    await pilot.pause()
    app.goto("review")
    await pilot.pause()
    await pilot.pause()
    return app.screen.query_one("#out-dir")


async def test_a_burst_into_the_output_folder_renders_the_files_once_after_it_settles(tmp_path, monkeypatch):
    renders = []
    original = ReviewScreen.refresh_extra
    monkeypatch.setattr(ReviewScreen, "refresh_extra", lambda self: (renders.append(1), original(self)))
    # a loaded CI machine can take longer than the real pause between two simulated keys; a long pause keeps
    # "typing has not paused yet" true for the whole burst, whatever the machine's speed
    monkeypatch.setattr(review_module, "SETTLE_S", 60.0)
    monkeypatch.chdir(tmp_path)  # a relative folder: 23 keys make the burst (each simulated key costs ~50 ms)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        field = await _review(app, pilot)
        field.focus()
        field.value = ""
        await pilot.pause()
        renders.clear()
        target = "typed-folder-0123456789"
        await pilot.press(*target[:-1])
        await pilot.pause()
        assert app.session.out_dir == target[:-1]  # the folder follows every key
        assert renders == []  # but files, states and preview are not re-rendered per key
        monkeypatch.setattr(review_module, "SETTLE_S", 0.05)
        await pilot.press(target[-1])  # the last key restarts the wait, now a short one
        for _ in range(100):
            await pilot.pause(0.05)
            if renders:
                break
        assert len(renders) == 1  # once typing pauses they are, once
        shown = str(app.screen.query_one("#launch-info").render())
        assert target in shown


async def test_write_uses_the_whole_typed_folder_even_with_keys_still_queued(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        field = await _review(app, pilot)
        target = tmp_path / "the-whole-name"
        field.value = str(target)  # its Changed message has not been handled yet
        app.request_write()
        await pilot.pause()
        assert (target / "run.sh").exists()
        assert not (tmp_path / "out").exists()


async def test_an_empty_output_folder_still_writes_to_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        field = await _review(app, pilot)
        field.value = "   "
        app.request_write()
        await pilot.pause()
        assert (tmp_path / "verl-run" / "run.sh").exists()
