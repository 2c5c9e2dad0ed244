"""A small YAML writer for nested mappings with a `#` comment above chosen keys.

PyYAML drops comments, and config.yaml's comments (where a value came from, the batch chain) are part of
the product, so mappings are laid out here and only scalars and lists go through yaml.safe_dump.
"""

from __future__ import annotations

import json
from typing import Any

import yaml


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """{"a.b.c": 1} -> {"a": {"b": {"c": 1}}}, keeping insertion order."""
    tree: dict[str, Any] = {}
    for key, value in flat.items():
        node = tree
        *parents, leaf = key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return tree


def _has_control(value: Any) -> bool:
    if isinstance(value, str):
        return any(ord(c) < 32 or c == "\x7f" for c in value)
    if isinstance(value, (list, tuple)):
        return any(_has_control(v) for v in value)
    if isinstance(value, dict):
        return any(_has_control(k) or _has_control(v) for k, v in value.items())
    return False


def scalar(value: Any) -> str:
    """A value on one line: YAML flow style, or JSON (valid YAML) when it holds control characters."""
    if _has_control(value):
        return json.dumps(value, ensure_ascii=False)
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True).strip()
    return text.removesuffix("\n...").removesuffix("...").strip()


# Bidirectional controls (U+202A-202E, U+2066-2069, the marks U+200E, U+200F, U+061C) reorder how text is shown:
# in a comment they can make code look other than it is ("Trojan Source"); comments never need them.
BIDI_CONTROLS = dict.fromkeys([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])


def one_line(text: str) -> str:
    """Comment text on one line, whatever the user typed into it, without bidirectional control characters."""
    return " ".join(str(text).translate(BIDI_CONTROLS).split())


def render(
    tree: dict[str, Any], comments: dict[str, str] | None = None, prefix: str = "", indent: int = 0
) -> list[str]:
    comments = comments or {}
    lines: list[str] = []
    pad = "  " * indent
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if dotted in comments:
            lines.append(f"{pad}# {one_line(comments[dotted])}")
        label = scalar(key) if not isinstance(key, str) or not key.replace("_", "").isalnum() else key
        if isinstance(value, dict) and value:
            lines.append(f"{pad}{label}:")
            lines.extend(render(value, comments, dotted + ".", indent + 1))
        else:
            lines.append(f"{pad}{label}: {scalar(value)}")
    return lines
