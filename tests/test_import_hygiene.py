"""Boundaries: core/, detect/ and emit/ never import Textual; start-up imports no heavy library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PURE = ["wizard/core", "wizard/detect", "wizard/emit"]
HEAVY = ("ray", "torch", "pyarrow", "transformers", "textual", "pynvml")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("folder", PURE)
def test_pure_layers_never_import_textual(folder):
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*.py") if "textual" in imported_modules(p)]
    assert offenders == []


def test_core_never_imports_nvml_or_ray():
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "wizard/core").rglob("*.py")
        if imported_modules(p) & {"pynvml", "ray"}
    ]
    assert offenders == []


def test_the_rules_never_look_at_the_file_system():
    # whether a path exists, or where ~ leads, reaches the rules as a fact (wizard.detect.paths)
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "wizard/core/rules").rglob("*.py")
        if imported_modules(p) & {"os", "pathlib", "glob", "shutil"}
    ]
    assert offenders == []


def test_the_hygiene_check_can_fail(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from textual.app import App\n")
    assert "textual" in imported_modules(bad)


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "--preset", "grpo-8b-1x8", "--out", "{out}", "--force"],
        ["check", "{out}/config.yaml", "--mode", "cluster"],
    ],
)
def test_headless_commands_import_no_heavy_library(argv, tmp_path):
    argv = [a.replace("{out}", str(tmp_path)) for a in argv]
    if argv[0] == "check":
        subprocess.run(
            [sys.executable, "-m", "wizard", "new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path)],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
    code = (
        "import sys, runpy\n"
        f"sys.argv = ['verl-wizard'] + {argv!r}\n"
        "try:\n    runpy.run_module('wizard', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        f"loaded = sorted(m for m in {HEAVY!r} if m in sys.modules)\n"
        "print('LOADED', loaded)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "LOADED []" in proc.stdout, proc.stdout + proc.stderr
