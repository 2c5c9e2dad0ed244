"""Which renderer writes each target's manifest: a renderer registers itself for its target beside its code
(`@renders(Target.SLURM)`), and wizard.emit.manifests looks it up by the target's spec (wizard.core.targets)."""

from __future__ import annotations

from collections.abc import Callable

from wizard.core.answers.model import Answers
from wizard.core.choices import Target
from wizard.core.plan import Plan

# (answers, plan, config.yaml's text) -> the manifest's text
Renderer = Callable[[Answers, Plan, str], str]
RENDERERS: dict[str, Renderer] = {}


def renders(target: Target | str) -> Callable[[Renderer], Renderer]:
    """Register the decorated function as the renderer of `target`'s manifest (one renderer per target)."""
    value = target.value if isinstance(target, Target) else target

    def register(renderer: Renderer) -> Renderer:
        if value in RENDERERS:
            raise ValueError(f"deployment target {value!r} has a renderer already")
        RENDERERS[value] = renderer
        return renderer

    return register
