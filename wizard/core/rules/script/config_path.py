"""SCRIPT-018: a relative --config-path, which Hydra looks for inside verl's package (wizard.core.hydra_config_path)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from wizard.core.findings import Finding, Severity
from wizard.core.hydra_config_path import ENTRY_PACKAGE, bare, is_verls_own, read_in_verl
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule
from wizard.i18n.text import msg


@rule(
    "SCRIPT-018",
    Severity.ERROR,
    title="A relative --config-path",
    why="Hydra reads a relative --config-path against verl's entry point (pkg://verl.trainer/<path> for python -m verl.trainer.main_ppo), never against the folder the script runs in: any folder but verl's own `config` is not found there, and verl stops with 'Primary config directory not found' before anything runs.",
)
def check_relative_config_path(ctx: RuleContext) -> Iterator[Finding]:
    script = ctx.script
    path = getattr(script, "config_path", None)
    if script is None or path is None or getattr(script, "config_path_unknown", None) or not read_in_verl(script):
        return
    written = bare(path)
    if not written or posixpath.isabs(written) or is_verls_own(written):
        return
    looked = posixpath.normpath(posixpath.join(ENTRY_PACKAGE, written))
    yield make_finding("SCRIPT-018", [], msg("script.relative_config_path", path=written, looked=looked))
