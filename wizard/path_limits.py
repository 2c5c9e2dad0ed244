"""Why a path could not even be looked up: a name over the system's limits, or a NUL byte.

Below both its users: the readers of a user's files (wizard.detect.input_files) and the writer of a run's files
(wizard.emit.writer), which checks --out with it; emit imports nothing from detect.
"""

from __future__ import annotations

import os

from wizard.core.paths import NAME_MAX_BYTES, PATH_MAX_BYTES
from wizard.i18n.text import msg


def path_problem(path: str | os.PathLike) -> str | None:
    """Why `path` could not even be looked up (a name over the system's limits, a NUL byte), or None."""
    text = os.fsencode(path)
    if b"\x00" in text:
        return str(msg("input.reason.nul"))
    limit_name = _limit("PC_NAME_MAX", NAME_MAX_BYTES)
    if any(len(part) > limit_name for part in text.split(b"/")):
        return str(msg("input.path.name_too_long", limit=limit_name))
    limit_path = _limit("PC_PATH_MAX", PATH_MAX_BYTES + 1)  # PATH_MAX counts the closing NUL
    if len(text) >= limit_path:
        return str(msg("input.path.too_long", limit=limit_path - 1))
    return None


def _limit(name: str, fallback: int) -> int:
    try:
        return os.pathconf("/", name)
    except (OSError, ValueError):
        return fallback
