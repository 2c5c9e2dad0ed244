"""A served wizard (BrowserDelivery): Review's write and ctrl+s become downloads, nothing is written on disk.

Outside a browser Textual saves a delivery in a thread (and its terminal driver cannot save bytes), so these
Pilot tests record what the app hands to deliver_binary / deliver_text; tests/serve/ has the same in a
real browser, through textual-serve.
"""

from __future__ import annotations

import io
import uuid
import zipfile

import pytest
from textual import events

from tests.cli.helpers import cli
from tests.tui.helpers import make_app
from wizard.emit.bundle import folder_name
from wizard.i18n.text import msg
from wizard.tui.delivery import BrowserDelivery, DiskDelivery, delivery_from_environment
from wizard.tui.exit_report import exit_report

FILES = ["config.yaml", "run.sh", "answers.yaml", "RUN.md"]


class Downloads:
    """Stands in for the browser: records every delivery (file name -> bytes, MIME type) and reports it done."""

    def __init__(self, app) -> None:
        self.app = app
        self.files: dict[str, bytes] = {}
        self.mime: dict[str, str] = {}
        app.deliver_binary = self.deliver
        app.deliver_text = self.deliver

    def deliver(self, file, *, save_filename, mime_type=None, name=None, encoding=None, **_):
        data = file.read()
        self.files[save_filename] = data.encode(encoding or "utf-8") if isinstance(data, str) else data
        self.mime[save_filename] = mime_type
        key = uuid.uuid4().hex
        self.app.post_message(events.DeliveryComplete(key=key, name=name))
        return key


def served_app(tmp_path, **kwargs):
    app = make_app(out=str(tmp_path / "verl-run"), **kwargs)
    app.delivery = BrowserDelivery()
    return app, Downloads(app)


async def test_review_write_delivers_a_zip_of_what_new_writes_and_writes_nothing(tmp_path):
    app, downloads = served_app(tmp_path, preset="grpo-8b-1x8", topology="8xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("review")
        await pilot.pause()
        await pilot.click("#write")
        await pilot.pause()
        status = str(app.screen.query_one("#write-status").render())
    assert "verl-run.zip" in status
    assert not (tmp_path / "verl-run").exists() and app.written == []
    assert list(downloads.files) == ["verl-run.zip"] and downloads.mime["verl-run.zip"] == "application/zip"
    assert cli("new", "--preset", "grpo-8b-1x8", "--topology", "8xH100", "--out", str(tmp_path / "new")).returncode == 0
    archive = zipfile.ZipFile(io.BytesIO(downloads.files["verl-run.zip"]))
    assert archive.namelist() == [f"verl-run/{name}" for name in FILES]
    for name in FILES:
        assert archive.read(f"verl-run/{name}") == (tmp_path / "new" / name).read_bytes(), name
    report = exit_report(app.written, str(tmp_path / "verl-run"), delivered=app.delivered)
    assert report.splitlines() == [
        str(msg("serve.exit_delivered")),
        "verl-run.zip: config.yaml, run.sh, answers.yaml, RUN.md",
        "Launch: unzip verl-run.zip && cd verl-run && ./run.sh",
    ]


async def test_an_error_blocks_the_download_too(tmp_path):
    app, downloads = served_app(tmp_path, preset="grpo-8b-1x8")
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("actor_rollout_ref.actor.ppo_mini_batch_size", 7)
        assert app.session.blocked
        app.goto("review")
        await pilot.pause()
        app.request_write()
        await pilot.pause()
    assert downloads.files == {} and app.delivered == []


async def test_ctrl_s_downloads_the_answers_instead_of_saving_them(tmp_path):
    app, downloads = served_app(tmp_path, preset="grpo-8b-1x8")
    app.answers_path = str(tmp_path / "saved.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        app.session.set("data.train_batch_size", 512)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert "train_batch_size: 512" in downloads.files["saved.yaml"].decode()
    assert not (tmp_path / "saved.yaml").exists()
    assert [d.name for d in app.delivered] == ["saved.yaml"]


async def test_quit_with_save_exits_once_the_answers_are_delivered(tmp_path):
    app, downloads = served_app(tmp_path, preset="grpo-8b-1x8")
    async with app.run_test(size=(120, 40)) as pilot:
        app.apply_edit("batch.train_batch_size", 512)  # something unsaved: quitting asks
        app.action_ask_quit()
        await pilot.pause()
        await pilot.click("#save")
        await pilot.pause()
        await pilot.pause()
        assert app._exit, "the app exits once the browser has the answers"
    assert list(downloads.files) == ["verl-wizard-answers.yaml"]
    assert not (tmp_path / "verl-wizard-answers.yaml").exists()


async def test_a_served_wizard_reads_no_files_of_the_server(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("batch:\n  train_batch_size: 512\n")
    app, _ = served_app(tmp_path, preset="grpo-8b-1x8")
    async with app.run_test(size=(120, 40)):
        before = app.session.value("data.train_batch_size")
        assert app.load_answers(str(answers)) == str(msg("serve.no_server_files"))
        assert app.import_script(str(answers)) == str(msg("serve.no_server_files"))
        assert app.session.value("data.train_batch_size") == before != 512


async def test_the_terminal_wizard_still_loads_and_saves_on_disk(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text("batch:\n  train_batch_size: 512\n")
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "out"))
    assert isinstance(app.delivery, DiskDelivery)
    async with app.run_test(size=(120, 40)) as pilot:
        app.load_answers(str(answers))
        assert app.session.value("data.train_batch_size") == 512
        app.answers_path = str(tmp_path / "saved.yaml")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert (tmp_path / "saved.yaml").exists()


def test_the_delivery_comes_from_the_environment_serve_sets():
    assert isinstance(delivery_from_environment({"VERL_WIZARD_DELIVERY": "browser"}), BrowserDelivery)
    assert isinstance(delivery_from_environment({"VERL_WIZARD_DELIVERY": "disk"}), DiskDelivery)
    assert isinstance(delivery_from_environment({}), DiskDelivery)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("verl-run", "verl-run"),
        ("runs/grpo 8b", "grpo-8b"),
        ("../../etc/passwd", "passwd"),
        ("C:\\Users\\me\\run1", "run1"),
        ("实验", "verl-run"),
        ("  ", "verl-run"),
        (".hidden/", "hidden"),
    ],
)
def test_the_zip_is_named_after_the_last_part_of_the_output_folder(typed, name):
    assert folder_name(typed) == name


async def test_served_review_shows_the_unzip_launch_and_delivers_run_md_in_the_wizards_language(tmp_path):
    """The served Review's launch line starts with the unzip of the download it names; under --lang zh the zip's
    RUN.md is Chinese prose with the same commands as `new --lang zh` writes."""
    from wizard.i18n import set_language

    app, downloads = served_app(tmp_path, preset="grpo-8b-1x8", topology="8xH100", lang="zh")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            app.goto("review")
            await pilot.pause()
            shown = str(app.screen.query_one("#launch-info").render())
            await pilot.click("#write")
            await pilot.pause()
    finally:
        set_language("en")
    assert "unzip verl-run.zip && cd verl-run && ./run.sh" in shown and f"cd {tmp_path}" not in shown
    run_md = zipfile.ZipFile(io.BytesIO(downloads.files["verl-run.zip"])).read("verl-run/RUN.md").decode()
    new = tmp_path / "new"
    args = ("new", "--preset", "grpo-8b-1x8", "--topology", "8xH100", "--lang", "zh", "--out", str(new))
    assert cli(*args).returncode == 0
    assert run_md == (new / "RUN.md").read_text() and "## 安装" in run_md and "## Install" not in run_md


async def test_review_on_disk_shows_the_folders_launch_without_an_unzip(tmp_path):
    app = make_app(out=str(tmp_path / "verl-run"), preset="grpo-8b-1x8", topology="8xH100")
    async with app.run_test(size=(120, 40)) as pilot:
        app.goto("review")
        await pilot.pause()
        shown = str(app.screen.query_one("#launch-info").render())
    assert f"cd {tmp_path / 'verl-run'} && ./run.sh" in shown and "unzip" not in shown
