"""The command palette in the UI language (its footer key, its search placeholder and Textual's own entries),
and Chinese text wrapped as Chinese is (textual_compat.install_cjk_wrap: never inside a Latin word).

Textual words these in English (the footer's "palette", "Search for commands…", and the system commands
Theme, Quit, Keys, Maximize, Minimize, Screenshot); the mixin gives each its catalogue text. The entries are
matched by Textual's English title, so an entry this does not know stays as Textual words it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette

from wizard.i18n import t
from wizard.tui import textual_compat

# Textual's English title and help of each built-in entry -> its catalogue key (palette.sys.KEY[.help]).
SYSTEM_ENTRIES = {
    "Theme": "theme",
    "Quit": "quit",
    "Keys": "keys",
    "Maximize": "maximize",
    "Minimize": "minimize",
    "Screenshot": "screenshot",
}

if TYPE_CHECKING:
    from textual.app import App

    _App = App[Any]  # what the checker sees: this mixes into the wizard's App
else:
    _App = object


class PaletteInLanguage(_App):
    """Mixin for the App, before LocalizedBindings and App in its bases."""

    def __init_subclass__(cls, **kwargs) -> None:
        # The palette's key among the app's own bindings, described by catalogue key (LocalizedBindings words
        # it): Textual adds its English "palette" binding only where the app has none.
        if "BINDINGS" in cls.__dict__:
            key = getattr(cls, "COMMAND_PALETTE_BINDING", "ctrl+p")
            palette = Binding(key, "command_palette", "key.palette", show=False, priority=True, id="command-palette")
            cls.BINDINGS = [*cls.__dict__["BINDINGS"], palette]
        super().__init_subclass__(**kwargs)

    def __init__(self, *args, **kwargs) -> None:
        textual_compat.install_cjk_wrap()
        super().__init__(*args, **kwargs)

    def get_system_commands(self, screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            key = SYSTEM_ENTRIES.get(command.title)
            if key is None:
                yield command
            else:
                yield command._replace(title=t(f"palette.sys.{key}"), help=t(f"palette.sys.{key}.help"))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=t("palette.placeholder"), id="--command-palette"))
