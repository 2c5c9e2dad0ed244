"""An OptionList that keeps its options' rendered lines when its options are set again.

OptionList throws away every option's rendered lines on `set_options`. The findings list sets its options on
every edit, mostly to Option objects it showed before (each is cached by what it shows and where), so
re-rendering them all is a good part of a keystroke's frame. Rendered lines are cached by Option object and
style and carry the option's index (for clicks); they are kept while the option comes back at the same index.

OptionList also works out, for each line it paints, the list's lines and width (measuring its content region
twice), the option's style and its padding. The list keeps its measurement while nothing it depends on
changed, and the lines of one paint share the rest.
Relies on OptionList's `_option_render_cache` (keyed by option, style and padding), `_line_cache`,
`_update_lines` and `_mouse_hovering_over` (Textual 8.2).
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import OptionList


class KeptOptionsList(OptionList):
    """OptionList whose `set_options` keeps the rendered lines of options shown again at the same index."""

    _lines_known_for: tuple | None = None

    def _update_lines(self) -> None:
        # What OptionList's measurement depends on: the widget's size and styles (its content width), the
        # scrollbars (they take columns), and the options and lines measured so far. Unchanged: nothing to do.
        key = (
            self.size,
            self.styles._cache_key,  # noqa: SLF001 - Textual keeps the styles' key here
            self.show_vertical_scrollbar,
            self.show_horizontal_scrollbar,
            len(self._options),
            len(self._line_cache.lines),
        )
        if key == self._lines_known_for:
            return
        super()._update_lines()
        self._lines_known_for = (*key[:4], len(self._options), len(self._line_cache.lines))

    _paint: tuple | None = None  # what the lines of one render_lines call share

    def render_lines(self, crop: Region) -> list[Strip]:
        self._update_lines()
        styles = {
            name: self.get_visual_style("option-list--option", *([name] if name else []))
            for name in (
                "",
                "option-list--option-disabled",
                "option-list--option-highlighted",
                "option-list--option-hover",
            )
        }
        padding = self.get_component_styles("option-list--option").padding
        self._paint = (
            self.scroll_offset.y,
            self._line_cache.lines,
            self.highlighted,
            self._mouse_hovering_over,
            styles,
            padding,
        )
        try:
            return super().render_lines(crop)
        finally:
            self._paint = None

    def render_line(self, y: int) -> Strip:
        paint = self._paint
        if paint is None:
            return super().render_line(y)
        scroll_y, lines, highlighted, hover, styles, padding = paint
        if not 0 <= scroll_y + y < len(lines):
            return super().render_line(y)
        index, offset = lines[scroll_y + y]
        option = self._options[index]
        # OptionList.render_line's choice of style, in its order.
        name = (
            "option-list--option-disabled"
            if option.disabled
            else "option-list--option-highlighted"
            if highlighted == index
            else "option-list--option-hover"
            if hover == index
            else ""
        )
        strips = self._option_render_cache.get((option, styles[name], padding))
        if strips is None or offset >= len(strips):
            return super().render_line(y)
        return strips[offset]

    def set_options(self, options):
        cache = self._option_render_cache
        placed = self.__dict__.setdefault("_placed", {})  # option -> the index its cached lines were made for
        self._option_render_cache = LRUCache(maxsize=cache.maxsize)  # the one set_options clears
        super().set_options(options)
        index_of = self._option_to_index
        if len(placed) > cache.maxsize:  # many options come and go: keep only those shown now
            placed = self.__dict__["_placed"] = {option: at for option, at in placed.items() if option in index_of}
        keep = {option for option, at in placed.items() if index_of.get(option, at) == at}
        for key in cache.keys():  # noqa: SIM118 - Textual's LRUCache has keys() but no __iter__
            if key[0] in keep:
                self._option_render_cache[key] = cache.get(key)
        for option in set(placed) - keep:
            del placed[option]
        placed.update(index_of)
        return self
