"""What this machine says about the paths the answers name (a fact the rules read, never look up), and the
length past which no machine could open one.

wizard.detect.paths fills `RuleContext.paths` (path -> LocalPath); ROLE-007 and DATA-008 read it. Without
the fact (a context built without gathering) a path's existence and its home folder are unknown, and the
rules say nothing that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.i18n.text import Msg, msg

# Linux's limits, where verl's workers open the files (NAME_MAX and PATH_MAX of <linux/limits.h>): longer, and
# every open() fails with ENAMETOOLONG; a Hugging Face repo id is far shorter still (96 characters a name).
NAME_MAX_BYTES = 255
PATH_MAX_BYTES = 4095


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


def too_long(path: str) -> Msg | None:
    """Why no machine can open `path` (a part or the whole over Linux's limits), or None when its length is fine.

    Neither a file nor a Hugging Face repo can have such a name, so an answer this long is a paste gone wrong.
    """
    encoded = path.encode("utf-8", "surrogateescape")
    if len(encoded) > PATH_MAX_BYTES:
        return msg("value.path_too_long", length=len(encoded), limit=PATH_MAX_BYTES)
    longest = max(encoded.split(b"/"), key=len)
    if len(longest) > NAME_MAX_BYTES:
        return msg("value.path_part_too_long", length=len(longest), limit=NAME_MAX_BYTES)
    return None
