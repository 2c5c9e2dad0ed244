"""Key bindings whose footer labels follow the language chosen inside the app.

Textual builds a class's bindings once, when the class is made, before the user picks a language; so
BINDINGS name catalogue keys (``"key.next"``) as descriptions. When the class is made each such
description becomes a CatalogueLabel (the English text, which remembers its key), and each node, when it
is created, swaps them for the current language's text. Screens are created again on a language switch,
so the footer changes with everything else. Where the node's bindings cannot be swapped (another Textual
release: see textual_compat) the footer stays in English.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding

from wizard.i18n import en, t
from wizard.tui import textual_compat

if TYPE_CHECKING:
    from textual.dom import DOMNode

    _Node = DOMNode  # what the checker sees: this mixes into an App, a Screen or a Widget
else:
    _Node = object


class CatalogueLabel(str):
    """A binding's description: the English text of a catalogue key, which it keeps in `key`."""

    key: str

    def __new__(cls, key: str) -> CatalogueLabel:
        label = super().__new__(cls, en.STRINGS[key])
        label.key = key
        return label


def _labelled(bindings: list) -> list:
    return [
        replace(b, description=CatalogueLabel(b.description))
        if isinstance(b, Binding) and b.description in en.STRINGS
        else b
        for b in bindings
    ]


def _describe(binding) -> str:
    description = binding.description
    return t(description.key) if isinstance(description, CatalogueLabel) else description


class LocalizedBindings(_Node):
    """Mixin for an App, Screen or Widget whose BINDINGS describe keys by catalogue key."""

    def __init_subclass__(cls, **kwargs) -> None:
        # Before Textual's own __init_subclass__ (later in the MRO), which merges the class's BINDINGS.
        if "BINDINGS" in cls.__dict__:
            cls.BINDINGS = _labelled(cls.__dict__["BINDINGS"])
        super().__init_subclass__(**kwargs)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        textual_compat.replace_bindings(self, _describe)
