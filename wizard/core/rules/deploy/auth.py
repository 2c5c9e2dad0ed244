"""DEPLOY-012: Ray's token authentication set the same way everywhere a Ray process starts or connects (the
head, every worker group, the driver), with a token source at each, never through deploy.env, and only on a
Ray release that has it."""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import emits, make_finding
from wizard.core.rules.deploy.common import env_fix, finding_paths, multi_node
from wizard.core.rules.deploy.facts import AUTH_VARS, DeployFacts, pairs
from wizard.core.targets import spec
from wizard.i18n.text import msg


def _auth_parties(facts):
    parties = [(g.where or g.role, g.auth_mode, g.token_source) for g in facts.groups]
    if facts.groups or spec(facts.target).submits_job:
        parties.append((facts.driver_where, facts.driver_auth_mode, facts.driver_token_source))
    return parties


@emits(
    "DEPLOY-012",
    Severity.ERROR,
    title="Ray token authentication differs between head, workers and driver",
    why="Ray 2.5x token authentication (on whenever a token exists where ray start --head runs) refuses every process whose RAY_AUTH_MODE or token differs from the head's; the driver or worker retries and fails after a long wait with only 'Failed to connect'.",
)
def check_auth(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    d = ctx.answers.deploy
    set_in_env = [k for k in pairs(d.env) if k in AUTH_VARS] if facts.origin == "answers" else []
    if set_in_env:
        yield make_finding(
            "DEPLOY-012",
            ["deploy.env", "deploy.auth_mode"],
            msg("deploy.auth_in_env", names=set_in_env, mode=d.auth_mode),
            env_fix(ctx, facts, AUTH_VARS, msg("deploy.fix.auth_mode")),
        )
        return
    if facts.origin == "answers" and spec(facts.target).kuberay and d.auth_mode == "token":
        major, minor = (int(x) for x in d.ray_version.split(".")[:2])
        if (major, minor) < (2, 52):
            yield make_finding(
                "DEPLOY-012",
                ["deploy.ray_version", "deploy.auth_mode"],
                msg("deploy.auth_old_ray", version=d.ray_version),
                [Fix({"deploy.auth_mode": "disabled"}, msg("deploy.fix.no_auth"))],
            )
    if facts.origin == "cluster" or spec(facts.target).starts_ray:
        return  # a live cluster's auth is tried by connecting; with local/k8s-job verl starts Ray itself: one process tree
    parties = _auth_parties(facts)
    if len(parties) < 2:
        return
    modes = {mode or "unset" for _, mode, _ in parties}
    if modes == {"unset"} and spec(facts.target).script_cluster and multi_node(ctx, facts):
        yield make_finding("DEPLOY-012", finding_paths(facts, "deploy.auth_mode"), msg("deploy.auth_nowhere"))
        return
    if len(modes) > 1:
        shown = [msg("deploy.party", where=where, value=mode or msg("deploy.mode_unset")) for where, mode, _ in parties]
        yield make_finding(
            "DEPLOY-012", finding_paths(facts, "deploy.auth_mode"), msg("deploy.auth_modes_differ", modes=shown)
        )
        return
    if modes == {"token"}:
        missing = [where for where, _, source in parties if not source]
        sources = {source for _, _, source in parties if source}
        if missing or len(sources) > 1:
            message = (
                msg("deploy.token_missing", places=missing)
                if missing
                else msg(
                    "deploy.token_sources_differ",
                    sources=[msg("deploy.party", where=w, value=s) for w, _, s in parties],
                )
            )
            yield make_finding("DEPLOY-012", finding_paths(facts, "deploy.auth_mode"), message)
