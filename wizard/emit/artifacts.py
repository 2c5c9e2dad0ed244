"""Everything a run's folder holds, rendered in one place: preview is this with the write switched off.

Every door writes through `write_workspace` (the TUI's Review step previews `workspace_files`), so the same
answers give the same bytes whether they came through `new`, `new --from-script`, an answers file or edits
in the TUI. Where a value came from is recorded in answers.yaml, not in the other files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from wizard import __version__
from wizard.core.answers.document import MIGRATED, ORIGINS, PROVENANCE, TOPOLOGY, Migration, answers_doc
from wizard.core.findings import Finding
from wizard.core.layers import LayeredAnswers
from wizard.core.plan import Plan
from wizard.core.rules.catalogue import about_this_machine
from wizard.core.workspace import RECORDED
from wizard.emit.manifests import render_manifests
from wizard.emit.run_md import render_run_md
from wizard.emit.run_script import render_run_script
from wizard.emit.verl_config import render_config
from wizard.emit.writer import write_all

if TYPE_CHECKING:
    from wizard.core.workspace import Workspace
    from wizard.emit.writer import WriteResult

OriginOf = Callable[[str], "str | None"]


def render_answers_file(
    layered: LayeredAnswers,
    origin_of: OriginOf | None = None,
    migration: Migration | None = None,
    topology: str | None = None,
) -> str:
    """answers.yaml: the answers that differ from the defaults, where each came from, the migration if any.

    origin_of(address) -> the recorded origin (wizard.core.workspace.Workspace.origin_of); without it, each
    value is recorded by the layer that set it.
    """
    doc = answers_doc(layered.answers, origin_of or _layer_of(layered), migration, topology)
    record = {key: doc.pop(key) for key in (PROVENANCE, MIGRATED, TOPOLOGY) if key in doc}
    text = f"# verl-wizard {__version__} answers; replay with: verl-wizard new --answers answers.yaml --out DIR\n"
    text += yaml.safe_dump(doc, sort_keys=False, allow_unicode=True) if doc else ""
    if PROVENANCE in record:
        text += f"# where each answer came from: {', '.join(ORIGINS)} (set: by you, with --set or an edit)\n"
        text += yaml.safe_dump({PROVENANCE: record[PROVENANCE]}, sort_keys=False, allow_unicode=True)
    if TOPOLOGY in record:
        text += "# the GPUs this run was planned for (--topology); a resume plans for them again\n"
        text += yaml.safe_dump({TOPOLOGY: record[TOPOLOGY]}, sort_keys=False, allow_unicode=True)
    if MIGRATED in record:
        text += "# the launch script this run was carried over from (RUN.md tells the same)\n"
        text += yaml.safe_dump({MIGRATED: record[MIGRATED]}, sort_keys=False, allow_unicode=True, width=10**6)
    return text


def _layer_of(layered: LayeredAnswers) -> OriginOf:
    def origin_of(address: str) -> str | None:
        return RECORDED.get(layered.source_of(address))  # None for a default or a layer of another name

    return origin_of


def render_artifacts(
    layered: LayeredAnswers,
    plan: Plan,
    findings: list[Finding],
    origin_of: OriginOf | None = None,
    migration: Migration | None = None,
    topology: str | None = None,
    lang: str = "en",
) -> dict[str, str]:
    """File name -> text for every artefact of the chosen target; `lang` is RUN.md's language."""
    files = {
        "config.yaml": render_config(layered, plan),
        "run.sh": render_run_script(layered.answers, plan),
        "answers.yaml": render_answers_file(layered, origin_of, migration, topology),
    }
    files.update(render_manifests(layered.answers, plan, files["config.yaml"]))
    files["RUN.md"] = render_run_md(
        layered.answers,
        plan,
        findings,
        [*files, "RUN.md"],
        migrated=migration.as_dict() if migration else None,
        lang=lang,
    )
    return files


def workspace_files(workspace: Workspace, lang: str = "en") -> dict[str, str]:
    """Every file of the workspace's run (runs the rules if they have not run); RUN.md in `lang`."""
    return render_artifacts(
        workspace.layered,
        workspace.ctx.plan,
        [f for f in workspace.findings if not about_this_machine(f.id)],
        workspace.origin_of,
        workspace.migration,
        workspace.topology_spec,
        lang,
    )


def workspace_answers(workspace: Workspace) -> str:
    """The workspace's answers.yaml alone (the TUI's "save the answers"; the rules need not run)."""
    return render_answers_file(workspace.layered, workspace.origin_of, workspace.migration, workspace.topology_spec)


def write_workspace(workspace: Workspace, out_dir: str | Path, force: bool = False, lang: str = "en") -> WriteResult:
    """Write the workspace's files into out_dir, all or none (wizard.emit.writer.write_all): what was written.
    `lang` is RUN.md's language: the TUI gives its interface's, `new` its --lang."""
    return write_all(
        out_dir, workspace_files(workspace, lang), force=force
    )  # a str as given: `--out ""` is refused there
