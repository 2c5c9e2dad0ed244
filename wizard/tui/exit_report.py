"""What the CLI prints after the TUI closes, whichever way it was left: the files written and the launch
command of the folder they went to, the answers saved (and how to resume them), or the downloads of a served
wizard. "Nothing written" only when nothing was."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from wizard.core.answers.model import Answers
from wizard.emit.launch import launch_line, unzip_launch_line
from wizard.i18n import t
from wizard.i18n.text import msg
from wizard.tui.saved_answers import SavedAnswers, kept_out_line

if TYPE_CHECKING:
    from wizard.tui.delivery import Delivered


def exit_report(
    written: list[str],
    out_dir: str,
    answers=None,
    delivered: list[Delivered] | tuple = (),
    saved: SavedAnswers | None = None,
) -> str:
    """The written paths and the launch command of the answers' target, the saved answers, or the downloads."""
    if delivered:
        return delivery_report(delivered, answers)
    lines = []
    if written:
        command = launch_line(answers if answers is not None else Answers(), out_dir)
        lines += [t("exit.written"), *written, t("exit.launch", command=command)]
    if saved is not None:
        lines.append(t("exit.answers", path=saved.path, resume=f"verl-wizard --answers {shlex.quote(saved.path)}"))
        if saved.left_out:
            lines.append(kept_out_line(saved.left_out))
    return "\n".join(lines) if lines else t("exit.nothing")


def delivery_report(delivered: list[Delivered] | tuple, answers=None) -> str:
    """The exit report of a served wizard: what went to the browser (nothing was written on this machine), and
    the launch command of the answers' target once the zip is unpacked."""
    lines = [str(msg("serve.exit_delivered"))]
    for item in delivered:
        lines.append(str(msg("serve.exit_zip", zip=item.name, files=list(item.files))) if item.files else item.name)
    folders = [item.folder for item in delivered if item.folder]
    if folders:
        last = folders[-1]
        # the same line as the served Review shows (the zip's name is the folder's, wizard.emit.bundle)
        lines.append(t("exit.launch", command=unzip_launch_line(answers if answers is not None else Answers(), last)))
    return "\n".join(lines)
