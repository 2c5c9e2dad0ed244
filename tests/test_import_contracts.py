"""The layers of DESIGN.md section 1 hold as import-linter contracts (pyproject.toml), as .ci/run checks them.

core imports none of detect, emit, commands, tui, serve, the CLI (nor textual, pynvml, ray); emit imports no
detect; emit and detect never import tui, commands, serve or the CLI; serve imports no door (commands, the CLI,
wizard.tabs); the TUI never imports commands or the CLI; i18n imports no core rule module and no layer above it.
.ci/run also reads the deployment targets from the package rather than listing them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(*args: str) -> subprocess.CompletedProcess:
    pytest.importorskip("importlinter")
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-logo", "--no-cache", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_contracts_are_kept():
    proc = lint_imports()
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "Contracts: 11 kept, 0 broken." in proc.stdout


def test_emit_imports_no_detect_and_serve_no_door():
    # issue 29: the writer's path check lived in detect, and the fork server imported the CLI and the tui command
    proc = lint_imports("--contract", "emit-not-detect", "--contract", "serve-below-doors")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "Contracts: 2 kept, 0 broken." in proc.stdout


def test_a_broken_layer_is_reported(tmp_path):
    # the neighbour: a contract the tree does not keep (the TUI does import the core) fails
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "wizard"\n\n[[tool.importlinter.contracts]]\n'
        'name = "tui without core"\ntype = "forbidden"\nsource_modules = ["wizard.tui"]\n'
        'forbidden_modules = ["wizard.core"]\n'
    )
    proc = lint_imports(str(config))
    assert proc.returncode != 0 and "BROKEN" in proc.stdout


def test_ci_runs_the_contracts_and_reads_the_targets_from_the_package():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "lint-imports" in ci
    assert "values(Target)" in ci and "kuberay-cluster" not in ci
