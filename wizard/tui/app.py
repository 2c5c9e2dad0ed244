"""The wizard app: owns the session, moves between steps, applies edits and fixes, writes on confirm.

Screens render; this class changes state. Widgets and screens send their changes up as messages (a field's
FieldRow.Edited, handled here; a step's choices such as HardwareScreen.TopologyChosen, handled by the StepRequests
mixin); every edit re-runs all rules and repaints the active step.

Start-up paints the first step before anything it does not show is loaded: a step's screen is created
when it is first shown, a plain start (no preset, answers or topology) builds its session (pydantic, the
answers) right after the first paint, and the rules run after a step's first paint (StepScreen).
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.app import App
from textual.binding import Binding

from wizard import __version__
from wizard.core.value_reasons import bare_reason
from wizard.core.verl_target import TARGET_VERSION
from wizard.errors import UsageError
from wizard.i18n import set_language, t
from wizard.i18n.text import Msg, msg, render
from wizard.tui.app_view import WizardAppView
from wizard.tui.bindings import LocalizedBindings
from wizard.tui.commands import WizardCommands
from wizard.tui.delivery import BrowserDelivery, Delivered, DiskDelivery
from wizard.tui.input_order import InputInOrder
from wizard.tui.messages import FixRequested, JumpRequested, StepRequested
from wizard.tui.notices import NoticesInLine
from wizard.tui.palette import PaletteInLanguage
from wizard.tui.quit_guard import QuitGuard
from wizard.tui.saved_answers import SavedAnswers, kept_out, kept_out_line
from wizard.tui.screens.dialogs import ConfirmReplace, HelpDialog
from wizard.tui.step_requests import StepRequests
from wizard.tui.steps import STEPS, field_for, step_of
from wizard.tui.textual_compat import install_paste_intact

if TYPE_CHECKING:
    from wizard.tui.screens.base import StepScreen
    from wizard.tui.session import Session
    from wizard.tui.widgets.field_row import FieldRow

SCREENS = {
    "start": "start.StartScreen",
    "models": "models.ModelsScreen",
    "data": "data.DataScreen",
    "batch": "batch.BatchScreen",
    "hardware": "hardware.HardwareScreen",
    "deployment": "deployment.DeploymentScreen",
    "review": "review.ReviewScreen",
}


def screen_class(step: str):
    """The screen class of a step, imported on first use (the review step alone loads a syntax highlighter)."""
    module, _, name = SCREENS[step].partition(".")
    return getattr(importlib.import_module(f"wizard.tui.screens.{module}"), name)


class WizardApp(
    NoticesInLine, InputInOrder, QuitGuard, StepRequests, PaletteInLanguage, LocalizedBindings, WizardAppView
):
    TITLE = "verl-wizard"
    CSS_PATH = "styles/app.tcss"
    COMMANDS = App.COMMANDS | {WizardCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (96, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
    BINDINGS = [
        # Never straight out: each asks while there are unsaved edits (quit_guard.py); in an input ctrl+c copies.
        Binding("escape", "escape_top", "dialog.cancel", show=False, id="cancel"),
        Binding("ctrl+c", "ask_quit", "key.quit", show=False, id="cancel-ctrl-c"),
    ]

    def __init__(
        self,
        session: Session | Callable[[], Session],
        answers_path: str = "verl-wizard-answers.yaml",
        settle_gc: bool = False,
        chosen: dict | None = None,
        delivery: DiskDelivery | BrowserDelivery | None = None,
        verl: tuple[str, float] | None = None,
    ) -> None:
        """`session` is the session, or a function that builds it (then it is built after the first paint).

        chosen: what the command line loaded ("preset", "answers", "topology"; None for each not given), which
        the Start step shows. A function that fails with a UsageError (a file whose contents are wrong) makes
        the app exit with return code 2 and `start_error` set, after the first paint.

        delivery: where Review's write and ctrl+s go (wizard/tui/delivery.py): this machine's disk (the
        default), or the browser of a wizard that `verl-wizard serve` runs.

        verl: (the interpreter, the deadline in seconds) of `tui --verl PYTHON`, whose verl Review's "Ask verl"
        asks about the config.yaml the wizard would write (wizard/tui/verl_run.py); None: no such button.

        settle_gc: the garbage collector was held off for the start (build_app(hold_gc=True)); once the
        first screen shows the findings, collect, freeze the survivors (they live as long as the app) and
        turn collection back on.
        """
        super().__init__()
        install_paste_intact()  # before run() starts the driver, whose input thread makes the parser
        self._settle_gc = settle_gc
        self._session = None if callable(session) else session
        self._make_session = session if callable(session) else None
        self.answers_path = answers_path
        self.chosen = chosen or {}
        self.start_error: str | None = None
        self.written: list[str] = []
        self.saved_answers: SavedAnswers | None = None  # the last "save the answers" to this machine's disk
        self.delivery = delivery if delivery is not None else DiskDelivery()
        self.verl = verl
        self.delivered: list[Delivered] = []  # downloads sent to the browser (a served wizard)
        self._exit_when_delivered: str | None = None
        self.step = "start"  # every start paints the Start step first
        self.visited: set[str] = set()  # steps shown so far (wizard/tui/visited.py)

    # -- the session --------------------------------------------------------------------------------
    @property
    def session(self) -> Session:
        """The session; built on first use when the app was given a function that builds it."""
        if self._session is None:
            make, self._make_session = self._make_session, None
            assert make is not None  # given a session, __init__ set _session; else the function that builds it
            try:
                self._session = make()
            except UsageError as exc:
                # pydantic and the rules load after the first paint (tests/tui/test_startup.py), not with the app
                from wizard.tui.session import Session as BlankSession

                self.start_error = str(exc)
                self._session = BlankSession()  # the screens stay consistent until the exit lands
                self.exit(return_code=2)
        return self._session

    @property
    def session_ready(self) -> bool:
        """Whether the session is built (a plain start builds it after the first paint)."""
        return self._session is not None

    def start_settled(self) -> None:
        """The first step shows its findings (a step calls this after its first show): settle the collector."""
        if self._settle_gc:
            self.call_after_refresh(self._gc_settle)

    def _gc_settle(self) -> None:
        if self._settle_gc:
            self._settle_gc = False
            # Start-up garbage goes first; then later collections (while typing) skip the start-up heap.
            gc.collect()
            gc.freeze()
            # A keystroke allocates some thousands of objects (strips, styles, findings): with the default
            # thresholds that is ten young collections a key and a full one every few keys (30-40 ms on a slow
            # machine). Collect young objects every 10,000 and the older generations rarely.
            gc.set_threshold(10_000, 50, 100)
            gc.enable()

    # -- screens -----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.title = t("app.title")
        self.sub_title = t("app.subtitle", version=TARGET_VERSION)
        self.push_screen(self._installed(self.step))

    def _installed(self, step: str) -> str:
        if not self.is_screen_installed(step):
            # Created with the size's breakpoint classes (-narrow / -wide, -short / -tall) that Textual would add on its first
            # resize: adding it then restyles every widget of the screen once more.
            self.install_screen(screen_class(step)(classes=self._breakpoint_class()), name=step)
        return step

    def _breakpoint_class(self) -> str:
        names = []
        for breakpoints, extent in (
            (self.HORIZONTAL_BREAKPOINTS, self.size.width),
            (self.VERTICAL_BREAKPOINTS, self.size.height),
        ):
            names += [next((name for at, name in sorted(breakpoints, reverse=True) if extent >= at), "")]
        return " ".join(name for name in names if name)

    def goto(self, step: str) -> None:
        if step != self.step:
            self.step = step
            self.switch_screen(self._installed(step))

    def action_next_step(self) -> None:
        self.goto(STEPS[min(STEPS.index(self.step) + 1, len(STEPS) - 1)])

    def action_prev_step(self) -> None:
        self.goto(STEPS[max(STEPS.index(self.step) - 1, 0)])

    def refresh_step(self) -> None:
        self.mark_unsaved()  # every edit, fix and load repaints through here
        screen = self.screen
        if hasattr(screen, "refresh_view"):
            screen.refresh_view()

    # -- edits -------------------------------------------------------------------------------------
    def apply_edit(self, address: str, value, text: str | None = None) -> None:
        """One edit of an answer (None clears it); a refused value is kept as typed (KEY-006) and blocks writing."""
        try:
            self.session.set(address, value) if value is not None else self.session.empty(address)
        except UsageError as exc:
            # the reason stays a message (not its English text): it is shown in the language of the screen;
            # the field and the text are said beside it, so only the reason itself
            self.reject_edit(address, text if text is not None else str(value), bare_reason(exc.args[0]))
            return
        self.refresh_step()

    def reject_edit(self, address: str, text: str, reason: Msg | str) -> None:
        self.session.reject(address, text, reason)  # a finding at the field; no rule runs again
        self.refresh_step()

    def on_field_row_edited(self, message: FieldRow.Edited) -> None:
        self.apply_edit(message.field_name, message.value)

    def on_fix_requested(self, message: FixRequested) -> None:
        try:
            self.session.apply_fix(message.fix)
        except UsageError as exc:
            self.notify(str(exc), severity="error")
            return
        self.notify(t("findings.fixed", label=render(message.fix.label)))
        self.refresh_step()

    def action_focus_findings(self) -> None:
        """F2: the findings list, where enter jumps to a finding's field and f or 1-9 apply its fixes."""
        found = self.screen.query("#findings-list")
        if found:
            found.first().focus()

    def action_fix_first(self) -> None:
        finding = next((f for f in self.session.findings if f.fixes), None)
        if finding is not None:
            self.post_message(FixRequested(finding, finding.fixes[0]))

    def on_jump_requested(self, message: JumpRequested) -> None:
        step = step_of(message.address)
        self.goto(step)
        field = field_for(message.address)
        if field:
            # after the goto, the screen is that step's
            self.hold_input_until_refresh(self, lambda: cast("StepScreen", self.screen).focus_field(field))

    def on_step_requested(self, message: StepRequested) -> None:
        self.goto(message.step)

    def switch_language(self, lang: str) -> None:
        # Screens are built in the language of their creation: drop them all; each is created again when shown.
        set_language(lang)
        for name in STEPS:
            if name != self.step and self.is_screen_installed(name):
                self.uninstall_screen(name)
        current = self.step
        self.step = "models" if current == "start" else "start"
        self.switch_screen(self._installed(self.step))
        self.uninstall_screen(current)
        self.goto(current)
        self.sub_title = t("app.subtitle", version=TARGET_VERSION)

    def action_help(self) -> None:
        from wizard.tui.field_help import help_for  # the field declarations (pydantic): not before the first paint

        self.push_screen(HelpDialog(*help_for(self, self.focused)))

    def action_save_answers(self) -> bool:
        try:
            note = self.delivery.save_answers(self, self.session, self.answers_path)
        except UsageError as exc:  # an answers path that cannot be written: said, and the session goes on
            self.notify(str(exc), severity="error")
            return False
        self.mark_saved()
        left_out = kept_out(self.session.workspace)
        if not self.delivery.to_browser:
            self.saved_answers = SavedAnswers(self.answers_path, left_out)
        self.notify(f"{note}\n{kept_out_line(left_out)}" if left_out else note)
        return True

    # -- writing -----------------------------------------------------------------------------------
    def request_write(self) -> None:
        getattr(self.screen, "take_typed_folder", lambda: None)()
        session = self.session
        if session.blocked:
            self.bell()
            self.notify(t("review.blocked", n=len(session.errors())), severity="error")
            return
        if self.delivery.to_browser:
            self._deliver_files()
            return
        # deferred: the writer (its journal, hashlib, the target specs) loads with the first Write, not at start
        from wizard.emit.writer import conflicts, removals

        out = Path(session.out_dir)
        files = session.render_files()
        clashing = conflicts(out, files) if out.exists() else []
        removing = removals(out, files) if out.exists() else []
        if not clashing and not removing:
            self._write(force=False)
            return

        def decide(replace: bool | None) -> None:
            if replace:
                self._write(force=True)
                return
            kept = t("confirm.kept", out=out)
            self.notify(kept)
            if hasattr(self.screen, "show_written"):
                self.screen.show_written(kept)  # Review says it too: a toast goes in seconds

        diffs = {name: session.diff(name) for name in clashing}
        self.push_screen(ConfirmReplace(session.out_dir, diffs, removing), decide)

    def _write(self, force: bool) -> None:
        try:
            names = self.session.write(force=force)
        except UsageError as exc:
            self.notify(str(exc), severity="error")
            return
        out = Path(self.session.out_dir)
        self.written = [str(out / name) for name in names]
        self.written_dir = str(out)  # the exit report's launch folder, even if the field changes later
        self.mark_saved()
        message = "\n".join([t("review.written", n=len(names), out=out), *self.session.write_notes])
        self.notify(message)
        if hasattr(self.screen, "show_written"):
            self.screen.show_written(message)

    # -- a served wizard: downloads instead of writes ----------------------------------------------------
    def _deliver_files(self) -> None:
        # called only when the delivery goes to the browser (request_write)
        delivered = cast("BrowserDelivery", self.delivery).deliver_files(self, self.session)
        self.delivered.append(delivered)
        message = str(msg("serve.files_delivered", zip=delivered.name, files=list(delivered.files)))
        self.notify(message)
        if hasattr(self.screen, "show_written"):
            self.screen.show_written(message)

    def _deliver_answers_then_exit(self) -> None:
        # A download is read from this process chunk by chunk, so the app exits once the browser has it.
        # called only when the delivery goes to the browser (QuitGuard's save)
        delivered, key = cast("BrowserDelivery", self.delivery).deliver_answers(self, self.session, self.answers_path)
        self.delivered.append(delivered)
        self._exit_when_delivered = key
        self.set_timer(DELIVERY_WAIT_S, lambda: self.exit(self.written))

    def on_delivery_complete(self, event) -> None:
        if event.key == self._exit_when_delivered:
            self.exit(self.written)

    def on_delivery_failed(self, event) -> None:
        if event.key == self._exit_when_delivered:
            self.exit(self.written)


DELIVERY_WAIT_S = 10.0  # how long quitting waits for the browser to fetch the answers before it exits anyway


__all__ = ["WizardApp", "__version__"]
