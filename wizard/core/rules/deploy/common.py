"""What the DEPLOY checks share: where a finding points (the answer, or the manifest that was read back), the
fix that drops variables from deploy.env, and whether the run spans more than one node."""

from __future__ import annotations

from wizard.core.findings import Fix
from wizard.core.rules.deploy.facts import gpu_nodes_needed, pairs


def env_without(ctx, names) -> list[str]:
    return [f"{k}={v}" for k, v in pairs(ctx.answers.deploy.env).items() if k not in names]


def env_fix(ctx, facts, names, label, extra=None):
    """A fix that drops `names` from deploy.env; only where the answers are what is rendered."""
    if facts.origin != "answers" or not any(k in names for k in pairs(ctx.answers.deploy.env)):
        return []
    return [Fix({"deploy.env": env_without(ctx, names), **(extra or {})}, label)]


def finding_paths(facts, default: str) -> list[str]:
    return [default] if facts.origin == "answers" else [f"{facts.source}"]


def places(wheres) -> list:
    """Each place once, in order (a place is a message or a name; equal ones are the same place)."""
    return list(dict.fromkeys(wheres))


def multi_node(ctx, facts) -> bool:
    return ctx.plan.nnodes > 1 or gpu_nodes_needed(ctx.plan) > 1 or facts.nodes > 1
