"""Where the shipped presets live, and the cluster counts a preset that leaves them out gets.

Imports nothing beyond the standard library (and wizard.errors): the TUI lists presets (wizard.tui.preset_list) before the
answers model and YAML are loaded, from the same files wizard.core.presets loads.
"""

from __future__ import annotations

import difflib
import reprlib
from pathlib import Path

from wizard.errors import UsageError

_PACKAGE = Path(__file__).resolve().parents[1]
# Installed wheels carry the presets as wizard/_presets; a source checkout has them at the top level.
SEARCH_DIRS = (_PACKAGE / "_presets", _PACKAGE.parent / "presets")
COUNT_DEFAULTS = {"nnodes": 1, "n_gpus_per_node": 8}  # trainer.* when a preset does not set them


def preset_dir() -> Path:
    return next((d for d in SEARCH_DIRS if d.is_dir()), SEARCH_DIRS[-1])


def shipped_preset(name: str) -> Path | None:
    """The file of the shipped preset `name`, or None: a preset is chosen by its listed name, never by a path.

    `name` is compared with the listing, so `/tmp/x`, `../x` or a name longer than any file name never
    reaches the file system.
    """
    folder = preset_dir()
    if not name or not name.isprintable() or "/" in name or name.startswith(".") or len(name) > 200:
        return None
    path = folder / f"{name}.yaml"
    return path if path in set(folder.glob("*.yaml")) else None


def preset_names() -> list[str]:
    return sorted(p.stem for p in preset_dir().glob("*.yaml"))


def unknown_preset(name: str) -> UsageError:
    """The one-line error for a `--preset` that names no shipped preset (with the closest name, if any)."""
    if not name:
        return UsageError(f"--preset '': empty; choose one of: {', '.join(preset_names())}")
    shown = reprlib.repr(name) if len(name) > 60 or not name.isprintable() else name
    close = difflib.get_close_matches(name[:200], preset_names(), n=1)
    hint = f"; did you mean {close[0]}?" if close else f"; choose one of: {', '.join(preset_names())}"
    return UsageError(f"--preset {shown}: no such preset{hint}")
