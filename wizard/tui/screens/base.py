"""The layout every step shares: steps on the left, the step's fields in the middle, findings on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from wizard.core.value_reasons import shown_text
from wizard.i18n import t
from wizard.i18n.text import render
from wizard.tui.bindings import LocalizedBindings
from wizard.tui.focus import focus_first_field
from wizard.tui.steps import STEPS, fields_of
from wizard.tui.textual_compat import install_compositor
from wizard.tui.unknown_fields import unknown_lines
from wizard.tui.visited import see
from wizard.tui.widgets.findings_panel import FindingsPanel
from wizard.tui.widgets.notice_line import NoticeLine
from wizard.tui.widgets.step_nav import StepNav

if TYPE_CHECKING:
    from textual import getters

    from wizard.tui.app_view import WizardAppView
    from wizard.tui.widgets.field_row import FieldRow


def _field_row():
    # Imported when a step has rows: the Start step, which has none, paints before the field declarations
    # (pydantic) that the rows read are loaded.
    from wizard.tui.widgets.field_row import FieldRow

    return FieldRow


class StepScreen(LocalizedBindings, Screen):
    """A step. Subclasses set STEP and may add widgets around the field rows with compose_extra()."""

    if TYPE_CHECKING:  # Textual's typed `app` (textual.getters.app): the wizard's App, as the steps use it
        app = getters.app(WizardAppView)

    STEP = ""
    BINDINGS = [
        Binding("ctrl+n", "app.next_step", "key.next", id="next-step"),
        Binding("ctrl+b", "app.prev_step", "key.prev", id="prev-step"),
        # Before the focused list or the step's scroll area pages with them; in a browser tab ctrl+n and ctrl+w are
        # the browser's, so PageDown/PageUp are a served student's step keys.
        Binding("pagedown", "app.next_step", "key.next", show=False, priority=True),
        Binding("pageup", "app.prev_step", "key.prev", show=False, priority=True),
        Binding("f1", "app.help", "key.help", id="help"),
        Binding("f2", "app.focus_findings", "key.findings", show=False, id="findings"),
        Binding("ctrl+s", "app.save_answers", "key.save", id="save-answers"),
        Binding("ctrl+q", "app.ask_quit", "key.quit", id="quit", priority=True),
    ]

    _rows: list[FieldRow] | None = None
    _resumed = False
    _under_dialog = False

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        install_compositor(self)
        self._parts: dict = {}

    @property
    def session(self):
        return self.app.session

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            yield StepNav(self.STEP)
            with VerticalScroll(id="step-body", can_focus=False):  # Tab goes to its fields, not the box
                yield Static(t(f"{self.STEP}.intro"), classes="intro")
                yield from self.compose_top()
                for field in fields_of(self.STEP):
                    yield _field_row()(field, self.session.value(field), self.session.source_of(field))
                yield from self.compose_bottom()
            yield FindingsPanel()
        yield NoticeLine()  # notifications, in the layout: a toast over the step cut Chinese text
        yield Footer()

    def compose_top(self) -> ComposeResult:
        return iter(())

    def compose_bottom(self) -> ComposeResult:
        return iter(())

    def on_mount(self) -> None:
        self.sub_title = f"{STEPS.index(self.STEP) + 1}/{len(STEPS)} {t('step.' + self.STEP)}"

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Also runs when the screen is first shown, after on_mount (and before Screen's own handler).
        first = not self._resumed
        see(self.app.visited, self.STEP)
        if self.app.session_ready:
            # On its first show a step shows the answers at once and, if the rules have not run yet, the findings
            # a frame later (_after_first_show).
            self.refresh_view(findings=not first or self.session.evaluated)
        if self._under_dialog:  # back from help or a question: the focus stays where the user left it
            self._under_dialog = False
        else:
            focus_first_field(self)
            # again after Textual's auto-focus of a new screen; keys typed meanwhile wait for it (input_order.py)
            self.app.hold_input_until_refresh(self, lambda: focus_first_field(self))
        if first:
            # The widgets were styled as they mounted: skip Textual's restyle of the whole screen on its first
            # show (it is there for screens that come back after a theme change).
            self._resumed = True
            event.refresh_styles = False
            self.call_after_refresh(self._after_first_show)

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        # The app changes its step before it switches screens: still this step, so a dialog covers it.
        self._under_dialog = self.app.step == self.STEP

    def _after_first_show(self) -> None:
        """This step is on screen: build the session if the app deferred it, and show the findings."""
        app = self.app
        panels = self.query(FindingsPanel)
        if self is app.screen and panels and not panels.first().shown_once:
            app.session  # noqa: B018 - a plain start builds it here
            self.refresh_view()
        app.start_settled()

    def refresh_view(self, findings: bool = True) -> None:
        """Show the session's current values, sources and (unless told not to) findings; called after every edit."""
        session = self.session
        answers = session.layered.answers
        unknown = unknown_lines(session.workspace)
        shown_or_hidden = False
        for row in self.rows():
            held = session.rejected_at(row.field_name)
            if held is None:
                row.refresh_from(session.value(row.field_name), session.source_of(row.field_name))
            else:
                row.show_source("edited")  # the text on screen is the user's, not the layer below's
            show = row.spec.shown_for(answers)  # progressive disclosure: the field's `when`
            if row.display != show:
                row.display = show
                shown_or_hidden = True
            row.set_error(None if held is None else rejected_text(row.field_name, held))
            row.set_unknown(unknown.get(row.field_name))
        if shown_or_hidden:
            # The focus chain follows a shown or hidden field only after the next refresh: a Tab typed behind
            # this edit waits for it (wizard/tui/input_order.py), else it skips a field the edit just showed.
            self.app.hold_input_until_refresh(self, lambda: None)
        if findings:
            seen = frozenset(self.app.visited)
            self.part(StepNav).show(session.findings, seen)
            self.part(FindingsPanel).show(session.findings, seen)
        self.refresh_extra()

    def rows(self) -> list[FieldRow]:
        """The step's field rows (composed once; a DOM query per edit costs more than the edit's rules)."""
        if self._rows is None:
            # A step with no fields (Start, Review) has no rows: its first paint loads no row module (pydantic).
            self._rows = list(self.query(_field_row())) if fields_of(self.STEP) else []
        return self._rows

    def part(self, selector, expect_type=None):
        """query_one, remembered: the step's widgets stay for the screen's life."""
        key = (selector, expect_type)
        widget = self._parts.get(key)
        if widget is None:
            widget = self._parts[key] = (
                self.query_one(selector, expect_type) if expect_type else self.query_one(selector)
            )
        return widget

    def refresh_extra(self) -> None:
        """Step-specific views (the batch chain, the topology matrix, the preview)."""

    def focus_field(self, field: str) -> bool:
        for row in self.rows():
            if row.field_name == field:
                row.display = True
                row.input_widget.focus()
                row.scroll_visible()
                return True
        return False

    def row_for(self, field: str):
        return next((row for row in self.rows() if row.field_name == field), None)


def rejected_text(field: str, held: tuple) -> str:
    """The line under a field whose text was not taken: the reason, or that verl needs a value."""
    text, reason = held
    return (
        t("field.required")
        if reason is None
        else f"{shown_text(text)!r}: {render(reason) if not isinstance(reason, str) else reason}"
    )
