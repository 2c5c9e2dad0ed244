"""No module of the wizard but wizard/tui/textual_compat.py touches a private Textual name.

Two checks, for the two ways in: ruff's SLF001 (`obj._name` on another object) over wizard/tui with every
`noqa` ignored, so that no exemption can creep back outside the compat module's per-file ignore; and an
AST scan that ruff does not do: an import from a private Textual module, and in a subclass of a Textual
class a `self._name` (or a method, or a class attribute) that one of its Textual bases defines, which is
using or overriding Textual's internals from the inside.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPAT = "wizard/tui/textual_compat.py"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@cache
def _textual_names(base: type) -> frozenset[str]:
    """The private names a Textual class defines: in its namespace and as `self._name` in its source."""
    names = set(vars(base))
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(base)))
    except (OSError, TypeError, SyntaxError):
        return frozenset(filter(_private, names))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return frozenset(filter(_private, names))


def textual_private_uses(source: str, namespace: dict) -> list[str]:
    """`line: what` for each private Textual name the module source uses; namespace: its top-level names."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        modules = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        private = [m for m in modules if m.split(".")[0] == "textual" and any(map(_private, m.split(".")))]
        if private:
            found.append(f"{node.lineno}: import {private[0]}")
    for statement in tree.body:
        cls = namespace.get(statement.name) if isinstance(statement, ast.ClassDef) else None
        if not isinstance(cls, type):
            continue
        names = frozenset().union(
            *(_textual_names(base) for base in cls.__mro__ if base.__module__.split(".")[0] == "textual")
        )
        for node in statement.body:  # the class's own methods and class attributes
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                defined = [node.name]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined = [target.id for target in targets if isinstance(target, ast.Name)]
            else:
                defined = []
            found += [f"{node.lineno}: {statement.name}.{name}" for name in defined if name in names]
        for node in ast.walk(statement):  # self._name / cls._name anywhere in it
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ) and node.attr in names:
                found.append(f"{node.lineno}: {statement.name}.{node.attr}")
    return found


def wizard_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "wizard").rglob("*.py") if p.relative_to(ROOT).as_posix() != COMPAT)


def test_no_module_but_the_compat_module_touches_textual_internals():
    found = {}
    for path in wizard_modules():
        source = path.read_text(encoding="utf-8")
        if "textual" not in source:
            continue
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        uses = textual_private_uses(source, vars(importlib.import_module(name)))
        if uses:
            found[path.relative_to(ROOT).as_posix()] = uses
    assert found == {}
    assert len([p for p in wizard_modules() if "from textual" in p.read_text(encoding="utf-8")]) > 10  # it looked


SNEAKY = """
from textual._compositor import Compositor
from textual.widgets import OptionList


class Listing(OptionList):
    _placed = None  # the wizard's own name: allowed

    def _on_resize(self, event):  # OptionList's private handler
        self._own = 1
        return len(self._line_cache.lines)
"""


def test_the_scan_finds_private_imports_and_textual_internals_used_from_a_subclass():
    namespace: dict = {}
    exec(compile(SNEAKY.replace("from textual._compositor import Compositor\n", ""), "sneaky", "exec"), namespace)
    found = textual_private_uses(SNEAKY, namespace)
    assert found == ["2: import textual._compositor", "9: Listing._on_resize", "11: Listing._line_cache"]
    plain = SNEAKY.replace("from textual._compositor import Compositor\n", "").replace("_on_resize", "on_resize")
    plain = plain.replace("self._line_cache.lines", "self.options")
    assert textual_private_uses(plain, namespace) == []


def _ruff(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "SLF001", "--ignore-noqa", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
    )


def test_ruff_finds_no_private_access_in_the_tui_even_with_every_noqa_ignored():
    run = _ruff("wizard/tui")
    assert run.returncode == 0, run.stdout


def test_ruff_allows_private_access_in_the_compat_module_alone():
    source = "def f(widget):\n    return widget._line_cache\n"
    elsewhere = _ruff("--stdin-filename", "wizard/tui/widgets/listing.py", "-", stdin=source)
    assert elsewhere.returncode == 1 and "SLF001" in elsewhere.stdout
    assert _ruff("--stdin-filename", COMPAT, "-", stdin=source).returncode == 0
