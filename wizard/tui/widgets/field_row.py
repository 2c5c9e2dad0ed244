"""One answer: its label, an input of the right kind, and the source of its value (verl default, preset, ...)."""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, Switch

from wizard.core.answers.model import SECTIONS
from wizard.core.field_keys import specs
from wizard.i18n import en, t, term
from wizard.i18n.text import msg
from wizard.tui.widgets.ordered_input import OrderedInput
from wizard.tui.widgets.repaint import update_static

if TYPE_CHECKING:
    from textual import getters

    from wizard.tui.app_view import WizardAppView


def field_kind(name: str) -> tuple[str, tuple]:
    """("bool"|"int"|"float"|"choice"|"list"|"text", choices) for an answer field, from its type and Spec."""
    section, _, attr = name.partition(".")
    annotation = SECTIONS[section].model_fields[attr].annotation
    is_union = typing.get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType", typing.Union))
    args = set(typing.get_args(annotation)) if is_union else {annotation}
    args.discard(type(None))
    is_list = any(typing.get_origin(a) is list for a in args)
    choices = specs()[name].choice_values
    if choices and not is_list:  # a list of choices (trainer.logger) is typed as text: "console, wandb"
        return "choice", choices
    if bool in args:
        return "bool", ()
    if int in args:
        return "int", ()
    if float in args:
        return "float", ()
    if is_list:
        return "list", ()
    return "text", ()


def label_of(name: str) -> str:
    """The field's label in the current language (its Spec's label key; English: the name with spaces)."""
    spec = specs()[name]
    return term(spec.label_key, spec.label)


def parse_text(kind: str, text: str) -> Any:
    """Input text -> value; empty means cleared. ValueError for text that is not of the kind."""
    text = text.strip()
    if not text:
        return None
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "list":
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return parts if len(parts) != 1 else parts[0]
    return text


def show_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(map(str, value))
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class FieldInput(OrderedInput):
    """The text input of a field row; the row watches its value (FieldRow.on_mount)."""

    @property
    def content_width(self) -> int:
        # Input takes its text's width (+1 for the cursor) as its virtual size, and a new virtual size asks for
        # a layout of the whole screen, on every keystroke. Text that fits the field does not scroll: report
        # the field's width for it, so only longer text (which scrolls) changes the virtual size.
        return max(super().content_width, self.scrollable_content_region.width)

    def on_resize(self) -> None:
        # Input sets its virtual size when its value changes; take the field's width now, so that the first
        # keystroke needs no layout either (the size is recorded without asking for one: this is a layout).
        self.set_reactive(Widget.virtual_size, Size(self.content_width, 1))


def badge_width() -> int:
    """Cells for the widest source word in the current language (+1 of padding): a badge that changes keeps its
    width, so the change is a repaint and never a layout of the screen, and no word is cut."""
    return 1 + max(cell_len(t(key)) for key in en.STRINGS if key.startswith("source."))


class FieldRow(Vertical):
    """A labelled input for one answer; `refresh_from` shows a new value and source.

    A switch or a list choice goes up as an `Edited` message, which the app applies; typed text is applied in
    the keystroke's own call (`_typed`, which says why).

    The label and the source badge share the first line (the label wraps, the badge is never cut); the input
    below takes the whole width of the pane.
    """

    if TYPE_CHECKING:  # Textual's typed `app` (textual.getters.app): the wizard's App, as the row uses it
        app = getters.app(WizardAppView)

    class Edited(Message):
        """The user changed the field's value with its switch or its list of choices (None: the blank choice)."""

        def __init__(self, row: FieldRow, value: Any) -> None:
            super().__init__()
            self.row = row
            self.field_name = row.field_name
            self.value = value

        @property
        def control(self) -> FieldRow:
            return self.row

    def __init__(self, name: str, value: Any, source: str) -> None:
        super().__init__(id="row-" + name.replace(".", "-"), classes="field-row")
        self.field_name = name
        self.spec = specs()[name]
        self.kind, self.choices = field_kind(name)
        self._value = value
        self._source = source
        self._shown_source = source
        self._quiet = False  # set while the row shows a value itself: that is no edit
        self._error_line: Label | None = None
        self._unknown_line: Label | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(classes="field-head"):
            yield Static(label_of(self.field_name), classes="field-label")
            badge = Label(
                t("source." + self._source), classes=f"field-source source-{self._source.replace(' ', '-').strip('-')}"
            )
            badge.styles.width = badge_width()
            yield badge
        widget_id = "input-" + self.field_name.replace(".", "-")
        if self.kind == "bool":
            yield Switch(value=bool(self._value), id=widget_id)
        elif self.kind == "choice":
            options = [(str(c), c) for c in self.choices]
            value = self._value if self._value in self.choices else Select.NULL
            yield Select(options, value=value, id=widget_id, allow_blank=True, prompt="-")
        else:
            input_type: typing.Literal["integer", "number", "text"] = (
                "integer" if self.kind == "int" else "number" if self.kind == "float" else "text"
            )
            yield FieldInput(show_value(self._value), id=widget_id, type=input_type, placeholder="-")

    def on_mount(self) -> None:
        if self.kind not in ("bool", "choice"):
            self.watch(self.input_widget, "value", self._typed, init=False)

    @property
    def input_widget(self):
        return self.query_one("#input-" + self.field_name.replace(".", "-"))

    def refresh_from(self, value: Any, source: str) -> None:
        if value == self._value and source == self._shown_source:
            return
        self._value, self._source = value, source
        widget = self.input_widget
        self._quiet = True
        try:
            if self.kind == "bool":
                widget.value = bool(value)
            elif self.kind == "choice":
                widget.value = value if value in self.choices else Select.NULL
            elif not widget.has_focus or widget.value.strip():
                # The value changed from what this row last knew: typing here already set it (refresh_from
                # returns above), so a fix, the palette or a load changed it, and the screen shows the new
                # value even in the focused field. Only an emptied focused field stays empty while the
                # layer below answers (the user is about to type there).
                widget.value = show_value(value)
        finally:
            self._quiet = False
        self.show_source(source)

    def show_source(self, source: str) -> None:
        """The badge: where the value on screen came from (an edit, the preset, verl's default, ...)."""
        if source != self._shown_source:
            # Restyling is the costly part of a repaint: touch the badge only when the source changed.
            badge = self.query_one(".field-source", Label)
            update_static(badge, t("source." + source))
            badge.set_classes(f"field-source source-{source.replace(' ', '-').strip('-')}")
            self._shown_source = source

    def set_error(self, message: str | None) -> None:
        """Mark the field invalid with the reason in a line under the row (readable without a mouse), or clear it."""
        if bool(message) != self.has_class("-invalid"):
            self.set_class(bool(message), "-invalid")
        if self.tooltip != message:
            self.tooltip = message
        line, parent = self._error_line, self.parent
        if message and line is None and isinstance(parent, Widget):  # the step's scroll area
            line = self._error_line = Label(message, classes="field-error")
            parent.mount(line, after=self)
        elif line is not None and not message:
            self._error_line = None
            line.remove()
        elif line is not None and message and str(line.render()) != message:
            line.update(message)

    def set_unknown(self, message: str | None) -> None:
        """A line under the row saying the imported script leaves this value unknown and how to give it (None: clear)."""
        line, parent = self._unknown_line, self.parent
        if message and line is None and isinstance(parent, Widget):  # the step's scroll area
            line = self._unknown_line = Label(message, classes="field-unknown")
            parent.mount(line, after=self)
        elif line is not None and not message:
            self._unknown_line = None
            line.remove()
        elif line is not None and message and str(line.render()) != message:
            line.update(message)

    def _typed(self, text: str) -> None:
        """The input's text changed: apply it now. Not through a message, which the app would handle a moment
        later: the input's own repaint and everything the edit changes (findings, chain, step marks) land in one
        frame, never a frame of the new text beside the old findings (tests/tui/test_repaint.py)."""
        if self._quiet:
            return
        try:
            value = parse_text(self.kind, text)
        except ValueError:
            # The text is recorded, not dropped: an error at the field that blocks writing (KEY-006).
            reason = msg("value.not_integer" if self.kind == "int" else "value.not_number")
            self.app.reject_edit(self.field_name, text, reason)
            return
        if self._is_edit(value):
            self._value = value
            self.app.apply_edit(self.field_name, value, text)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()  # applied as it changed (_typed)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        event.stop()
        self._post_if_edit(event.value)

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._post_if_edit(None if event.value is Select.NULL else event.value)

    def _post_if_edit(self, value: Any) -> None:
        if self._is_edit(value):
            self._value = value
            self.post_message(self.Edited(self, value))

    def _is_edit(self, value: Any) -> bool:
        # Widgets announce their initial value on mount too; only a real change is an edit. A field showing
        # a rejected text is edited again whatever its value was: the rejection goes with the next valid value.
        if self.has_class("-invalid"):
            return True
        return not (value == self._value or (value is None and self._value in (None, "")))
