"""The line under a field whose value an imported launch script leaves unknown (issue 32 item 2).

`check` and `new --from-script` print a note per unknown variable; the TUI says it where the value is
edited: what the script reads, and the two ways to give it (type it here, or import again with --env)."""

from __future__ import annotations

import shlex

from wizard.core.unknowns import ENV
from wizard.i18n import t
from wizard.tui.steps import field_for


def unknown_lines(workspace) -> dict[str, str]:
    """Field name -> the line under it, for the imported script's keys no edit has given yet."""
    unknown = workspace.script_unknown
    if not unknown:
        return {}
    migration = workspace.migration
    path = shlex.quote(migration.source) if migration is not None else "PATH"
    lines: dict[str, str] = {}
    for address, origins in unknown.items():
        field = field_for(address)
        if field is None:
            continue  # no step offers it: the Start step's import status says it
        parts = [
            t("field.unknown_env", name=o.name, path=path)
            if o.kind == ENV
            else t("field.unknown_other", shown=o.shown())
            for o in sorted(origins)
        ]
        lines[field] = " · ".join(dict.fromkeys(parts))
    return lines
