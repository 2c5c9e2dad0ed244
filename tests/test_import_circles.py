"""Issue 29: no import circles, and a deferred import of our own modules only where it buys start-up, saying why.

Measured with scripts/house_counts.py (in-function imports counted as edges). The rule registry (wizard/core/rules)
and the TUI (wizard/tui) answer for their own deferred imports; the rest of the package is checked here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN_LATER = ("wizard/core/rules/", "wizard/tui/")  # their deferred imports are the registry's and the TUI's


def house_counts():
    spec = importlib.util.spec_from_file_location("house_counts", ROOT / "scripts" / "house_counts.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("house_counts", module)
    spec.loader.exec_module(module)
    return module


def test_no_import_circles_outside_the_rules_and_the_tui():
    counts = house_counts()
    _, edges, _ = counts.scan(ROOT / "wizard")
    circles = [
        g for g in counts.circles(edges) if not all(m.startswith(("wizard.core.rules", "wizard.tui")) for m in g)
    ]
    assert circles == []


def test_every_deferred_own_import_says_why():
    _, _, deferred = house_counts().scan(ROOT / "wizard")
    silent = []
    for path, line, target in deferred:
        if path.startswith(OWN_LATER):
            continue
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        said = lines[line - 1] + lines[line - 2] + (lines[line - 3] if line > 2 else "")
        if "# deferred" not in said:
            silent.append(f"{path}:{line} -> {target}")
    assert silent == []


def test_the_circle_finder_finds_one(tmp_path):
    # the neighbour: two modules that import each other inside functions are one circle
    package = tmp_path / "wizard"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from wizard import b\n")
    (package / "b.py").write_text("def g():\n    from wizard.a import f\n")
    counts = house_counts()
    old_root = counts.ROOT
    counts.ROOT = tmp_path
    try:
        _, edges, deferred = counts.scan(package)
    finally:
        counts.ROOT = old_root
    assert counts.circles(edges) == [["wizard.a", "wizard.b"]]
    assert len(deferred) == 2
