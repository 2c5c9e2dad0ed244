"""What this machine says about the paths the answers name: a fact the rules read, never look up.

wizard.detect.paths fills `RuleContext.paths` (path -> LocalPath); ROLE-007 and DATA-008 read it. Without
the fact (a context built without gathering) a path's existence and its home folder are unknown, and the
rules say nothing that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LocalPath:
    exists: bool | None = None  # None: not looked at (cluster mode: the path is for another machine)
    expanded: str | None = None  # what a leading ~ is on this machine; None for a path without one


def home_expanded(ctx, path: str) -> str:
    """The path with ~ as this machine expands it, or the path itself when that is not known."""
    fact = ctx.paths.get(path)
    return fact.expanded if fact is not None and fact.expanded else path


def missing_here(ctx, path: str) -> bool:
    """Whether the path was looked for on this machine and is not there."""
    fact = ctx.paths.get(path)
    return fact is not None and fact.exists is False
