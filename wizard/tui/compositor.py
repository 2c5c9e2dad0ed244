"""A compositor whose partial updates render only the widgets under what changed.

Textual repaints a frame by cropping the screen to the rectangle around every changed region and asking
each widget in that rectangle for its lines. After an edit the changed regions are the field, the step's
derived view, the step list's mark and the findings panel: their bounding rectangle is most of the screen,
so every field row's label, input and source badge is asked for its (unchanged) lines too, several ms a
keystroke. Only the changed regions are written to the terminal, and a widget that overlaps none of them
contributes nothing to them; this compositor leaves those widgets out of the partial update.
Relies on Textual 8.2's Compositor (`render_partial_update`, `visible_widgets`); full updates are unchanged.
"""

from __future__ import annotations

from textual._compositor import Compositor  # noqa: PLC2701 - see the module's docstring
from textual.geometry import Region


class DirtyRegionCompositor(Compositor):
    """Compositor: a partial update renders the widgets that overlap a changed region, and no others."""

    def render_partial_update(self):
        dirty = list(self._dirty_regions)
        if not dirty:
            return super().render_partial_update()
        visible = self.visible_widgets
        self.cuts  # noqa: B018 - where widgets start and end on each line: computed from every widget, not the few below
        intersection = Region.intersection
        overlapping = {}
        for widget, (region, clip) in visible.items():
            shown = intersection(region, clip)
            if any(shown.overlaps(changed) for changed in dirty):
                overlapping[widget] = (region, clip)
        self._visible_widgets = overlapping
        try:
            return super().render_partial_update()
        finally:
            if self._visible_widgets is overlapping:  # not reset meanwhile by a new arrangement
                self._visible_widgets = visible
