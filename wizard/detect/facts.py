"""Facts the rules learn from this machine (data files, model configs, paths), gathered for one set of answers.

A door injects `gather` into its workspace (wizard.core.workspace): the core reads nothing itself.
"""

from __future__ import annotations

from typing import Any

from wizard.detect import models, paths
from wizard.detect.data import report as data
from wizard.detect.env import secrets_set as environment

# What the rules can learn from the world besides the answers: (inspect, inputs) per source.
# inspect(answers, mode) -> dict of RuleContext fields (e.g. {"data": ...}); inputs(answers, mode) -> a
# hashable key of everything inspect reads from the answers.
INSPECTORS = (
    (data.inspect_data, data.data_inputs),
    (models.inspect_models, models.model_inputs),
    (paths.inspect_paths, paths.path_inputs),
)
# The TUI's alone: it runs on the machine that will start run.sh, while `new` and `check` often run in CI
# or for a cluster template, where this machine's environment says nothing about the run's.
ENVIRONMENT = ((environment.inspect_env, environment.env_inputs),)


def gather_with_environment(answers, mode: str, cache: dict | None = None) -> dict[str, Any]:
    """gather(), plus which of the run's secret variables are set here (the TUI's facts: DEPLOY-016)."""
    return gather(answers, mode, cache, INSPECTORS + ENVIRONMENT)


def gather(answers, mode: str, cache: dict | None = None, inspectors=None) -> dict[str, Any]:
    """Facts read from local files (data files, model configs, paths) for the rules; nothing is downloaded.

    With ``cache`` (a dict the caller keeps, as the TUI's workspace does across edits) an inspector whose
    inputs did not change since the last call is not run again: a keystroke in a batch field must not
    re-read data files. The caller empties the cache to read the files again.
    """
    facts: dict[str, Any] = {}
    for inspect, inputs in INSPECTORS if inspectors is None else inspectors:
        if cache is None:
            facts.update(inspect(answers, mode))
            continue
        key = inputs(answers, mode)
        hit = cache.get(inspect.__name__)
        if hit is None or hit[0] != key:
            hit = cache[inspect.__name__] = (key, inspect(answers, mode))
        facts.update(hit[1])
    return facts
