"""The TUI's session: the workspace the screens read and change, with the output folder the Review step names.

No Textual here, and no answers logic either: a Session holds a wizard.core.workspace.Workspace (the layers,
their precedence, the edits, the findings) whose inputs are read by wizard.detect.inputs and whose files
are rendered and written by wizard.emit.artifacts, the same functions `new` calls. Pilot tests and
benchmarks drive the same object. What the screens use of the workspace is named here, one line each.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from wizard.core.findings import Finding, Fix
from wizard.core.workspace import Workspace
from wizard.detect import inputs
from wizard.detect.facts import gather_with_environment
from wizard.emit.writer import write_atomic
from wizard.errors import UsageError
from wizard.i18n import language


class Session:
    """One wizard run: a workspace that learns about this machine, and the folder Review writes into."""

    def __init__(self, out_dir: str = "verl-run", mode: str = "cluster") -> None:
        self.workspace = Workspace(gather=gather_with_environment, mode=mode)
        self.out_dir = out_dir
        self.write_notes: list[str] = []  # the last write's word on files of an earlier set

    @classmethod
    def from_inputs(
        cls, out_dir: str, preset: str | None = None, answers: str | None = None, topology: str | None = None
    ) -> Session:
        """A session whose workspace holds the door's inputs (`verl-wizard tui --preset/--answers/--topology`)."""
        session = cls(out_dir=out_dir)
        inputs.read_inputs(session.workspace, preset=preset, answers=answers, topology=topology)
        return session

    # -- what the steps show ---------------------------------------------------------------------------
    def value(self, address: str) -> Any:
        return self.workspace.value(address)

    def source_of(self, address: str) -> str:
        return self.workspace.source_of(address)

    def rejected_at(self, address: str) -> tuple[str, Any] | None:
        return self.workspace.rejected_at(address)

    @property
    def layered(self):
        return self.workspace.layered

    @property
    def plan(self):
        return self.workspace.plan

    @property
    def ctx(self):
        return self.workspace.ctx

    @property
    def findings(self) -> list[Finding]:
        return self.workspace.findings

    @property
    def evaluated(self) -> bool:
        return self.workspace.evaluated

    @property
    def blocked(self) -> bool:
        return self.workspace.blocked

    def errors(self) -> list[Finding]:
        return self.workspace.errors()

    @property
    def topology(self):
        return self.workspace.topology

    @property
    def topology_spec(self) -> str | None:
        return self.workspace.topology_spec

    @property
    def preset(self) -> str | None:
        return self.workspace.preset

    @property
    def mode(self) -> str:
        return self.workspace.mode

    def unknown_notes(self) -> list:
        return self.workspace.unknown_notes()

    # -- edits -----------------------------------------------------------------------------------------
    def set(self, address: str, value: Any) -> None:
        """One edit (UsageError for a value the field does not take; nothing changes then)."""
        self.workspace.set(address, value)

    def empty(self, address: str) -> None:
        self.workspace.empty(address)

    def reject(self, address: str, text: str, reason: Any) -> None:
        self.workspace.reject(address, text, reason)

    def apply_fix(self, fix: Fix) -> None:
        self.workspace.apply_fix(fix)

    def set_mode(self, mode: str) -> None:
        self.workspace.set_mode(mode)

    def refresh(self, rebuild: bool = True) -> None:
        """Read everything again (files, models, the machine); the rules run when next asked for."""
        self.workspace.refresh(rebuild)

    # -- the Start and Hardware steps ----------------------------------------------------------------
    def load_preset(self, name: str | None) -> None:
        """Start from a preset (None: blank); the edits so far go."""
        self._load(inputs.load_preset, name)

    def load_answers(self, path: str) -> None:
        """Resume from an answers file; the edits so far go."""
        self._load(inputs.load_answers, path)

    def load_script(self, path: str) -> list[str]:
        """Import an old or forked launch script (carried over to verl 0.9.1); the edits so far go. Its notes."""
        return self._load(inputs.import_script, path)

    def set_topology(self, spec: str | None) -> None:
        """Plan for a fake name, a `nvidia-smi topo -m` file or `detect` (None: no topology); edits stay."""
        inputs.use_topology(self.workspace, spec)

    def _load(self, read, what):
        workspace = self.workspace
        kept, workspace.edits = workspace.edits, {}
        try:
            return read(workspace, what)
        except UsageError:
            workspace.edits = kept  # the layers did not change either: the workspace is as it was
            raise

    # -- the Review step ------------------------------------------------------------------------------
    def render_files(self) -> dict[str, str]:
        """The files a write gives; RUN.md in the interface's language (given to the writer as data)."""
        return _artifacts().workspace_files(self.workspace, language())

    def file_states(self) -> dict[str, str]:
        """File name -> "new" | "same" | "changed" against what is in out_dir now."""
        out = Path(self.out_dir)
        states = {}
        for name, text in self.render_files().items():
            path = out / name
            states[name] = (
                "new"
                if not path.exists()
                else ("same" if path.is_file() and path.read_bytes() == text.encode() else "changed")
            )
        return states

    def diff(self, name: str) -> str:
        path = Path(self.out_dir) / name
        old = path.read_text(encoding="utf-8", errors="replace") if path.is_file() else ""
        new = self.render_files()[name]
        return "".join(
            difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"{name} (on disk)", f"{name} (new)")
        )

    def write(self, force: bool = False) -> list[str]:
        if self.blocked:
            raise UsageError(f"{len(self.errors())} error(s) block writing")
        result = _artifacts().write_workspace(self.workspace, self.out_dir, force=force, lang=language())
        self.write_notes = result.notes()  # files of an earlier set: removed or kept, said after the write
        return result.written

    def answers_text(self) -> str:
        """The answers file of this session (answers.yaml), replayable with `new --answers`."""
        return _artifacts().workspace_answers(self.workspace)

    def save_answers(self, path: str) -> None:
        write_atomic(Path(path), self.answers_text())


def _artifacts():
    # yaml and the emitters load at the first render (Review, a write), not before a start's first findings
    from wizard.emit import artifacts

    return artifacts
