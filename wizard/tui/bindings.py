"""Key bindings whose footer labels follow the language chosen inside the app.

Textual builds a class's bindings once, at import, before the user picks a language; so BINDINGS
name catalogue keys (``"key.next"``) as descriptions, and each node swaps them for the current
language's text when it is created. Screens are created again on a language switch, so the footer
changes with everything else.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import BindingsMap
from textual.dom import DOMNode

from wizard.i18n import en, t


def localize_bindings(node: DOMNode) -> None:
    """Give ``node`` its own bindings with every catalogue-key description translated."""
    translated = {
        key: [replace(b, description=t(b.description)) if b.description in en.STRINGS else b for b in bindings]
        for key, bindings in node._bindings.key_to_bindings.items()  # noqa: SLF001 - Textual keeps them here
    }
    node._bindings = BindingsMap.from_keys(translated)  # noqa: SLF001


class LocalizedBindings:
    """Mixin for an App, Screen or Widget whose BINDINGS describe keys by catalogue key."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        localize_bindings(self)
