"""Where focus lands when a step is shown: its first visible field (else its first control), so typing
goes into the step at once; Tab then runs through the fields, the step's other controls and the findings,
and reaches the step list last.

The step opens at its top (intro, chain, matrix), so a first field below the fold would take keys out of
sight (Hardware: the link matrix and the budgets come first). Once the step is laid out, such a field gives
the focus to the step's first control instead (Hardware's topology), which the user sees.
"""

from __future__ import annotations

from wizard.tui.widgets.step_nav import StepNav

AUTO = "_auto_focused"  # the widget this module focused on the screen, so that a later call may revise it


def focus_first_field(screen) -> None:
    """Focus the step's first visible field unless the user already chose something on this screen."""
    focused = screen.focused
    if focused is not None and not isinstance(focused, StepNav) and focused is not getattr(screen, AUTO, None):
        return  # a step shown again keeps its focus; a jump to a field focuses that field
    body = screen.query_one("#step-body")
    first = next((w for w in body.query("*") if w.focusable), None)
    target = next((row.input_widget for row in screen.rows() if row.display), first)
    if target is not None and first is not None and _below_the_fold(target, body):
        target = first
    if target is not None:
        # No scroll: the step opens at its top, the same on every run and release.
        target.focus(scroll_visible=False)
        setattr(screen, AUTO, target)


def _below_the_fold(widget, body) -> bool:
    # Before the first layout a widget has no region yet: nothing is known, the field stays the choice.
    region = widget.region
    return bool(region) and bool(body.region) and region.bottom > body.region.bottom
