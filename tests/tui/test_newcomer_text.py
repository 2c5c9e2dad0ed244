"""Issue 32 item 10 in the TUI: a served Review names the download, not an "Output folder"; a 5,000-character
model path no longer pushes the fields and findings off screen; after a rejected 0, no finding quotes the
value below it (the field shows 0, "train_batch_size 64" was about what is no longer on screen)."""

from __future__ import annotations

from textual.widgets import Label, Static

from tests.tui.helpers import edit_at_end_of, make_app
from wizard.i18n import t
from wizard.tui.delivery import BrowserDelivery
from wizard.tui.textual_compat import screen_strips


async def _settle(pilot):
    for _ in range(3):
        await pilot.pause()


def _review_label(app) -> str:
    return str(app.screen.query(".section-title").first(Label).render())


async def test_a_served_review_names_the_download(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "verl-run"))
    app.delivery = BrowserDelivery()
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("review")
        await _settle(pilot)
        assert _review_label(app) == t("review.out_zip") and ".zip" in _review_label(app)
        assert "unzip verl-run.zip" in str(app.screen.query_one("#launch-info", Static).render())


async def test_a_terminal_review_names_the_output_folder(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "verl-run"))
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("review")
        await _settle(pilot)
        assert _review_label(app) == t("review.out")


LONG = "/m/" + "a" * 4990 + "/model"


async def test_a_5000_character_model_path_leaves_the_fields_on_screen(tmp_path):
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("models")
        await _settle(pilot)
        app.apply_edit("actor_rollout_ref.model.path", LONG)
        await _settle(pilot)
        screen = app.screen
        note = screen.query_one("#reference-note")
        assert note.region.height <= 6, note.region  # it was 120 lines of a's
        label = screen.row_for("models.actor_path").query_one(".field-label")
        geometry = screen.find_widget(label)
        assert geometry.visible_region == geometry.region  # the field's label is on the first page
        painted = "\n".join(strip.text for strip in screen_strips(screen))
        assert "…" in painted and "/model" in painted  # the path's start and end, cut in its middle
        # over Linux's 255 bytes a name, no machine could open it: refused at the field, the text held whole
        assert app.session.rejected_at("models.actor_path")[0] == LONG
        assert app.session.layered.answers.models.actor_path == "Qwen/Qwen2.5-0.5B-Instruct"


async def test_a_normal_model_path_shows_whole(tmp_path):
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("models")
        await _settle(pilot)
        actor = app.session.layered.answers.models.actor_path
        assert actor in str(app.screen.query_one("#reference-note").render())


async def test_after_a_rejected_zero_no_finding_quotes_the_value_below(tmp_path):
    app = make_app("workshop-grpo-0.5b-1gpu", out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(100, 40)) as pilot:
        app.session.set("actor_rollout_ref.actor.ppo_mini_batch_size", 100)  # larger than the 64 prompts
        app.goto("batch")
        await _settle(pilot)
        ids = {f.id for f in app.session.findings}
        assert "BATCH-002" in ids  # "ppo_mini_batch_size 100 is larger than train_batch_size 64"
        widget = await edit_at_end_of(app, pilot, "batch.train_batch_size")
        widget.value = "0"
        await _settle(pilot)
        shown = app.screen.query_one("#findings-panel").findings
        assert "KEY-006" in {f.id for f in shown}
        assert not [f for f in shown if "data.train_batch_size" in f.paths and f.id != "KEY-006"]
        assert not any("64" in str(f.message) for f in shown if f.id != "KEY-006")
        widget.value = "128"  # valid again: the rules' findings about it are back
        await _settle(pilot)
        assert "KEY-006" not in {f.id for f in app.session.findings}
