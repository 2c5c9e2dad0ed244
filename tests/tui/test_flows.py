"""Pilot flows through the real app: write every preset, go back and fix, cancel, refuse an overwrite,
resume from answers, switch to Chinese."""

from __future__ import annotations

from tests.tui.helpers import make_app
from wizard.i18n import set_language


async def go(pilot, step: str) -> None:
    pilot.app.goto(step)
    await pilot.pause()


async def test_back_to_batch_edit_see_finding_and_apply_its_fix(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "review")
        await go(pilot, "batch")
        row_input = app.screen.row_for("batch.ppo_mini_batch_size").input_widget
        row_input.focus()
        row_input.value = "2048"
        await pilot.pause()
        assert "BATCH-002" in {f.id for f in app.session.findings}
        assert app.session.source_of("batch.ppo_mini_batch_size") == "edited"
        panel_list = app.screen.query_one("#findings-list")
        index = next(i for i, f in enumerate(app.screen.query_one("#findings-panel").findings) if f.id == "BATCH-002")
        panel_list.focus()
        panel_list.highlighted = index
        await pilot.press("f")
        await pilot.pause()
        assert "BATCH-002" not in {f.id for f in app.session.findings}
        assert app.screen.row_for("batch.ppo_mini_batch_size").input_widget.value == "1024"
        await go(pilot, "review")
        assert not app.screen.query_one("#write").disabled


async def test_an_error_blocks_writing(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("data.train_batch_size", 100)
        await go(pilot, "review")
        assert app.screen.query_one("#write").disabled
        app.request_write()
        await pilot.pause()
    assert not (tmp_path / "o").exists()


async def test_selecting_a_finding_jumps_to_its_field(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("actor_rollout_ref.rollout.tensor_model_parallel_size", 3)
        await go(pilot, "review")
        listing = app.screen.query_one("#findings-list")
        listing.focus()
        listing.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.step == "hardware"
        assert app.focused is app.screen.row_for("rollout.tensor_parallel_size").input_widget


async def test_cancel_writes_nothing(tmp_path):
    out = tmp_path / "o"
    app = make_app("grpo-8b-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "review")
        await pilot.press("escape")
        await pilot.pause()
    assert not out.exists() and app.written == []


async def test_refusing_an_overwrite_keeps_the_old_file(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "config.yaml").write_bytes(b"# my own config\nx: 1\n")
    app = make_app("grpo-8b-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "review")
        await pilot.click("#write")
        await pilot.pause()
        assert app.screen.id == "confirm-replace"
        await pilot.click("#keep")
        await pilot.pause()
    assert (out / "config.yaml").read_bytes() == b"# my own config\nx: 1\n"
    assert not (out / "run.sh").exists()


async def test_confirming_an_overwrite_replaces(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "config.yaml").write_text("old\n")
    app = make_app("grpo-8b-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "review")
        await pilot.click("#write")
        await pilot.pause()
        await pilot.click("#replace")
        await pilot.pause()
    assert (out / "config.yaml").read_text() != "old\n" and (out / "run.sh").exists()


async def test_save_and_resume_from_an_answers_file(tmp_path):
    answers = tmp_path / "answers.yaml"
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    app.answers_path = str(answers)
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("data.train_batch_size", 512)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert "train_batch_size: 512" in answers.read_text()
    resumed = make_app(None, out=str(tmp_path / "o"), answers=str(answers))
    async with resumed.run_test(size=(120, 40)) as pilot:
        await go(pilot, "batch")
        assert resumed.screen.row_for("batch.train_batch_size").input_widget.value == "512"
        assert resumed.session.source_of("batch.train_batch_size") == "answers file"


async def test_saving_the_answers_where_nothing_can_be_written_is_said_and_the_session_goes_on(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    app.answers_path = str(blocker / "answers.yaml")  # its "folder" is a file: no one can write there
    said: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        app.notify = lambda message, **kw: said.append(str(message))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.is_running and any("cannot save the answers" in m for m in said), said


async def test_start_step_preset_choice_and_answers_loading(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.step == "start"
        listing = app.screen.query_one("#preset-list")
        names = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
        listing.focus()
        listing.highlighted = names.index("preset-workshop-0.5b-1gpu")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.value("trainer.n_gpus_per_node") == 1
        app.screen.query_one("#answers-path").value = str(tmp_path / "missing.yaml")
        await pilot.click("#load-answers")
        await pilot.pause()
        assert "no such file" in str(app.screen.query_one("#answers-status").render())


async def test_switch_to_chinese_shows_chinese_findings(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("data.train_batch_size", 100)
        await go(pilot, "start")
        app.switch_language("zh")
        await pilot.pause()
        await go(pilot, "batch")
        panel = app.screen.query_one("#findings-panel")
        title = str(panel.query_one("#findings-title").render())
        assert title == "检查结果"
        rendered = str(panel.query_one("#findings-list").get_option_at_index(0).prompt)
        assert any("\u4e00" <= ch <= "\u9fff" for ch in rendered), rendered
        assert "ppo_mini_batch_size 256 大于 train_batch_size 100" in rendered, rendered
        panel.query_one("#findings-list").focus()
        await pilot.pause()
        footer = footer_labels(app)
        assert {"下一步", "上一步", "退出"} <= footer, footer
        described = {b.description for b in (a.binding for a in app.screen.active_bindings.values())}
        assert "应用修复" in described  # the findings' keys: in the panel's key line, not the footer
        assert not footer & {"Next step", "Previous step", "Apply fix", "Fix", "Why"}, footer
        app.switch_language("en")
        await pilot.pause()
        await go(pilot, "batch")
        assert {"Next step", "Previous step"} <= footer_labels(app)


def footer_labels(app) -> set[str]:
    """The descriptions the footer shows for the current screen (and its focused widgets)."""
    return {b.description for b in (a.binding for a in app.screen.active_bindings.values()) if b.show}


async def test_f1_shows_help_for_the_focused_field(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "batch")
        app.screen.row_for("batch.rollout_n").input_widget.focus()
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen.id == "help-dialog"
        assert app.screen.title_text == "Help: Responses per prompt"  # the plain-words label
        assert "verl key: actor_rollout_ref.rollout.n" in app.screen.body


async def test_data_step_reads_local_files_when_asked(tmp_path):
    import json

    train = tmp_path / "train.jsonl"
    rows = [
        {
            "data_source": "openai/gsm8k",
            "prompt": "plain string, not a chat list",
            "reward_model": {"ground_truth": "1"},
        }
    ] * 3
    train.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("data.train_files", str(train))
        app.session.set("data.val_files", str(train))
        await go(pilot, "data")
        assert "DATA-003" not in {f.id for f in app.session.findings}  # cluster mode: not read here
        await pilot.click("#check-local")
        await pilot.pause()
        assert "DATA-003" in {f.id for f in app.session.findings}
        assert str(train) in str(app.screen.query_one("#data-report").render())


async def test_deployment_step_shows_the_fields_of_the_chosen_target(tmp_path):
    app = make_app("grpo-7b-2x8", out=str(tmp_path / "o"), topology="2x8xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "deployment")
        assert not app.screen.row_for("deploy.slurm_partition").display
        app.screen.row_for("deploy.target").input_widget.value = "slurm"
        await pilot.pause()
        assert app.session.layered.answers.deploy.target == "slurm"
        assert app.screen.row_for("deploy.slurm_partition").display
        assert "job.sbatch" in app.session.render_files()


async def test_hardware_step_shows_memory_bars_that_follow_the_gpu(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"), topology="8xH100")
    async with app.run_test(size=(140, 60)) as pilot:
        await go(pilot, "hardware")
        text = str(app.screen.query_one("#memory").render())
        assert "/80 GiB" in text and "actor" in text
        app.set_topology("8x4090-pcie")
        await pilot.pause()
        assert "/24 GiB" in str(app.screen.query_one("#memory").render())
        assert "PLACE-008" in {f.id for f in app.session.findings}


async def test_start_step_imports_an_old_launch_script(tmp_path):
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "fixtures" / "old_scripts" / "removed_keys_v02_gsm8k.sh"
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    async with app.run_test(size=(120, 40)) as pilot:
        app.screen.query_one("#script-path").value = str(script)
        app.screen.query_one("#import-script").scroll_visible(animate=False)  # below a blank start's question
        await pilot.pause()
        await pilot.click("#import-script")
        await pilot.pause()
        assert "Imported" in str(app.screen.query_one("#script-status").render())
        sources = {app.session.source_of(key) for key in app.session.layered.flat}
        assert "launch script" in sources
        assert "KEY-001" not in {f.id for f in app.session.findings}  # removed keys were carried over or dropped


async def test_the_start_step_switches_language_from_its_list_and_loads_by_keyboard(tmp_path):
    app = make_app(None, out=str(tmp_path / "o"), topology=None)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            languages = app.screen.query_one("#language")
            assert languages.get_option_at_index(languages.highlighted).id == "lang-en"
            link = app.screen.query_one("#load-answers")
            app.screen.query_one("#answers-path").value = str(tmp_path / "missing.yaml")
            link.focus()
            await pilot.press("enter")  # the action link works without a mouse
            await pilot.pause()
            assert "no such file" in str(app.screen.query_one("#answers-status").render())
            languages.focus()
            languages.highlighted = 1
            await pilot.press("enter")
            await pilot.pause()
            await pilot.pause()
            assert str(app.screen.query_one("#findings-title").render()) == "检查结果"
            languages = app.screen.query_one("#language")
            assert languages.get_option_at_index(languages.highlighted).id == "lang-zh"
    finally:
        set_language("en")


async def test_review_shows_the_install_line_and_the_targets_launch(tmp_path):
    out = tmp_path / "o"
    app = make_app("grpo-megatron-tp2pp2-1x8", out=str(out))
    async with app.run_test(size=(120, 40)) as pilot:
        await go(pilot, "review")
        text = str(app.screen.query_one("#launch-info").render())
        assert 'Install: pip install "verl[vllm,megatron]==0.9.1"' in text
        assert f"Launch: cd {out} && ./run.sh" in text
        app.session.set("deploy.target", "slurm")
        await go(pilot, "deployment")
        await go(pilot, "review")
        assert f"Launch: cd {out} && sbatch job.sbatch" in str(app.screen.query_one("#launch-info").render())


def test_the_exit_report_prints_the_launch_of_the_target():
    from wizard.core.layers import build
    from wizard.tui.exit_report import exit_report

    answers = build([("test", {"deploy.target": "kuberay-job"})]).answers
    report = exit_report(["/o/config.yaml", "/o/rayjob.yaml"], "/o", answers)
    assert report.splitlines()[-1] == "Launch: cd /o && kubectl apply -f rayjob.yaml"
    assert exit_report([], "/o", answers) == "verl-wizard: nothing written."
