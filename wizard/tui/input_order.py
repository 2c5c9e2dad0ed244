"""Input applied in the order it was typed, each key to the widget that had the focus when it was typed.

Textual hands a key to the focused widget by posting it on that widget's queue, and the App's queue moves on
at once. A key that moves the focus (Tab, shift+Tab) or changes the step (ctrl+n, ctrl+b) does so only when
its binding runs: after the key has bubbled from the focused widget up to the App. Under a burst (a fast
typist, keys pasted into the terminal, `tmux send-keys`) the keys typed after it were posted to the old focus
by then: `Tab 8` puts the 8 in the field that was left, `48 ctrl+n 7` the 7 in the step that was left. A new
step's screen is composed and focused a moment after the switch, and keys meanwhile reach no field.

So the App hands over one input event (a key, a paste, a mouse press or release) at a time, and holds every
later one in a queue until the one handed over has settled:

1. its handlers and bindings ran: a marker message posted to the widget it went to, right behind it, follows
   it up the same chain of ancestors to the App (each node handles its messages in order and passes a
   bubbling one to its parent once handled). The marker makes TRIPS trips, so that what the key's handlers
   posted on the way (a Button's Pressed, an OptionList's OptionSelected that becomes StepRequested) is
   handled before the last trip ends;
2. the screen it brought, if the current screen is another one now, is in place: that screen has handled
   what was queued for it (compose, mount, resume, where a step focuses its first field) and refreshed;
3. a focus move deferred to after a refresh through `hold_input_until_refresh` has run.

A watchdog lets held input go after SETTLE_TIMEOUT_S, and at once when a marker's widget was removed (the
marker would never arrive): a lost marker can delay keys, never drop or reorder them. Public Textual API only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual import events
from textual.errors import NoWidget
from textual.message import Message
from textual.message_pump import MessagePump

TRIPS = 3
SETTLE_TIMEOUT_S = 2.0  # the longest input is held for one event
WATCH_S = 0.05  # how often the watchdog looks while input is held
HELD = (events.InputEvent, events.Paste)  # what waits its turn (mouse moves too, to keep their order)
SETTLED = (events.Key, events.Paste, events.MouseDown, events.MouseUp)  # what is waited for
_TRIPS, _SCREEN, _REFRESH = "trips", "screen", "refresh"

if TYPE_CHECKING:
    from textual.app import App

    _App = App[Any]  # what the checker sees: this mixes into the wizard's App
else:
    _App = object


class InputSettled(Message, bubble=True):
    """The marker: back at the App, the step of settling numbered `token` is done."""

    def __init__(self, token: int) -> None:
        super().__init__()
        self.token = token


@dataclass
class _Settling:
    target: MessagePump | None  # where the event went (None: a priority binding took it)
    screen: object  # the screen when it was handed over, then the one it brought
    token: int = 0  # of the marker on its way: one that comes back late is ignored
    trips: int = TRIPS
    phase: str = _TRIPS
    since: float = field(default_factory=monotonic)


class InputInOrder(_App):
    """App mixin (before App in the bases): input events are handed over one at a time, each once the last settled."""

    _held: deque
    _settling: _Settling | None = None
    _holds: dict  # marker token -> when a deferred focus move was scheduled
    _token = 0
    _watchdog = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held = deque()
        self._holds = {}

    @property
    def input_held(self) -> bool:
        """Whether input waits now (an event settling, a deferred focus move, or events queued)."""
        return bool(self._settling or self._holds or self._held)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, HELD) and not event.is_forwarded:
            if self.input_held:
                self._held.append(event)
                self._watch()
                return
            await self._hand_over(event)
            return
        await super().on_event(event)

    def hold_input_until_refresh(self, node: MessagePump, callback: Callable[[], object]) -> None:
        """Run `callback` after `node`'s next refresh (call_after_refresh), holding input until it has run.

        For a focus move made after a refresh: keys typed meanwhile go where it puts the focus.
        """
        marker = self._marker()

        def run() -> None:
            try:
                callback()
            finally:
                self.post_message(marker)

        if node.call_after_refresh(run):
            self._holds[marker.token] = monotonic()
            self._watch()

    def _marker(self) -> InputSettled:
        self._token += 1
        return InputSettled(self._token)

    # -- handing over ------------------------------------------------------------------------------------
    async def _hand_over(self, event: events.Event) -> None:
        stack = self.screen_stack
        screen = stack[-1] if stack else None
        await super().on_event(event)
        if isinstance(event, SETTLED) and screen is not None:
            self._settling = _Settling(self._went_to(event), screen)
            self._watch()
            self._advance()

    def _went_to(self, event: events.Event) -> MessagePump | None:
        if isinstance(event, events.MouseEvent):
            try:
                return self.screen.get_widget_at(event.x, event.y)[0]
            except NoWidget:
                return self.screen
        # App.on_event forwarded it to the focused widget (else the screen) unless a priority binding took it
        return (self.focused or self.screen) if event.is_forwarded else None

    def _advance(self) -> None:
        """Send the marker on its next way, or end the settling."""
        settling = self._settling
        assert settling is not None  # called while an event settles
        marker = self._marker()
        settling.token = marker.token
        if settling.phase == _TRIPS:
            target = settling.target
            if settling.trips > 0 and target is not None and target.is_attached:
                settling.trips -= 1
                if target.post_message(marker):
                    return
            if self.screen is settling.screen:
                self._settling = None
                return
            settling.phase, settling.screen = _SCREEN, self.screen
            if self.screen.post_message(marker):  # behind what is queued for it: compose, mount, resume
                return
        if settling.phase == _SCREEN:
            settling.phase = _REFRESH
            if self.screen.call_after_refresh(self.post_message, marker):
                return
        self._settling = None

    async def on_input_settled(self, message: InputSettled) -> None:
        message.stop()
        settling = self._settling
        if settling is not None and message.token == settling.token:
            self._advance()
        elif self._holds.pop(message.token, None) is None:
            return  # late: the watchdog let it go
        await self._hand_over_held()

    async def _hand_over_held(self) -> None:
        while self._held and not (self._settling or self._holds):
            await self._hand_over(self._held.popleft())

    # -- the watchdog ---------------------------------------------------------------------------------------
    def _watch(self) -> None:
        if self._watchdog is None:
            self._watchdog = self.set_interval(WATCH_S, self._look, name="input-order-watchdog")
        else:
            self._watchdog.resume()

    async def _look(self) -> None:
        now = monotonic()
        settling = self._settling
        if settling is not None:
            if now - settling.since > SETTLE_TIMEOUT_S:
                self._settling = None
            elif settling.phase == _TRIPS and settling.target is not None and not settling.target.is_attached:
                settling.trips = 0  # removed, maybe with the marker in its queue: on to the screen it brought
                self._advance()
        for token, since in list(self._holds.items()):
            if now - since > SETTLE_TIMEOUT_S:
                del self._holds[token]
        await self._hand_over_held()
        if not self.input_held and self._watchdog is not None:  # the watchdog is what calls this
            self._watchdog.pause()
