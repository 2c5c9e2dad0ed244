"""Every use of Textual's private internals, in one place, and only on the Textual version it was written for.

The keystroke budget (DESIGN.md section 7) is met with a few speed-ups that reach into Textual's private
attributes (a compositor, OptionList's caches). Private names change without notice between releases, so
each speed-up here runs only on the Textual release it was written and tested against (TESTED_WITH, the
version pyproject pins). On any other release every one of them steps aside and the stock widgets and
behaviour run: slower, never broken. No other module of the wizard touches a private Textual name
(tests/tui/test_textual_private.py checks it).

VERL_WIZARD_STOCK_TEXTUAL turns them off on the tested release too: "all" (or "1") for every one, or names
from PRIVATE_USES separated by commas; benchmarks/measure_tui_speedups.py measures each speed-up that way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from weakref import WeakKeyDictionary

from textual.binding import BindingsMap
from textual.cache import LRUCache
from textual.dom import DOMNode
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import OptionList

try:
    from textual._compositor import Compositor as _Compositor
except ImportError:  # another release moved it: the stock compositor runs
    _Compositor = object  # type: ignore[misc,assignment]  # a stand-in base where the private class is gone

TESTED_WITH = "8.2.8"
STOCK_ENV = "VERL_WIZARD_STOCK_TEXTUAL"
# What runs on the tested release alone: four speed-ups and the footer's language.
PRIVATE_USES = (
    "compositor",  # a partial update renders only the widgets that show in a changed region
    "option_keep",  # set_options keeps the rendered lines of options shown again at the same index
    "option_paint",  # the lines of one OptionList paint share its measurement and styles
    "step_marks",  # a new mark in the step list repaints that option's line, not the list's column
    "bindings",  # footer labels in the language chosen inside the app (stock: the English ones)
    "cjk_wrap",  # wrapping breaks between CJK characters and at spaces, never inside a Latin word
    "paste",  # a bracketed paste arrives whole and in order, ESC inside it included (issue 32 item 7)
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
    """The private uses on in this process: all of PRIVATE_USES on the tested release, less those turned off."""
    if running_version() != TESTED_WITH:
        return frozenset()
    off = {name.strip() for name in os.environ.get(STOCK_ENV, "").split(",") if name.strip()}
    if off & {"1", "all"}:
        return frozenset()
    return frozenset(PRIVATE_USES) - off


def uses(name: str) -> bool:
    """Whether this private use (a name of PRIVATE_USES) is on; on another Textual release, none is."""
    return name in in_use()


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


# -- wrapping CJK text --------------------------------------------------------------------------------
# Rich, and Textual's Content through it, wrap at spaces only: a run of Chinese with no space is one "word",
# folded at the edge wherever a character falls, Latin words in it included (`ve / rl`). A word here is one
# CJK character (with the punctuation that may not start or end a line kept on its side) or a run of
# anything else that is not a space; a line breaks between words, and only a word wider than the line is
# folded (a long identifier alone).
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_OPENING = "（《“‘「『【〈"
_CLOSING = "，。；：、！？）》”’」』】〉…"
CJK_WORD = f"\\s*(?:[{_OPENING}]*[{_CJK}][{_CLOSING}]*|[^\\s{_CJK}]+[{_CLOSING}]*)\\s*"


def install_cjk_wrap() -> bool:
    """Make rich's word wrap (and Textual's, which calls it) CJK-aware; False where rich's wrap differs."""
    import re

    from rich import _wrap

    if not uses("cjk_wrap") or getattr(getattr(_wrap, "re_word", None), "pattern", None) not in (
        r"\s*\S+\s*",
        CJK_WORD,
    ):
        return False
    _wrap.re_word = re.compile(CJK_WORD)
    return True


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
    """OptionList that keeps the rendered lines of options shown again, and paints its lines with less work.

    OptionList throws away every option's rendered lines on `set_options`. The findings list sets its
    options on every edit, mostly to Option objects it showed before (each is cached by what it shows and
    where), so re-rendering them all is a good part of a keystroke's frame. Rendered lines are cached by
    Option object and style and carry the option's index (for clicks); they are kept while the option comes
    back at the same index (option_keep). OptionList also works out, for each line it paints, the list's
    lines (measuring its content region twice), the option's style and its padding: the lines of one paint
    share them (option_paint). Relies on OptionList's `_option_render_cache` (keyed by option, style and padding),
    `_line_cache`, `_update_lines` and `_mouse_hovering_over` (Textual 8.2).
    """

    _paint: tuple | None = None  # what the lines of one render_lines call share

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._private_uses = in_use()

    def render_lines(self, crop: Region) -> list[Strip]:
        if "option_paint" not in self._private_uses:
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
        if "option_keep" not in self._private_uses:
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
            if key[0] in keep and (lines := cache.get(key)) is not None:  # a key from keys() is there
                self._option_render_cache[key] = lines
        for option in set(placed) - keep:
            del placed[option]
        placed.update(index_of)
        return self


def replace_prompt(option_list: OptionList, index: int, prompt) -> None:
    """`replace_option_prompt_at_index` for a prompt as tall as the old one, repainting only its line (step_marks).

    OptionList's own replacement drops every option's rendered and measured lines and repaints the whole
    list; the step list fills its column, so that is every line of the column for one new mark.
    Relies on Option's `_set_prompt` and OptionList's `_index_to_line`, `_option_render_cache` and
    `_clear_caches` (Textual 8.2).
    """
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


def screen_strips(screen) -> list[Strip]:
    """What a screen shows now, one strip a line, as the compositor paints it (tests scan it for cut text)."""
    return screen._compositor.render_strips()


# -- bracketed paste ---------------------------------------------------------------------------------------
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


@dataclass
class _PasteState:
    text: str | None = None  # the paste so far; None outside a paste
    pending: str = ""  # inside a paste: trailing characters that may begin PASTE_END
    fed_tail: str = ""  # outside a paste: the last characters given to Textual's parser (PASTE_START may straddle)


def install_paste_intact() -> bool:
    """Make a bracketed paste reach the app as one Paste of its text as sent; False where it cannot.

    Textual 8.2.8's XTermParser reads an ESC inside a paste as the start of a key sequence: the rest of that
    sequence and the text up to the next ESC become keys, sent before the Paste of what came before it
    (`Qwen/ESC[31mabc` arrives as the keys `^[31mabc`, then the paste `Qwen/`). Here the text between the paste's
    markers is taken off the input first; Textual's parser still gets the markers, so whatever it holds before the
    paste (a lone Escape) is sent before it, in order.
    """
    if not uses("paste"):
        return False
    from textual._xterm_parser import XTermParser

    feed = XTermParser.feed
    if getattr(feed, "keeps_pastes", False):
        return True
    states: WeakKeyDictionary = WeakKeyDictionary()

    def feed_keeping_pastes(parser, data: str):
        state = states.setdefault(parser, _PasteState())
        yield from _feed(parser, feed, state, data)

    feed_keeping_pastes.keeps_pastes = True  # type: ignore[attr-defined]  # marks the installed wrapper
    feed_keeping_pastes.stock = feed  # type: ignore[attr-defined]  # Textual's own, for the tests to compare
    XTermParser.feed = feed_keeping_pastes  # type: ignore[method-assign,assignment]  # the one patch, on the pinned release
    return True


def _feed(parser, feed, state: _PasteState, data: str):
    from textual import events

    if not data:  # the end of input: a paste cut short is delivered as far as it came
        if state.text is not None:
            yield events.Paste(state.text + state.pending)
            state.text = None
        yield from feed(parser, data)
        return
    while data:
        if state.text is None:
            seen = state.fed_tail + data
            found = seen.find(PASTE_START)
            if found < 0:
                yield from feed(parser, data)
                state.fed_tail = seen[-len(PASTE_START) :]
                return
            end = found + len(PASTE_START) - len(state.fed_tail)
            yield from feed(parser, data[:end])
            state.text, state.pending, state.fed_tail, data = "", "", "", data[end:]
            continue
        seen = state.pending + data
        found = seen.find(PASTE_END)
        if found < 0:
            keep = next((n for n in range(len(PASTE_END) - 1, 0, -1) if seen.endswith(PASTE_END[:n])), 0)
            state.text += seen[: len(seen) - keep]
            state.pending = seen[len(seen) - keep :]
            return
        text, state.text, state.pending, data = state.text + seen[:found], None, "", seen[found + len(PASTE_END) :]
        # Textual's parser closes its own (empty) paste on the end marker: that Paste is not the user's
        yield from (event for event in feed(parser, PASTE_END) if not isinstance(event, events.Paste))
        yield events.Paste(text)
