"""The wizard's App as its steps and palette see it: Textual's App plus what the wizard adds (the session, the
current and visited steps, deliveries, the actions a step or the palette starts).

For the type checker: a step's `app`, the palette's `app` and WizardApp's base are this view, so a renamed
member or a wrong argument fails `mypy wizard` at the seam between the steps and the app, and mypy holds
WizardApp's own definitions to the ones declared here. At run time the view is Textual's App itself
(WizardApp's bases are as they were). The steps name it without importing wizard.tui.app (no import circle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from textual.message_pump import MessagePump

    from wizard.i18n.text import Msg
    from wizard.tui.delivery import BrowserDelivery, Delivered, DiskDelivery
    from wizard.tui.session import Session

    class WizardAppView(App[list[str]]):
        chosen: dict  # what the command line loaded ("preset", "answers", "topology")
        delivery: DiskDelivery | BrowserDelivery
        delivered: list[Delivered]
        verl: tuple[str, float] | None  # `tui --verl`: (the interpreter, the deadline) Review's "Ask verl" asks
        step: str
        visited: set[str]

        @property
        def session(self) -> Session: ...

        @property
        def session_ready(self) -> bool: ...

        def goto(self, step: str) -> None: ...

        def start_settled(self) -> None: ...

        def hold_input_until_refresh(self, node: MessagePump, callback: Callable[[], object]) -> None: ...

        def request_write(self) -> None: ...

        # a field row's typed text, applied in the keystroke's own call (wizard/tui/widgets/field_row.py)
        def apply_edit(self, address: str, value: Any, text: str | None = None) -> None: ...

        def reject_edit(self, address: str, text: str, reason: Msg | str) -> None: ...

        def action_save_answers(self) -> bool: ...

        def action_fix_first(self) -> None: ...

else:
    WizardAppView = App[list[str]]
