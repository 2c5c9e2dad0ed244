"""`--verl PYTHON|auto` and `--timeout S` of `check` and `new`: ask the verl that runs for its own verdict.

The interpreter is resolved and started first (a missing one is exit 2 before anything is read), so that verl's
import runs while the wizard reads the input; it is given its question (wizard.detect.env.verl_verdict) and answers
while the wizard's own rules run, and its verdict becomes VERL-* findings
(wizard.core.rules.verl.verdict) that join the wizard's, plus a note when verl accepts the config.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from wizard.core.rules.verl.verdict import accepted, judge_verl
from wizard.detect.env import verl_verdict
from wizard.detect.env.verl_verdict import Asking, Question
from wizard.detect.script.check_input import config_folder
from wizard.emit.verl_config import render_config
from wizard.i18n.text import msg


def python_of(args: argparse.Namespace) -> str | None:
    """The interpreter --verl names (None without --verl); UsageError for one that is not there or has no verl."""
    value = getattr(args, "verl", None)
    return None if value is None else verl_verdict.find_python(value)


def question_for(source, path: Path, env: dict[str, str], workspace) -> Question:
    """What verl is asked about what `check` read: a launch script's command, a config file, or (an answers file)
    the config.yaml the wizard writes from the workspace's answers."""
    if source.script is not None:
        script = source.script
        folder = Path(script.config_dir) if script.config_dir else config_folder(script, path, env)
        return verl_verdict.for_script(script, folder)
    if source.kind == "answers file":
        return written_config(workspace)
    if source.kind in ("wizard config", "composed config"):
        return verl_verdict.for_config(path)
    return Question(None, not_asked=msg("verl.not_asked.no_command", path=str(path)))


def written_config(workspace) -> Question:
    """The config.yaml `new` writes from the workspace's answers, composed as run.sh runs it."""
    return verl_verdict.for_config_text(render_config(workspace.layered, workspace.plan))


def start(args: argparse.Namespace) -> Asking | None:
    """Start the --verl interpreter now (None without --verl); UsageError for one that is not there or cannot run."""
    python = python_of(args)
    return None if python is None else verl_verdict.ask(python, args.timeout)


def send(asking: Asking | None, question_of) -> None:
    """Give verl its question; `question_of` makes it only when --verl was given."""
    if asking is not None:
        asking.send(question_of())


def stop(asking: Asking | None) -> None:
    """Stop a child that never got its question (the command ended early); nothing once it has one."""
    if asking is not None:
        asking.stop()


def finish(asking: Asking | None) -> tuple[list, dict | None, list]:
    """(VERL-* findings, the verdict as data for JSON's `verl`, notes) once verl has answered."""
    if asking is None:
        return [], None, []
    verdict = asking.result()
    facts = verdict.facts()
    note = accepted(facts)
    return judge_verl(facts, verdict.question.not_asked), facts, [note] if note is not None else []
