"""Start: a preset or blank, an answers file to resume, the language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from wizard.i18n import LANGUAGES, language, t
from wizard.tui.preset_list import preset_summaries
from wizard.tui.screens.base import StepScreen


class StartScreen(StepScreen):
    STEP = "start"

    def compose_top(self) -> ComposeResult:
        yield Label(t("start.preset"), classes="section-title")
        options = [Option(t("start.blank"), id="preset-")]
        for preset in preset_summaries():
            options.append(Option(f"{preset.name}  ({preset.nnodes}x{preset.n_gpus_per_node} GPUs)\n  {preset.description}", id=f"preset-{preset.name}"))
        yield OptionList(*options, id="preset-list")
        yield Label(t("start.answers"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield Input(placeholder="answers.yaml", id="answers-path")
            yield Button(t("start.load"), id="load-answers")
        yield Label(t("start.script"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield Input(placeholder="run_grpo.sh", id="script-path")
            yield Button(t("start.import"), id="import-script")
        yield Label("", id="start-status")
        yield Label(t("start.language"), classes="section-title")
        yield Select([("English", "en"), ("中文", "zh")], value=language(), allow_blank=False, id="language")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id != "preset-list":
            return
        event.stop()
        name = event.option.id.removeprefix("preset-") or None
        self.app.choose_preset(name)
        self.query_one("#start-status", Label).update(t("start.loaded", what=name or t("start.blank")))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "import-script":
            path = self.query_one("#script-path", Input).value.strip()
            self.query_one("#start-status", Label).update(self.app.import_script(path))
        if event.button.id == "load-answers":
            path = self.query_one("#answers-path", Input).value.strip()
            message = self.app.load_answers(path)
            self.query_one("#start-status", Label).update(message)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "answers-path":
            self.query_one("#start-status", Label).update(self.app.load_answers(event.value.strip()))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "language" and event.value in LANGUAGES and event.value != language():
            event.stop()
            self.app.switch_language(event.value)
