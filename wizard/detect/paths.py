"""Local paths the answers name, looked up on this machine: whether each exists, and what ~ expands to.

`inspect_paths(answers, mode)` is an inspector of wizard.detect.facts.gather: it fills RuleContext.paths
(wizard.core.paths.LocalPath per path). Existence is looked up in local mode only; in cluster mode the
paths are meant for another machine.
"""

from __future__ import annotations

import os
from typing import Any

from wizard.core.paths import LocalPath


def named_paths(answers) -> list[str]:
    """The model, reward-function and data paths of the answers, each once."""
    m, d = answers.models, answers.data
    paths = [m.actor_path, m.critic_path, m.reward_model_path, m.custom_reward_path]
    for files in (d.train_files, d.val_files):
        paths += [files] if isinstance(files, str) else list(files or [])
    return list(dict.fromkeys(p for p in paths if isinstance(p, str) and p))


def path_inputs(answers, mode: str) -> tuple:
    """Everything inspect_paths reads (a cache key): the mode, the paths, and the home folder ~ means."""
    return (mode, tuple(named_paths(answers)), os.path.expanduser("~"))


def inspect_paths(answers, mode: str) -> dict[str, Any]:
    """{"paths": {path: LocalPath}} for every path the answers name."""
    facts = {}
    for path in named_paths(answers):
        expanded = os.path.expanduser(path) if path.startswith("~") else None
        exists = os.path.exists(path) if mode == "local" and not path.startswith("~") else None
        facts[path] = LocalPath(exists=exists, expanded=expanded)
    return {"paths": facts}
