"""Issue 18b through the real app: what the screen shows is what is written, and what is missing is said."""

from __future__ import annotations

import pytest

from tests.tui.helpers import make_app
from wizard.i18n import set_language


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    set_language("en")


def ids(app) -> set[str]:
    return {f.id for f in app.session.findings}


async def test_wandb_logger_without_the_key_is_a_warning_at_the_logger(tmp_path, monkeypatch):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))  # logs to console and wandb (verl's default)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        found = [f for f in app.session.findings if f.id == "DEPLOY-016"]
        assert found and found[0].severity.value == "warning" and list(found[0].paths) == ["trainer.logger"]
    monkeypatch.setenv("WANDB_API_KEY", "x")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "DEPLOY-016" not in ids(app)


@pytest.mark.parametrize("preset", ["workshop-0.5b-1gpu", "workshop-grpo-0.5b-1gpu"])
async def test_workshop_presets_log_to_the_console_so_run_sh_needs_no_key(tmp_path, monkeypatch, preset):
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    app = make_app(preset, out=str(tmp_path / "o"), topology="1xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "DEPLOY-016" not in ids(app) and app.session.value("trainer.logger") in ("console", ["console"])
