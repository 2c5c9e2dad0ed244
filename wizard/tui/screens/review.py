"""Review: every finding, the files to be written with a highlighted preview, a diff against what is there."""

from __future__ import annotations

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from wizard.emit.install import install_for
from wizard.emit.launch import doctor_line, launch_line, unzip_launch_line
from wizard.i18n import t
from wizard.tui.clip import FOLD_MARK, fold_lines
from wizard.tui.finding_lines import finding_lines
from wizard.tui.screens.base import StepScreen
from wizard.tui.verl_run import ask_verl, short_name
from wizard.tui.widgets.ordered_input import OrderedInput

SETTLE_S = 0.25  # the files, their states and the preview re-render once typing in the folder pauses this long

MIN_FOLD = len(FOLD_MARK) + 10  # narrower than this the box is not laid out yet: fold_lines leaves the text
LEXER = {".yaml": "yaml", ".sh": "bash", ".md": "markdown", ".sbatch": "bash"}


def lexer_for(name: str) -> str:
    return next((lexer for suffix, lexer in LEXER.items() if name.endswith(suffix)), "text")


class ReviewScreen(StepScreen):
    STEP = "review"

    class WriteRequested(Message):
        """Write the files into the folder the field names (a served wizard: send them as a download)."""

    _settle = None
    _previewed: int | None = None
    _shown_files: dict | None = None  # the files the status line's word (written, kept) is about

    def compose_top(self) -> ComposeResult:
        # a served wizard writes nothing on disk: the field names the download and the folder inside it
        yield Label(t("review.out_zip" if self.app.delivery.to_browser else "review.out"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield OrderedInput(self.session.out_dir, id="out-dir")
            yield Button(t("review.write"), id="write", variant="primary")
        yield Label("", id="write-status")
        yield Static("", id="launch-info")
        with Vertical(id="doctor-row"):  # the status under the button: beside it, a Chinese line was cut at 80 columns
            yield Button(t("review.doctor_run"), id="doctor-run")
            yield Label("", id="doctor-status")
        yield Static("", id="doctor-findings")
        if self.app.verl is not None:  # `tui --verl PYTHON`: that verl's verdict on the config.yaml shown below
            with Vertical(id="verl-row"):
                yield Button(t("review.verl_run", python=short_name(self.app.verl[0])), id="verl-run")
                yield Label("", id="verl-status")
            yield Static("", id="verl-findings")
        yield Label(t("review.files"), classes="section-title")
        yield OptionList(id="file-list")
        with ScrollableContainer(id="preview-box"):  # long lines scroll here: a wrapped comment would read as a key
            yield Static("", id="preview")

    def refresh_extra(self) -> None:
        session = self.session
        blocked = session.blocked
        self.query_one("#write", Button).disabled = blocked
        status = self.query_one("#write-status", Label)
        status.set_class(blocked, "-error")
        if blocked:
            status.update(t("review.blocked", n=len(session.errors())))
        else:
            if "-done" in status.classes and session.render_files() != self._shown_files:
                status.remove_class("-done")  # "Wrote 5 files" was about other files (a target switched since)
            if "-done" not in status.classes:
                status.update("")
        self.query_one("#launch-info", Static).update(self._launch_text())
        files = self.query_one("#file-list", OptionList)
        keep = files.highlighted or 0
        files.clear_options()
        for name, state in session.file_states().items():
            label = {"new": t("review.new"), "same": t("review.same"), "changed": t("review.changed")}[state]
            files.add_option(Option(f"{name:<14} {label}", id=f"file-{name}"))
        files.highlighted = min(keep, files.option_count - 1)
        self._preview(files.highlighted)

    def _launch_text(self) -> Text:
        """The install line and the launch command for the target (the same as RUN.md and `new` print)."""
        answers = self.session.layered.answers
        # a served wizard's files arrive as a zip download: its launch starts with the unzip
        launch = unzip_launch_line if self.app.delivery.to_browser else launch_line
        lines = (
            t("review.install", line=install_for(answers).line),
            t("review.launch", command=launch(answers, self.session.out_dir)),
            t("review.doctor", command=doctor_line(answers, self.session.out_dir)),
        )
        return Text("\n".join(lines))  # plain text: verl[vllm,fsdp] is not markup

    def _preview(self, index) -> None:
        names = list(self.session.render_files())
        if index is None or index >= len(names):
            return
        name = names[index]
        state = self.session.file_states()[name]
        code, lexer = (
            (self.session.diff(name), "diff")
            if state == "changed"
            else (self.session.render_files()[name], lexer_for(name))
        )
        # Folded to the box with a mark on each continued line: cut at the box's edge, a line's end was out of
        # sight (the box is about 38 cells wide at 80 columns), and a plain wrap made a comment read as a key.
        width = self.query_one("#preview-box").scrollable_content_region.width
        self.query_one("#preview", Static).update(fold_lines(Syntax(code, lexer).highlight(code), width))
        self._previewed = index
        if width < MIN_FOLD:  # not laid out yet: fold once it is
            self.call_after_refresh(self._refold)

    def _refold(self) -> None:
        if self.query_one("#preview-box").scrollable_content_region.width >= MIN_FOLD:
            self._preview(self._previewed)

    def on_resize(self) -> None:
        self.call_after_refresh(self._refold)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "file-list":
            self._preview(event.option_index)

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "out-dir":
            event.stop()
            # per key only the folder changes; rendering every file and reading the disk per key let a burst
            # fall behind the screen, so a Write pressed meanwhile looked like it took a prefix
            self.session.out_dir = event.value.strip() or "verl-run"
            self.query_one("#write-status", Label).remove_class("-done")
            if self._settle is not None:
                self._settle.stop()
            self._settle = self.set_timer(SETTLE_S, self._settled)

    def _settled(self) -> None:
        self._settle = None
        self.refresh_extra()

    def take_typed_folder(self) -> None:
        """Write's folder is the field's whole current value, even while its Changed messages are queued."""
        self.session.out_dir = self.query_one("#out-dir", Input).value.strip() or "verl-run"

    def on_mount(self) -> None:
        # a served wizard runs on the workshop's server: its environment is not the student's machine
        self.query_one("#doctor-row").display = not self.app.delivery.to_browser
        for row in self.query("#verl-row, #verl-findings"):  # verl on the server is not the student's either
            row.display = not self.app.delivery.to_browser

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "write":
            self.post_message(self.WriteRequested())
        elif event.button.id == "doctor-run":
            event.button.disabled = True
            self.query_one("#doctor-status", Label).update(t("review.doctor_running"))
            self.run_worker(self._doctor, thread=True, exclusive=True, group="doctor")
        elif event.button.id == "verl-run":
            event.button.disabled = True
            self.query_one("#verl-status", Label).update(t("review.verl_running"))
            self.query_one("#verl-findings", Static).update("")  # the last answer was about another config
            # the question is the file a write gives now, taken here: edits made while verl works do not change it
            config_text = self.session.render_files()["config.yaml"]
            self.run_worker(lambda: self._ask_verl(config_text), thread=True, exclusive=True, group="verl")

    def _doctor(self) -> None:
        """doctor on this machine for the run on screen (a thread: the probe is a child process with a deadline)."""
        from wizard.tui.doctor_run import doctor_here, doctor_summary  # packaging loads on first use

        findings = doctor_here(self.session.layered)
        self.app.call_from_thread(self._show_doctor, doctor_summary(findings), finding_lines(findings))

    def _show_doctor(self, summary: str, lines: list[str]) -> None:
        self.query_one("#doctor-run", Button).disabled = False
        self.query_one("#doctor-status", Label).update(summary)
        self.query_one("#doctor-findings", Static).update(Text("\n".join(lines)))

    def _ask_verl(self, config_text: str) -> None:
        """The verl of `tui --verl` on this config.yaml (a thread: verl's import and compose run in a child)."""
        assert self.app.verl is not None  # the button is there only when the app was given a verl
        python, deadline_s = self.app.verl
        summary, lines = ask_verl(python, deadline_s, config_text)
        self.app.call_from_thread(self._show_verl, summary, lines)

    def _show_verl(self, summary: str, lines: list[str]) -> None:
        self.query_one("#verl-run", Button).disabled = False
        self.query_one("#verl-status", Label).update(summary)
        self.query_one("#verl-findings", Static).update(Text("\n".join(lines)))

    def show_written(self, message: str) -> None:
        """Say what Write did (written, delivered, or nothing); it stays while the files are these."""
        self._shown_files = self.session.render_files()
        status = self.query_one("#write-status", Label)
        status.add_class("-done")
        status.update(message)
        self.refresh_extra()
