"""Start: a preset or blank, an answers file to resume, the language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from wizard.i18n import LANGUAGES, language, preset_description, t
from wizard.i18n.text import render
from wizard.tui.messages import StepRequested
from wizard.tui.preset_list import preset_summaries
from wizard.tui.screens.base import StepScreen
from wizard.tui.widgets.action_link import ActionLink
from wizard.tui.widgets.ordered_input import OrderedInput

LANGUAGE_NAMES = {"en": "English", "zh": "中文"}  # each in its own language
GOALS = ("workshop", "cluster", "script")  # a blank start's question: a first run, my cluster, a script I have
FIRST_RUN_PRESET = "workshop-grpo-0.5b-1gpu"


class StartScreen(StepScreen):
    STEP = "start"

    class PresetChosen(Message):
        """Start from this preset (None: blank); the edits so far go."""

        def __init__(self, name: str | None) -> None:
            super().__init__()
            self.name = name

    class LanguageChosen(Message):
        """Show the wizard in this language ("en", "zh")."""

        def __init__(self, lang: str) -> None:
            super().__init__()
            self.lang = lang

    class AnswersRequested(Message):
        """Resume from the answers file at `path`; the app answers with `show_answers_status`."""

        def __init__(self, start: StartScreen, path: str) -> None:
            super().__init__()
            self.start = start
            self.path = path

    class ScriptRequested(Message):
        """Import the launch script at `path` (with its --env and arguments); the app answers with
        `show_script_status`."""

        def __init__(self, start: StartScreen, path: str) -> None:
            super().__init__()
            self.start = start
            self.path = path

    def compose_top(self) -> ComposeResult:
        # Above the list: what the command line loaded, or the preset picked.
        yield Label(self._chosen_text(), id="start-status")
        if not (self.app.chosen.get("preset") or self.app.chosen.get("answers")):
            # A blank start asks what the user wants first: someone new to verl does not know the presets.
            yield Label(t("start.goal"), classes="section-title")
            yield OptionList(*[Option(t(f"start.goal.{goal}"), id=f"goal-{goal}") for goal in GOALS], id="goal-list")
        yield Label(t("start.preset"), classes="section-title")
        options = [Option(t("start.blank"), id="preset-")]
        for preset in preset_summaries():
            options.append(
                Option(
                    f"{preset.name}  {t('start.gpus', nodes=preset.nnodes, gpus=preset.n_gpus_per_node)}\n"
                    f"  {preset_description(preset.name, preset.description)}",
                    id=f"preset-{preset.name}",
                )
            )
        yield OptionList(*options, id="preset-list")
        yield Label(t("start.answers"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield OrderedInput(placeholder="answers.yaml", id="answers-path")
            yield ActionLink(t("start.load"), id="load-answers", classes="action-link")
        yield Label("", id="answers-status")  # the outcome of Load, right under it
        yield Label(t("start.script"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield OrderedInput(placeholder="run_grpo.sh", id="script-path")
            yield ActionLink(t("start.import"), id="import-script", classes="action-link")
        yield Label("", id="script-status")  # the outcome of Import, right under it
        yield Label(t("start.language"), classes="section-title")
        yield OptionList(*[Option(name, id=f"lang-{code}") for code, name in LANGUAGE_NAMES.items()], id="language")

    def _chosen_text(self) -> str:
        """What the command line loaded (--preset, --answers, --topology), or nothing."""
        chosen = self.app.chosen
        parts = [value for value in (chosen.get("preset"), chosen.get("answers")) if value]
        if chosen.get("topology"):
            parts.append(t("start.topology", what=chosen["topology"]))
        return t("start.loaded", what=", ".join(parts)) + " · " + t("start.next") if parts else ""

    def on_mount(self) -> None:
        super().on_mount()
        preset = self.app.chosen.get("preset")
        if preset:
            listing = self.query_one("#preset-list", OptionList)
            ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
            if f"preset-{preset}" in ids:
                listing.highlighted = ids.index(f"preset-{preset}")
        self.query_one("#language", OptionList).highlighted = list(LANGUAGE_NAMES).index(language())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""  # every option of this step's lists has an id
        if event.option_list.id == "goal-list":
            event.stop()
            self._take_goal(option_id.removeprefix("goal-"))
            return
        if event.option_list.id == "language":
            event.stop()
            chosen = option_id.removeprefix("lang-")
            if chosen in LANGUAGES and chosen != language():
                self.post_message(self.LanguageChosen(chosen))
            return
        if event.option_list.id != "preset-list":
            return
        event.stop()
        name = option_id.removeprefix("preset-") or None
        self.post_message(self.PresetChosen(name))
        self.query_one("#start-status", Label).update(t("start.loaded", what=name or t("start.blank")))

    def _take_goal(self, goal: str) -> None:
        """A first run: the one-GPU workshop preset, then the next step; my cluster: the presets, the first
        multi-node one highlighted; a script I have: the import box."""
        status = self.query_one("#start-status", Label)
        if goal == "workshop":
            self.post_message(self.PresetChosen(FIRST_RUN_PRESET))
            status.update(t("start.loaded", what=FIRST_RUN_PRESET) + " · " + t("start.next"))
            self.post_message(StepRequested("models"))
        elif goal == "cluster":
            listing = self.query_one("#preset-list", OptionList)
            names = [p.name for p in preset_summaries()]
            multi = next((p.name for p in preset_summaries() if p.nnodes > 1), names[0])
            listing.highlighted = 1 + names.index(multi)  # after (blank)
            listing.focus()
            status.update(t("start.goal.cluster_next"))
        else:
            box = self.query_one("#script-path", Input)
            box.focus()
            status.update(t("start.goal.script_next"))

    def on_action_link_pressed(self, event: ActionLink.Pressed) -> None:
        if event.link.id == "import-script":
            self._import_script()
        if event.link.id == "load-answers":
            self._load_answers()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "answers-path":
            self._load_answers()
        if event.input.id == "script-path":
            self._import_script()

    def _load_answers(self) -> None:
        self.post_message(self.AnswersRequested(self, self.query_one("#answers-path", Input).value.strip()))

    def show_answers_status(self, status: str) -> None:
        """The outcome of Load, under it."""
        self.query_one("#answers-status", Label).update(status)

    def _import_script(self) -> None:
        self.post_message(self.ScriptRequested(self, self.query_one("#script-path", Input).value.strip()))

    def show_script_status(self, status: str) -> None:
        """The outcome of Import, under it, with what the script leaves unknown, as `check` says it (each
        field it feeds says it too)."""
        notes = [render(note) for note in self.session.unknown_notes()]
        self.query_one("#script-status", Label).update("\n".join([status, *notes]))
