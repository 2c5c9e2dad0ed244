"""doctor for one run on one interpreter: what the probe is asked, the probe, and its findings.

One path for every door that runs it: the `doctor` command (any --python) and the TUI's Review ("Check this
machine", the active interpreter); `preflight` asks the same models of every node. The install line is given by
the caller (wizard.emit.install), as the judge takes it (wizard.core.rules.env.packages.Run).
"""

from __future__ import annotations

import os
import re
from typing import Any

from wizard.core.findings import Finding, error
from wizard.core.layers import LayeredAnswers
from wizard.core.rules.catalogue import why
from wizard.core.rules.env.machine import is_hub_id, judge_environment
from wizard.core.rules.env.packages import Run
from wizard.detect.env.probe import DEFAULT_DEADLINE_S, ProbeOutcome, request_for, run_probe
from wizard.i18n.text import msg

DEFAULT_LOCAL_DIR = "checkpoints/${trainer.project_name}/${trainer.experiment_name}"  # verl 0.9.1's default
PROBLEM_KEYS = {
    "timeout": "env.probe.timeout",
    "failed": "env.probe.failed",
    "no_report": "env.probe.no_report",
    "garbled": "env.probe.garbled",
}


def local_dir(flat: dict[str, Any]) -> str:
    """trainer.default_local_dir with its ${trainer.*} interpolations filled, relative to this folder."""
    value = str(flat.get("trainer.default_local_dir") or DEFAULT_LOCAL_DIR)
    return re.sub(r"\$\{(trainer\.[a-z_]+)\}", lambda m: str(flat.get(m.group(1), "run")), value)


def model_ids(answers) -> list[str]:
    """The model paths of the run that are Hugging Face ids (downloaded at start when not cached)."""
    paths = (answers.models.actor_path, answers.models.critic_path, answers.models.reward_model_path)
    return sorted({p for p in paths if is_hub_id(p)})


def probe_problem(outcome: ProbeOutcome) -> list[Finding]:
    """ENV-001 for a probe that gave no report: it hung, stopped, printed nothing or printed garbage."""
    key = PROBLEM_KEYS[outcome.problem or "failed"]
    text = msg(key, python=outcome.python, seconds=outcome.detail, detail=outcome.detail)
    return [error("ENV-001", ["--python"], text, why("ENV-001"))]


def doctor(
    layered: LayeredAnswers, python: str, install_line: str, deadline_s: float = DEFAULT_DEADLINE_S
) -> tuple[list[Finding], dict[str, Any] | None]:
    """(findings, the probe's report or None) for this run on `python` (already resolved)."""
    answers = layered.answers
    request = request_for(model_ids(answers), os.path.join(os.getcwd(), local_dir(layered.flat)))
    outcome = run_probe(python, request, deadline_s=deadline_s)
    if outcome.problem:
        return probe_problem(outcome), None
    run = Run(answers, layered.flat, install_line, str(answers.deploy.target))
    return judge_environment(run, outcome.report), outcome.report
