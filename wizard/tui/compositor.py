"""A compositor whose partial updates render only the widgets that show in what changed.

Textual repaints a frame by cropping the screen to the rectangle around every changed region and asking
each widget in that rectangle for its lines. After an edit the changed regions are the field, the step's
derived view, the step list's mark and the findings panel: their bounding rectangle is most of the screen,
so every field row's label, input and source badge, and every container behind them, is asked for its
(unchanged) lines, several ms a keystroke. Only the changed regions are written to the terminal, and there a
widget paints every cell of its region, so a widget shows in a changed region only if it overlaps it and no
widget in front of it covers the region whole. This compositor renders only those widgets for a partial
update. Relies on Textual 8.2's Compositor (`render_partial_update`, `visible_widgets` in front-to-back
order); full updates are unchanged.
"""

from __future__ import annotations

from textual._compositor import Compositor
from textual.geometry import Region


class DirtyRegionCompositor(Compositor):
    """Compositor: a partial update renders the widgets that show in a changed region, and no others."""

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
