"""Load a user's YAML text safely: no arbitrary objects, no alias cycles, no alias bombs.

PyYAML's safe loader builds shared and even self-referencing structures from anchors and aliases
(``a: &x {b: *x}``); every walker downstream would recurse without end or expand a "billion laughs"
document exponentially. Such a document is refused here with a one-line reason instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_EXPANDED_NODES = 1_000_000  # far beyond any real config; an alias bomb passes it quickly


class YAMLShapeError(ValueError):
    """The document parsed but cannot be used: a cycle or an explosive alias expansion."""


def load_one(text: str) -> Any:
    """The single document in ``text``, checked; raises yaml.YAMLError or YAMLShapeError."""
    try:
        doc = yaml.load(text, Loader=_LOADER)
    except (ValueError, RecursionError) as exc:
        raise YAMLShapeError(_unbuildable(exc)) from None
    check_shape(doc)
    return doc


def load_all(text: str) -> Iterator[Any]:
    """Every document in ``text``, each checked as it is read."""
    documents = yaml.load_all(text, Loader=_LOADER)
    while True:
        try:
            doc = next(documents)
        except StopIteration:
            return
        except (ValueError, RecursionError) as exc:
            raise YAMLShapeError(_unbuildable(exc)) from None
        check_shape(doc)
        yield doc


def _unbuildable(exc: BaseException) -> str:
    """Why a document that parses cannot be built into values (Python's own limits)."""
    if isinstance(exc, RecursionError):
        return "the document nests too deeply to read"
    if "digits" in str(exc):
        return "a number has more than 4,300 digits; no verl value is that long"
    return f"a value cannot be read ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})"


def check_shape(doc: Any) -> None:
    """Raise YAMLShapeError when ``doc`` refers to itself or expands past MAX_EXPANDED_NODES."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()

    def size(node: Any) -> int:
        if not isinstance(node, (dict, list)):
            return 1
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in on_path:
            raise YAMLShapeError(
                "an alias refers to a mapping or list that contains it (a cycle); write the values out"
            )
        on_path.add(key)
        children = list(node.items()) if isinstance(node, dict) else [(None, v) for v in node]
        total = 1
        # Iterate instead of recursing into keys: keys of a safe-loaded mapping are scalars or tuples.
        for _, value in children:
            total += size(value)
            if total > MAX_EXPANDED_NODES:
                raise YAMLShapeError("aliases expand this document past a million values; write the values out")
        on_path.discard(key)
        sizes[key] = total
        return total

    try:
        size(doc)
    except RecursionError:
        raise YAMLShapeError("the document nests too deeply to read") from None
