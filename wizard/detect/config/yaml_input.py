"""Load a user's YAML text safely: no arbitrary objects, no alias cycles, no alias bombs.

PyYAML's safe loader builds shared and even self-referencing structures from anchors and aliases
(``a: &x {b: *x}``); every walker downstream would recurse without end or expand a "billion laughs"
document exponentially. Such a document is refused here with a one-line reason instead.

A verl config or an answers file is read as OmegaConf reads it (`load_config`), since verl reads its config
with OmegaConf: a key written twice in one mapping is refused (OmegaConf refuses the file, so verl would never
start), dates and timestamps stay text (``experiment_name: 2024-01-01``), and ``1e-6`` is a number (PyYAML's
YAML 1.1 resolver reads it as text). Manifests keep PyYAML's plain safe reading (`load_one`, `load_all`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml

from wizard.i18n.text import msg

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_EXPANDED_NODES = 1_000_000  # far beyond any real config; an alias bomb passes it quickly


class YAMLShapeError(ValueError):
    """The document parsed but cannot be used: a cycle or an explosive alias expansion."""


class DuplicateKeyError(YAMLShapeError):
    """A mapping names one key twice, which OmegaConf (and so verl) refuses."""


class OmegaConfLikeLoader(_LOADER):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader changed as omegaconf 2.3's ``get_yaml_loader`` changes it (omegaconf/_utils.py)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> Any:
        # As OmegaConf: only keys that resolve to plain text are compared, by their text as written.
        first_line: dict[str, int] = {}
        for key_node, _ in node.value:
            if key_node.tag != yaml.resolver.BaseResolver.DEFAULT_SCALAR_TAG:
                continue
            line = key_node.start_mark.line + 1
            if key_node.value in first_line:
                raise DuplicateKeyError(
                    msg("yaml.duplicate_key", key=key_node.value, line=line, first=first_line[key_node.value])
                )
            first_line[key_node.value] = line
        return super().construct_mapping(node, deep=deep)


# OmegaConf's float resolver: 1e-6, 1.0e3 and 1_000.5 are numbers (YAML 1.1 wants a dot and a signed exponent).
OmegaConfLikeLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"""^(?:
         [-+]?[0-9]+(?:_[0-9]+)*\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+)
        |\.[0-9]+(?:_[0-9]+)*(?:[eE][-+][0-9]+)?
        |[-+]?[0-9]+(?:_[0-9]+)*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)
# No timestamps: OmegaConf keeps 2024-01-01 as the text it is.
OmegaConfLikeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in OmegaConfLikeLoader.yaml_implicit_resolvers.items()
}


def load_one(text: str, loader: type = _LOADER) -> Any:
    """The single document in ``text``, checked; raises yaml.YAMLError or YAMLShapeError."""
    try:
        doc = yaml.load(text, Loader=loader)
    except YAMLShapeError:
        raise
    except (ValueError, RecursionError) as exc:
        raise YAMLShapeError(_unbuildable(exc)) from None
    check_shape(doc)
    return doc


def load_config(text: str) -> Any:
    """A verl config or an answers file, typed and checked as OmegaConf reads it (see the module's docstring)."""
    return load_one(text, OmegaConfLikeLoader)


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
