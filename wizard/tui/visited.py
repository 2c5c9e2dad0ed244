"""Which steps the user has seen: a finding of a step not shown yet is "to do", not a failure (issue 18 item 19).

A step counts as seen once its screen is shown (Start at launch, whatever the preset or answers file);
Review shows every finding as it is, so reaching it counts as seeing every step. Writing is blocked by
errors whatever was seen: this only changes how findings look."""

from __future__ import annotations

from functools import lru_cache

from wizard.core.findings import Finding
from wizard.tui.steps import STEPS, step_of


@lru_cache(maxsize=2048)
def step_at(path: str) -> str:
    """step_of, cached: the panel and the step list ask for every finding on every keystroke."""
    return step_of(path)


def see(visited: set[str], step: str) -> None:
    """Record that this step is on screen."""
    visited.update(STEPS if step == "review" else (step,))


def to_do(finding: Finding, visited: set[str] | frozenset[str]) -> bool:
    """Whether this finding belongs to a step the user has not shown yet."""
    return bool(finding.paths) and step_at(finding.paths[0]) not in visited
