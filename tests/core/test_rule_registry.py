"""Registries are plain imports: every rule module is registered, and one missing from the package fails loudly.

Until issue 17 the rule, command and fact registries were lists of module names that skipped a module that
could not be imported, so a family lost in packaging would have stopped running without a word.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.core.rules.registry import MODULES

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "wizard" / "core" / "rules"
RULE_MARKS = {"rule", "rule_for"}


def defines_rules(path: Path) -> bool:
    """Whether the module has an engine rule: a function decorated with @rule(...) or @rule_for(...)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    decorators = [d for n in tree.body if isinstance(n, ast.FunctionDef) for d in n.decorator_list]
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id in RULE_MARKS for d in decorators)


def test_every_module_with_rules_is_registered():
    with_rules = {
        ".".join(p.relative_to(RULES_DIR).with_suffix("").parts) for p in RULES_DIR.rglob("*.py") if defines_rules(p)
    }
    registered = {m.__name__.removeprefix("wizard.core.rules.") for m in MODULES}
    assert with_rules == registered and len(registered) >= 9


def test_the_scan_sees_a_rules_module(tmp_path):
    (tmp_path / "x.py").write_text("@rule_for('X-001')\ndef check_x(ctx):\n    pass\n")
    (tmp_path / "y.py").write_text("@emits('X-002', Severity.ERROR, title='', why='')\ndef helper(ctx):\n    pass\n")
    assert defines_rules(tmp_path / "x.py") and not defines_rules(tmp_path / "y.py")


PROBES = {
    "core/rules/roles/assign.py": "from wizard.core.rules import registered; registered()",
    "core/rules/deploy/checks.py": "from wizard.core.rules import registered; registered()",
    "detect/models.py": "from wizard.detect.facts import gather",
    "commands/explain.py": "from wizard.cli import build_parser; build_parser()",
}


def _package_copy(tmp_path: Path, without: str | None) -> Path:
    root = tmp_path / "pkg"
    shutil.copytree(ROOT / "wizard", root / "wizard", ignore=shutil.ignore_patterns("__pycache__"))
    if without:
        (root / "wizard" / without).unlink()
    return root


def _probe(root: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60, env={"PYTHONPATH": ""}
    )


@pytest.mark.parametrize("module", sorted(PROBES))
def test_a_module_missing_from_the_package_is_an_import_error(tmp_path, module):
    proc = _probe(_package_copy(tmp_path, module), PROBES[module])
    name = module.removesuffix(".py").rpartition("/")[2]
    last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    assert proc.returncode != 0 and ("ImportError" in last or "ModuleNotFoundError" in last), proc.stderr
    assert name in last, last


def test_the_whole_package_passes_the_same_probes(tmp_path):
    root = _package_copy(tmp_path, None)
    for code in PROBES.values():
        proc = _probe(root, code)
        assert proc.returncode == 0, proc.stderr
