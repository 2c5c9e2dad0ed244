"""The TUI's workspace: what the screens read and change, with the output folder the Review step names.

No Textual here, and no answers logic either: a Session is a wizard.core.workspace.Workspace (the layers,
their precedence, the edits, the findings) whose inputs are read by wizard.detect.inputs and whose files
are rendered and written by wizard.emit.artifacts, the same functions `new` calls. Pilot tests and
benchmarks drive the same object.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from wizard.core.workspace import Workspace
from wizard.detect import inputs
from wizard.detect.facts import gather_with_environment
from wizard.errors import UsageError
from wizard.i18n import language


class Session(Workspace):
    """One wizard run: a workspace that learns about this machine, and the folder Review writes into."""

    def __init__(self, out_dir: str = "verl-run", mode: str = "cluster") -> None:
        super().__init__(gather=gather_with_environment, mode=mode)
        self.out_dir = out_dir
        self.write_notes: list[str] = []  # the last write's word on files of an earlier set

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
        inputs.use_topology(self, spec)

    def _load(self, read, what):
        kept, self.edits = self.edits, {}
        try:
            return read(self, what)
        except UsageError:
            self.edits = kept  # the layers did not change either: the workspace is as it was
            raise

    # -- the Review step ------------------------------------------------------------------------------
    def render_files(self) -> dict[str, str]:
        """The files a write gives; RUN.md in the interface's language (given to the writer as data)."""
        from wizard.emit.artifacts import workspace_files

        return workspace_files(self, language())

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
        from wizard.emit.artifacts import write_workspace

        if self.blocked:
            raise UsageError(f"{len(self.errors())} error(s) block writing")
        result = write_workspace(self, self.out_dir, force=force, lang=language())
        self.write_notes = result.notes()  # files of an earlier set: removed or kept, said after the write
        return result.written

    def save_answers(self, path: str) -> None:
        from wizard.emit.artifacts import workspace_answers
        from wizard.emit.writer import write_atomic

        write_atomic(Path(path), workspace_answers(self))
