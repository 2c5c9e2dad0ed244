"""A door's inputs read into a workspace: a preset by name, an answers file, a launch script, a topology.

`new`, `check` and the TUI read their inputs through these functions and get their workspace from
`open_workspace` (the one place the facts gatherer is injected), so that every door fills the same layers
the same way; the order of the calls does not matter, the workspace's precedence does
(wizard.core.workspace). Each function raises UsageError for input that cannot be used, and leaves the
workspace as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizard.core.answers.document import Migration
from wizard.core.presets import load_preset as preset_named
from wizard.core.workspace import Workspace
from wizard.detect.config.answers_file import read_answers
from wizard.detect.facts import gather
from wizard.detect.hardware.source import load_topology
from wizard.detect.script.importer import import_script as migrate
from wizard.detect.script.importer import parse_import_spec
from wizard.i18n.text import Msg


def open_workspace(mode: str = "cluster", facts: Mapping[str, Any] | None = None) -> Workspace:
    """An empty workspace that learns about this machine through wizard.detect.facts."""
    return Workspace(gather=gather, mode=mode, facts=facts)


def load_preset(workspace: Workspace, name: str | None) -> None:
    """Put a shipped preset (by name; None: no preset) into the preset layer."""
    workspace.use_preset(name, preset_named(name).values if name is not None else None)


def load_answers(workspace: Workspace, path: str) -> None:
    """Put an answers file (its values, their recorded origins, its migration) into the answers-file layer;
    the topology it records is planned for again unless the door was given one (`--topology`, the Hardware step)."""
    record = read_answers(path)
    workspace.use_answers(record)
    if record.topology is not None and workspace.topology_spec is None:
        use_topology(workspace, record.topology)


def import_script(
    workspace: Workspace, path: str, env: dict[str, str] | None = None, args: list[str] | None = None
) -> list[str | Msg]:
    """Carry a launch script over to verl 0.9.1 into the imported-script layer; its notes for the user.

    env and args: the environment and positional arguments the script is read with (`--env`, `-- ARG`);
    without them `path` may carry them itself, as the TUI's import box takes `PATH --env N=V -- ARG...`.
    """
    if env is None and args is None:
        path, env, args = parse_import_spec(path)
    imported = migrate(path, env, args)
    report = imported.run_md()
    migration = Migration(report["source"], *(tuple(report[k]) for k in ("changed", "dropped", "notes")))
    workspace.use_script(imported.flat, migration, imported.unknown)
    return imported.all_notes()


def use_topology(workspace: Workspace, spec: str | None, counts: bool = True) -> None:
    """The topology of `--topology SPEC` (a fake name, a `nvidia-smi topo -m` file, `detect`; None: none)."""
    workspace.use_topology(load_topology(spec) if spec is not None else None, spec, counts=counts)


def read_inputs(
    workspace: Workspace,
    *,
    preset: str | None = None,
    answers: str | None = None,
    script: str | None = None,
    topology: str | None = None,
    script_env: dict[str, str] | None = None,
    script_args: list[str] | None = None,
) -> list[str | Msg]:
    """Every input a door was given, each into its layer; the launch script's notes (none without one)."""
    # None is "not given"; an empty string was given, and its reader refuses it (`--preset ''` is no preset name).
    if preset is not None:
        load_preset(workspace, preset)
    if topology is not None:
        use_topology(workspace, topology)
    if answers is not None:
        load_answers(workspace, answers)
    return import_script(workspace, script, script_env, script_args) if script is not None else []
