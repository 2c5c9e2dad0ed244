"""Where Review's files and ctrl+s's answers go: this machine's disk, or the browser of a served wizard.

The app holds one delivery, chosen when it is built: `DiskDelivery` for a wizard in a terminal,
`BrowserDelivery` for a wizard that `verl-wizard serve` runs for a browser tab (it sets VERL_WIZARD_DELIVERY
for each wizard process it starts). Both take the files from the same function (`Session.render_files`),
so a download holds exactly what a write to disk would.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wizard.i18n import t
from wizard.i18n.text import msg

if TYPE_CHECKING:
    from textual.app import App

    from wizard.tui.session import Session

ENVIRONMENT = "VERL_WIZARD_DELIVERY"  # "browser" in the wizard processes of `verl-wizard serve`


@dataclass(frozen=True)
class Delivered:
    """One download sent to the browser: its file name and, for the zip, the files in it."""

    name: str
    files: tuple[str, ...] = ()
    folder: str | None = None


class DiskDelivery:
    """A wizard in a terminal: Review writes into the output folder, ctrl+s saves the answers file."""

    to_browser = False
    reads_server_files = True

    def save_answers(self, app: App, session: Session, path: str) -> str:
        session.save_answers(path)
        return t("quit.saved", path=path)


class BrowserDelivery:
    """A served wizard: every file goes to the student's browser as a download; nothing is written here.

    Files are never read from this machine on the student's behalf either (an answers file or a launch
    script typed in the browser names a path on the teacher's machine): the teacher passes those to `serve`.
    """

    to_browser = True
    reads_server_files = False

    def deliver_files(self, app: App, session: Session) -> Delivered:
        """Send the files of a write as one zip (`<folder>.zip` holding `<folder>/config.yaml`, ...)."""
        from wizard.emit.bundle import folder_name, zip_files  # zipfile and tempfile: for a download, not at start

        files = session.render_files()
        folder = folder_name(session.out_dir)
        name = f"{folder}.zip"
        app.deliver_binary(
            io.BytesIO(zip_files(folder, files)),
            save_filename=name,
            mime_type="application/zip",
            name=name,
        )
        return Delivered(name, tuple(files), folder)

    def deliver_answers(self, app: App, session: Session, path: str) -> tuple[Delivered, str | None]:
        """Send the answers file; returns what was sent and Textual's delivery key."""
        name = Path(path).name or "verl-wizard-answers.yaml"
        key = app.deliver_text(
            io.StringIO(session.answers_text()),
            save_filename=name,
            mime_type="application/x-yaml",
            encoding="utf-8",
            name=name,
        )
        return Delivered(name), key

    def save_answers(self, app: App, session: Session, path: str) -> str:
        delivered, _ = self.deliver_answers(app, session, path)
        app.delivered.append(delivered)  # type: ignore[attr-defined]  # the wizard's App keeps its downloads
        return str(msg("serve.answers_delivered", name=delivered.name))


def delivery_from_environment(environ: os._Environ | dict | None = None) -> DiskDelivery | BrowserDelivery:
    """The delivery `serve` asked for (VERL_WIZARD_DELIVERY=browser), else the disk."""
    return BrowserDelivery() if is_served(environ) else DiskDelivery()


def is_served(environ: os._Environ | dict | None = None) -> bool:
    """Whether this process is a wizard that `verl-wizard serve` started for a browser tab."""
    environ = os.environ if environ is None else environ
    return environ.get(ENVIRONMENT) == "browser"
