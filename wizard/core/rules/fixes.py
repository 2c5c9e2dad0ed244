"""Search helpers that turn a broken number into the nearest working ones, below and above."""

from __future__ import annotations

from collections.abc import Callable

SEARCH_LIMIT = 4096


def nearest(value: int, ok: Callable[[int], bool], lo: int = 1, hi: int | None = None) -> tuple[int | None, int | None]:
    """The closest integers below and above `value` (within [lo, hi]) for which ok() holds."""
    down = next((v for v in range(value - 1, max(lo, value - SEARCH_LIMIT) - 1, -1) if ok(v)), None)
    top = value + SEARCH_LIMIT if hi is None else min(hi, value + SEARCH_LIMIT)
    up = next((v for v in range(value + 1, top + 1) if ok(v)), None)
    return down, up


def both_ways(value: int, ok: Callable[[int], bool], **bounds) -> list[int]:
    """nearest() as a list, the closer candidate first."""
    down, up = nearest(value, ok, **bounds)
    found = [v for v in (down, up) if v is not None]
    return sorted(found, key=lambda v: (abs(v - value), v))


def closest_of(value: int, candidates: list[int], ok: Callable[[int], bool]) -> list[int]:
    """Like both_ways() over a known candidate list (e.g. the divisors of a batch): the nearest one below
    and the nearest above ``value`` for which ok() holds, the closer first."""
    down = next((v for v in sorted((c for c in candidates if c < value), reverse=True) if ok(v)), None)
    up = next((v for v in sorted(c for c in candidates if c > value) if ok(v)), None)
    return sorted((v for v in (down, up) if v is not None), key=lambda v: (abs(v - value), v))


def divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))
