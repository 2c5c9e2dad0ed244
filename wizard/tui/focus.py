"""Where focus lands when a step is shown: its first visible field (else its first control), so typing
goes into the step at once; Tab then runs through the fields, the step's other controls and the findings,
and reaches the step list last."""

from __future__ import annotations


def focus_first_field(screen) -> None:
    """Focus the step's first visible field unless the user already chose something on this screen."""
    from wizard.tui.widgets.step_nav import StepNav

    focused = screen.focused
    if focused is not None and not isinstance(focused, StepNav):
        return  # a step shown again keeps its focus; a jump to a field focuses that field
    for row in screen.rows():
        if row.display:
            # No scroll: the step opens at its top (intro, chain, matrix), the same on every run and release.
            row.input_widget.focus(scroll_visible=False)
            return
    body = screen.query_one("#step-body")
    first = next((w for w in body.query("*") if w.focusable), None)
    if first is not None:
        first.focus(scroll_visible=False)
