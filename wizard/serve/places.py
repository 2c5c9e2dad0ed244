"""The workshop's places: at most --max-sessions wizards at once, a place held briefly for a page just served.

A tab takes a place in two steps: the page is served (a place is *held* under a token for HOLD_S seconds),
then the page's websocket connects with that token and the wizard starts (the place is *taken*). Holding
at page time is what lets a tab beyond the limit get a clear page at once instead of a terminal that never
starts; a held place that no websocket claims in time is free again.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

HOLD_S = 30.0


class Places:
    """Counts held and taken places; not thread-safe (one asyncio loop uses it)."""

    def __init__(self, most: int, hold_s: float = HOLD_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.most = most
        self.hold_s = hold_s
        self._clock = clock
        self._held: dict[str, float] = {}  # token -> when the hold lapses
        self.taken = 0

    def _drop_lapsed(self) -> None:
        now = self._clock()
        for token in [token for token, until in self._held.items() if until <= now]:
            del self._held[token]

    @property
    def in_use(self) -> int:
        """Places taken by running wizards plus those held for pages just served."""
        self._drop_lapsed()
        return self.taken + len(self._held)

    def hold(self) -> str | None:
        """A token for a page about to be served, or None when every place is in use."""
        if self.in_use >= self.most:
            return None
        token = secrets.token_urlsafe(16)
        self._held[token] = self._clock() + self.hold_s
        return token

    def take(self, token: str | None) -> bool:
        """Turn a hold into a taken place; without a valid hold, take a free place if there is one."""
        self._drop_lapsed()
        if token is not None and self._held.pop(token, None) is not None:
            self.taken += 1
            return True
        if self.taken + len(self._held) < self.most:
            self.taken += 1
            return True
        return False

    def give_back(self) -> None:
        """A wizard ended: its place is free."""
        self.taken = max(0, self.taken - 1)
