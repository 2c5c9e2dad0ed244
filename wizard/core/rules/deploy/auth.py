"""DEPLOY-012: Ray's token authentication set the same way everywhere a Ray process starts or connects (the
head, every worker group, the driver), with a token source at each, never through deploy.env, and only on a
Ray release that has it."""

from __future__ import annotations

from wizard.core.findings import Fix, error
from wizard.core.rules.catalogue import why
from wizard.core.rules.deploy.common import env_fix, finding_paths, multi_node
from wizard.core.rules.deploy.facts import AUTH_VARS, pairs
from wizard.core.targets import spec
from wizard.i18n.text import msg


def _auth_parties(facts):
    parties = [(g.where or g.role, g.auth_mode, g.token_source) for g in facts.groups]
    if facts.groups or spec(facts.target).submits_job:
        parties.append((facts.driver_where, facts.driver_auth_mode, facts.driver_token_source))
    return parties


def check_auth(ctx, facts):
    d = ctx.answers.deploy
    set_in_env = [k for k in pairs(d.env) if k in AUTH_VARS] if facts.origin == "answers" else []
    if set_in_env:
        yield error(
            "DEPLOY-012",
            ["deploy.env", "deploy.auth_mode"],
            msg("deploy.auth_in_env", names=set_in_env, mode=d.auth_mode),
            why("DEPLOY-012"),
            env_fix(ctx, facts, AUTH_VARS, msg("deploy.fix.auth_mode")),
        )
        return
    if facts.origin == "answers" and spec(facts.target).kuberay and d.auth_mode == "token":
        major, minor = (int(x) for x in d.ray_version.split(".")[:2])
        if (major, minor) < (2, 52):
            yield error(
                "DEPLOY-012",
                ["deploy.ray_version", "deploy.auth_mode"],
                msg("deploy.auth_old_ray", version=d.ray_version),
                why("DEPLOY-012"),
                [Fix({"deploy.auth_mode": "disabled"}, msg("deploy.fix.no_auth"))],
            )
    if facts.origin == "cluster" or spec(facts.target).starts_ray:
        return  # a live cluster's auth is tried by connecting; with local/k8s-job verl starts Ray itself: one process tree
    parties = _auth_parties(facts)
    if len(parties) < 2:
        return
    modes = {mode or "unset" for _, mode, _ in parties}
    if modes == {"unset"} and spec(facts.target).script_cluster and multi_node(ctx, facts):
        yield error(
            "DEPLOY-012",
            finding_paths(facts, "deploy.auth_mode"),
            msg("deploy.auth_nowhere"),
            why("DEPLOY-012"),
        )
        return
    if len(modes) > 1:
        shown = [msg("deploy.party", where=where, value=mode or msg("deploy.mode_unset")) for where, mode, _ in parties]
        yield error(
            "DEPLOY-012",
            finding_paths(facts, "deploy.auth_mode"),
            msg("deploy.auth_modes_differ", modes=shown),
            why("DEPLOY-012"),
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
            yield error(
                "DEPLOY-012",
                finding_paths(facts, "deploy.auth_mode"),
                message,
                why("DEPLOY-012"),
            )
