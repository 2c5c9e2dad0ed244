"""The TUI runs the same rules as `new`: a two-node preset on the default target local is a warning (DEPLOY-017;
RUN.md starts the cluster), its fix is one key, and the Chinese interface says it in Chinese."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.i18n.text import render


async def test_two_node_preset_on_local_warns_and_a_target_fix_is_one_key(tmp_path):
    app = make_app("grpo-7b-2x8", out=str(tmp_path / "o"), topology="2x8xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("review")
        await pilot.pause()
        assert "DEPLOY-017" in {f.id for f in app.session.findings if f.severity.value == "warning"}
        assert not app.screen.query_one("#write").disabled  # a warning: RUN.md says how to start the cluster
        panel = app.screen.query_one("#findings-panel")
        index = next(i for i, f in enumerate(panel.findings) if f.id == "DEPLOY-017")
        listing = app.screen.query_one("#findings-list")
        listing.focus()
        listing.highlighted = index
        await pilot.press("2")  # the second fix: a Slurm job over the two nodes
        await pilot.pause()
        assert app.session.layered.answers.deploy.target == "slurm"
        assert "DEPLOY-017" not in {f.id for f in app.session.findings}
        app.goto("review")
        await pilot.pause()
        assert not app.screen.query_one("#write").disabled


async def test_the_chinese_interface_says_it_in_chinese(tmp_path):
    app = make_app("grpo-7b-2x8", out=str(tmp_path / "o"), topology="2x8xH100", lang="zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        finding = next(f for f in app.session.findings if f.id == "DEPLOY-017")
        assert "2 个节点" in render(finding.message, "zh") and "slurm" in render(finding.message, "zh")
