"""An OptionList that keeps its options' rendered lines when its options are set again.

OptionList throws away every option's rendered lines on `set_options`. The findings list sets its options on
every edit, mostly to Option objects it showed before (each is cached by what it shows and where), so
re-rendering them all is a good part of a keystroke's frame. Rendered lines are cached by Option object and
style and carry the option's index (for clicks); they are kept while the option comes back at the same index.
Relies on OptionList's `_option_render_cache` (Textual 8.2).
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.widgets import OptionList


class KeptOptionsList(OptionList):
    """OptionList whose `set_options` keeps the rendered lines of options shown again at the same index."""

    def set_options(self, options):
        cache = self._option_render_cache
        placed = self.__dict__.setdefault("_placed", {})  # option -> the index its cached lines were made for
        self._option_render_cache = LRUCache(maxsize=cache.maxsize)  # the one set_options clears
        super().set_options(options)
        index_of = self._option_to_index
        if len(placed) > cache.maxsize:  # many options come and go: keep only those shown now
            placed = self.__dict__["_placed"] = {option: at for option, at in placed.items() if option in index_of}
        keep = {option for option, at in placed.items() if index_of.get(option, at) == at}
        for key in cache.keys():
            if key[0] in keep:
                self._option_render_cache[key] = cache.get(key)
        for option in set(placed) - keep:
            del placed[option]
        placed.update(index_of)
        return self
