"""What the readers of `check`'s files share: a user's file read as bounded text, a nested verl config as flat keys,
and CheckInput, what was read. Below the config reader (files.py), the Hydra composer (compose.py) and the launch
script reader (wizard.detect.script.check_input), which all use them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.core import verl_schema
from wizard.detect.input_files import read_bounded, regular_file_problem, shown_path
from wizard.errors import UsageError

MAX_BYTES = 8 * 1024 * 1024


@dataclass
class CheckInput:
    """What was read: the kind of file, flat verl keys (or answer addresses) and notes for the user."""

    kind: str  # "wizard config" | "composed config" | "answers file" | "launch script"
    flat: dict[str, Any]
    notes: list = field(default_factory=list)
    script: Any = None
    unknowns: Any = None  # core.unknowns.Unknowns: keys a launch script leaves unknown
    fed: dict = field(default_factory=dict)  # Origin -> the keys it makes unknown


def read_text(path: Path, label: str | None = None) -> str:
    """The UTF-8 text of a user's file, read bounded (MAX_BYTES); one UsageError line for anything else.

    Every file `check`, `new --answers` and `--from-script` read comes through here, so a named pipe, a
    device, an unreadable folder or a huge file is refused the same way everywhere (see input_files).
    """
    label = shown_path(path) if label is None else label
    if regular_file_problem(path) == "a folder, not a regular file":
        raise UsageError(f"{label}: is a folder; give a config.yaml, a .hydra/config.yaml or a launch script")
    data = read_bounded(path, MAX_BYTES, label, config=True)
    if b"\x00" in data:
        raise UsageError(f"{label}: binary data, not a YAML config or a shell script")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{label}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


MAX_DEPTH = 32  # verl's deepest key has 8 parts; deeper nesting is not a verl config


def flatten_config(tree: dict, engine: str, prefix: str = "", _open: tuple[int, ...] = ()) -> dict[str, Any]:
    """Nested verl config -> dotted keys, stopping at verl's leaves (lists, open mappings).

    A mapping that contains itself (a YAML alias cycle) or absurd nesting is refused with one line.
    """
    if id(tree) in _open or len(_open) > MAX_DEPTH:
        where = prefix.rstrip(".") or "the top level"
        raise UsageError(
            f"{where}: a mapping that contains itself or nests deeper than {MAX_DEPTH} levels; not a verl config"
        )
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        leaf_in_verl = dotted in verl_schema.defaults(engine) or (
            dotted in verl_schema.open_mappings() and not verl_schema.is_section(dotted, engine)
        )
        if isinstance(value, dict) and value and not leaf_in_verl:
            flat.update(flatten_config(value, engine, dotted + ".", _open + (id(tree),)))
        else:
            flat[dotted] = value
    return flat
