"""Every use of Textual's private internals, in one place, and only on the Textual version it was written for.

The keystroke budget (DESIGN.md section 7) is met with a few speed-ups that reach into Textual's private
attributes (a compositor, OptionList's caches). Private names change without notice between releases, so
each speed-up here runs only on the Textual release it was written and tested against (TESTED_WITH, the
version pyproject pins). On any other release every one of them steps aside and the stock widgets and
behaviour run: slower, never broken. No other module of the wizard touches a private Textual name
(tests/tui/test_textual_private.py checks it).

VERL_WIZARD_STOCK_TEXTUAL turns speed-ups off on the tested release too: "all" (or "1") for every one, or
names from SPEEDUPS separated by commas; benchmarks/bench_tui_speedups.py measures each one that way.
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cache
from pathlib import Path

from textual import events
from textual.binding import BindingsMap
from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widgets import OptionList

try:
    from textual._compositor import Compositor as _Compositor
except ImportError:  # another release moved it: the stock compositor runs
    _Compositor = object

TESTED_WITH = "8.2.8"
STOCK_ENV = "VERL_WIZARD_STOCK_TEXTUAL"
SPEEDUPS = (
    "compositor",  # a partial update renders only the widgets that show in a changed region
    "option_lines",  # OptionList measures its lines again only when what they depend on changed
    "option_paint",  # the lines of one OptionList paint share its styles and measurement
    "option_keep",  # set_options keeps the rendered lines of options shown again at the same index
    "option_resize",  # a resize that keeps the list's width keeps its rendered options
    "findings_lines",  # a new findings list repaints the lines the old and new findings take, not the column
    "bindings",  # footer labels in the language chosen inside the app (stock: English)
    "scrollbar",  # the findings list's scrollbar repaints only when what it draws changes
    "step_marks",  # a new mark in the step list repaints that line, not the list
)


def running_version() -> str | None:
    """The installed Textual's version (None when it cannot be told)."""
    import textual

    # The dist-info folder beside the package names it: a directory listing, where importlib.metadata's
    # first call costs several ms of the start budget. Anything unexpected: ask importlib.metadata.
    try:
        names = [
            entry[len("textual-") : -len(".dist-info")]
            for entry in os.listdir(Path(textual.__file__).resolve().parent.parent)
            if entry.startswith("textual-") and entry.endswith(".dist-info")
        ]
    except OSError:
        names = []
    if len(names) == 1:
        return names[0]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("textual")
    except PackageNotFoundError:
        return None


@cache
def in_use() -> frozenset[str]:
    """The speed-ups in use in this process: all of SPEEDUPS on the tested release, less those turned off."""
    if running_version() != TESTED_WITH:
        return frozenset()
    off = {name.strip() for name in os.environ.get(STOCK_ENV, "").split(",") if name.strip()}
    if off & {"1", "all"}:
        return frozenset()
    return frozenset(SPEEDUPS) - off


def uses(speedup: str) -> bool:
    """Whether this speed-up runs (on another Textual release, none does)."""
    return speedup in in_use()


# -- the compositor ----------------------------------------------------------------------------------------
class DirtyRegionCompositor(_Compositor):
    """Compositor: a partial update renders the widgets that show in a changed region, and no others.

    Textual repaints a frame by cropping the screen to the rectangle around every changed region and asking
    each widget in that rectangle for its lines. After an edit the changed regions are the field, the step's
    derived view, the step list's mark and the findings panel: their bounding rectangle is most of the
    screen, so every field row's label, input and source badge, and every container behind them, would be
    asked for its (unchanged) lines. Only the changed regions are written to the terminal, and there a widget
    paints every cell of its region, so a widget shows in a changed region only if it overlaps it and no
    widget in front of it covers the region whole. Relies on Textual 8.2's Compositor
    (`render_partial_update`, `visible_widgets` in front-to-back order); full updates are unchanged.
    """

    def render_partial_update(self):
        dirty = list(self._dirty_regions)
        if not dirty:
            return super().render_partial_update()
        visible = self.visible_widgets
        self.cuts  # noqa: B018 - where widgets start and end on each line: computed from every widget, not the few below
        intersection = Region.intersection
        shown = [(widget, geometry, intersection(*geometry)) for widget, geometry in visible.items()]
        showing: set = set()
        for changed in dirty:
            for widget, _geometry, area in shown:  # front to back
                if area.overlaps(changed):
                    showing.add(widget)
                    if area.contains_region(changed):
                        break  # every widget behind this one is hidden here
        self._visible_widgets = below = {widget: geometry for widget, geometry, _area in shown if widget in showing}
        try:
            return super().render_partial_update()
        finally:
            if self._visible_widgets is below:  # not reset meanwhile by a new arrangement
                self._visible_widgets = visible


def install_compositor(screen) -> None:
    """Give a screen (in its __init__) the DirtyRegionCompositor; on other releases it keeps its own."""
    if uses("compositor"):
        screen._compositor = DirtyRegionCompositor()


def compositor_of(screen):
    """The screen's compositor (tests compare what it renders with what the terminal shows)."""
    return screen._compositor


# -- key bindings ------------------------------------------------------------------------------------------
def replace_bindings(node: DOMNode, describe) -> bool:
    """Give `node` its own bindings, each with `describe(binding)` as its description; False where it cannot.

    Textual builds a class's bindings once, when the class is made, and copies them into each node.
    """
    if not uses("bindings"):
        return False
    node._bindings = BindingsMap.from_keys(
        {
            key: [replace(b, description=describe(b)) for b in bindings]
            for key, bindings in node._bindings.key_to_bindings.items()
        }
    )
    return True


# -- option lists ------------------------------------------------------------------------------------------
class KeptOptionsList(OptionList):
    """OptionList that keeps what it rendered across `set_options` and resizes of its height.

    OptionList throws away every option's rendered lines on `set_options`. The findings list sets its
    options on every edit, mostly to Option objects it showed before (each is cached by what it shows and
    where), so re-rendering them all is a good part of a keystroke's frame. Rendered lines are cached by
    Option object and style and carry the option's index (for clicks); they are kept while the option comes
    back at the same index (option_keep). OptionList also re-renders every option on any resize, where the
    lines depend on the width alone (option_resize).

    OptionList works out, for each line it paints, the list's lines and width (measuring its content region
    twice), the option's style and its padding. The list keeps its measurement while nothing it depends on
    changed (option_lines), and the lines of one paint share the rest (option_paint).
    Relies on OptionList's `_option_render_cache` (keyed by option, style and padding), `_line_cache`,
    `_update_lines`, `_on_resize` and `_mouse_hovering_over` (Textual 8.2).
    """

    _lines_known_for: tuple | None = None
    _paint: tuple | None = None  # what the lines of one render_lines call share
    _lines_width: int | None = None  # the width the rendered options were made for

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._speedups = in_use()

    def line_count(self) -> int | None:
        """How many lines the options take (None where that cannot be told without a private name)."""
        return len(self._lines) if "findings_lines" in self._speedups else None

    def _update_lines(self) -> None:
        if "option_lines" not in self._speedups:
            return super()._update_lines()
        # What OptionList's measurement depends on: the widget's size and styles (its content width), the
        # scrollbars (they take columns), and the options and lines measured so far. Unchanged: nothing to do.
        key = (
            self.size,
            self.styles._cache_key,
            self.show_vertical_scrollbar,
            self.show_horizontal_scrollbar,
            len(self._options),
            len(self._line_cache.lines),
        )
        if key == self._lines_known_for:
            return None
        super()._update_lines()
        self._lines_known_for = (*key[:4], len(self._options), len(self._line_cache.lines))
        return None

    def _on_resize(self, event: events.Resize) -> None:
        # Textual calls each class's own handler, this one before OptionList's (which drops every rendered
        # option): preventing the default skips OptionList's. Without the speed-up, OptionList's runs.
        if "option_resize" not in self._speedups:
            return
        width = self.scrollable_content_region.width
        if width == self._lines_width:
            event.prevent_default()
        self._lines_width = width

    def render_lines(self, crop: Region) -> list[Strip]:
        if "option_paint" not in self._speedups:
            return super().render_lines(crop)
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
        if "option_keep" not in self._speedups:
            return super().set_options(options)
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


# -- measured for issue 17 (to be removed if they buy nothing) ------------------------------------------------
def replace_prompt(option_list: OptionList, index: int, prompt) -> None:
    """replace_option_prompt_at_index, repainting only that option's line (step_marks)."""
    if not uses("step_marks"):
        option_list.replace_option_prompt_at_index(index, prompt)
        return
    option = option_list.get_option_at_index(index)
    line = option_list._index_to_line.get(index) if option_list.is_mounted else None
    option._set_prompt(prompt)
    option_list._option_render_cache.clear()  # rendered lines are cached by option: drop the old prompt's
    if line is None:
        option_list._clear_caches()
        option_list.refresh()
    else:
        option_list.refresh_line(line)


def steady_vertical_scrollbar(widget):
    """Widget.vertical_scrollbar with a SteadyScrollBar (scrollbar); None: use the stock property."""
    if not uses("scrollbar"):
        return None
    if widget._vertical_scrollbar is None:
        bar = SteadyScrollBar(vertical=True, name="vertical", thickness=widget.scrollbar_size_vertical)
        bar.display = False
        widget._vertical_scrollbar = bar
        widget.app._start_widget(widget, bar)
    return widget._vertical_scrollbar


class SteadyScrollBar(ScrollBar):
    """ScrollBar: a plain repaint request is skipped when the bar would be drawn as it is."""

    _drawn: tuple | None = None  # what the bar drew last; None: unknown, repaint

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False):
        plain = not (regions or layout or recompose) and repaint and self.is_mounted
        drawn, self._drawn = self._drawn, (self._drawing() if plain else None)
        if plain and drawn is not None and drawn == self._drawn:
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _drawing(self) -> tuple:
        bar = self.render()
        sizes = (getattr(bar, "virtual_size", None), getattr(bar, "window_size", None), getattr(bar, "position", None))
        length = self.size.height if self.vertical else self.size.width
        virtual, window, _ = sizes
        if not (window and length and virtual and length != virtual):  # ScrollBarRender draws no thumb
            sizes = None
        return (
            type(bar),
            self.size,
            sizes,
            getattr(bar, "thickness", None),
            getattr(bar, "vertical", None),
            str(getattr(bar, "style", "")),
        )
