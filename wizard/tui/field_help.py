"""What F1 shows for the focused control: a field's help wherever focus is inside its row (the input, a
switch, a select and its open overlay), and a short word on each control that belongs to no field."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.widget import Widget

from wizard.core.field_keys import field_help, specs
from wizard.i18n import t, term
from wizard.tui.widgets.field_row import label_of, show_value

# Controls that are not fields: (title key, help key), found by the id of the control or one around it.
CONTROLS = {
    "check-local": ("data.check_local", "help.check_local"),
    "preset-list": ("start.preset", "help.preset_list"),
    "answers-path": ("start.answers", "help.answers_path"),
    "load-answers": ("start.answers", "help.answers_path"),
    "script-path": ("start.import", "help.script_path"),
    "import-script": ("start.import", "help.script_path"),
    "language": ("start.language", "help.language"),
    "out-dir": ("review.out", "help.out_dir"),
    "write": ("review.write", "help.write"),
    "verl-run": ("review.verl_ask", "help.verl_run"),
    "step-nav": ("help.steps", "help.step_nav"),
}


def _chain(focused: Widget | None) -> list[DOMNode]:
    return [focused, *focused.ancestors] if focused is not None else []


def help_for(app, focused: Widget | None) -> tuple[str, str]:
    """The help dialog's title and body for the focused widget."""
    chain = _chain(focused)
    row = next((a for a in chain if hasattr(a, "field_name")), None)
    if row is not None:
        return _field_help(app, row)
    control = next((a.id for a in chain if getattr(a, "id", None) in CONTROLS), None)
    if control is None:
        return t("key.help"), t("help.none")
    title, body = CONTROLS[control]
    return t("help.title", field=t(title)), t(body)


def _field_help(app, row) -> tuple[str, str]:
    spec = specs()[row.field_name]
    key = spec.verl or spec.name
    source = t("source." + app.session.source_of(spec.name))
    shown = getattr(row.input_widget, "value", None)  # the whole text on screen, however narrow the input
    value = shown if isinstance(shown, str) else show_value(app.session.value(spec.name))
    facts = "\n".join(
        (t("help.value", value=value or "-"), t("help.key", verl_key=key), t("help.source", source=source))
    )
    return t("help.title", field=label_of(spec.name)), f"{term(spec.help_key, field_help(spec.name))}\n\n{facts}"
