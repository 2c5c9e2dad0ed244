"""Which secret variables the run needs are set in this machine's environment: names only, never values."""

from __future__ import annotations

import os

from wizard.core.rules.deploy.facts import secret_env_names


def env_inputs(answers, mode: str) -> tuple[str, ...]:
    return tuple(secret_env_names(answers))


def inspect_env(answers, mode: str) -> dict:
    """{"env": the names among the run's secret variables that are set (non-empty) here}."""
    return {"env": frozenset(name for name in secret_env_names(answers) if os.environ.get(name))}
