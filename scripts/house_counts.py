"""Counts that say how easy the code is to change (issue 29), measured from the source with `ast`.

    python scripts/house_counts.py [--json]

- circles: strongly connected groups of wizard's own modules, deferred (in-function) imports counted as edges;
- deferred own imports: `import wizard...` inside a function or method, with where each one is;
- target switches: comparisons of a value with a deployment target's name ("slurm" == x, x in ("local", ...)),
  and the files that hold them;
- rule places: the files under wizard/ that name one rule id (BATCH-002), i.e. the places a rule lives.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "wizard"
TARGET_NAMES = {"local", "ray-job", "kuberay-job", "kuberay-cluster", "k8s-job", "slurm"}
SAMPLE_RULE = "BATCH-002"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def own_targets(modules: set[str], current: str, is_package: bool, node: ast.AST) -> list[str]:
    """The project's modules an import statement names (a `from pkg import mod` names pkg.mod where it exists)."""
    found = []
    if isinstance(node, ast.Import):
        found = [alias.name for alias in node.names if alias.name.startswith("wizard")]
    elif isinstance(node, ast.ImportFrom):
        base = resolve(current, is_package, node)
        if base.startswith("wizard"):
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(sub if sub in modules else base)
    return [nearest(modules, name) for name in found]


def nearest(modules: set[str], name: str) -> str:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def scan(root: Path = PACKAGE):
    files = sorted(root.rglob("*.py"))
    modules = {module_name(f): f for f in files}
    names = set(modules)
    edges: dict[str, set[str]] = defaultdict(set)
    deferred: list[tuple[str, int, str]] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for parent in ast.walk(tree):
            in_function = isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.iter_child_nodes(parent):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                targets = [t for t in own_targets(names, name, is_package, node) if t and t != name]
                edges[name].update(targets)
                if in_function and targets:
                    deferred.append((str(path.relative_to(ROOT)), node.lineno, ", ".join(sorted(set(targets)))))
        # imports nested deeper (inside if/try within a function) are found by walking each function's body
        for func in ast.walk(tree):
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(func):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and node not in list(ast.iter_child_nodes(func)):
                        targets = [t for t in own_targets(names, name, is_package, node) if t and t != name]
                        if targets:
                            edges[name].update(targets)
                            entry = (str(path.relative_to(ROOT)), node.lineno, ", ".join(sorted(set(targets))))
                            if entry not in deferred:
                                deferred.append(entry)
    return modules, edges, deferred


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    # the depth is the longest import chain; the limit goes back after, so a caller's process keeps its own
    # (a test that imports this module shares its process with tests that rely on the default limit)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in list(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found, key=len, reverse=True)


def target_switches(modules: dict[str, Path]) -> dict[str, int]:
    """Per file, the comparisons whose one side is a deployment target's name or a tuple of them."""

    def is_target(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in TARGET_NAMES
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return bool(node.elts) and all(isinstance(e, ast.Constant) and e.value in TARGET_NAMES for e in node.elts)
        return False

    counts: dict[str, int] = {}
    for path in modules.values():
        n = 0
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # `keyword == "local"` in the bash reader is bash's `local`, not a target
            compared = isinstance(node, ast.Compare) and any(is_target(x) for x in [node.left, *node.comparators])
            if compared and "bash" not in path.parts:
                n += 1
        if n:
            counts[str(path.relative_to(ROOT))] = n
    return counts


def rule_places(rule: str = SAMPLE_RULE) -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py") if rule in p.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--list", action="store_true", help="also list each deferred import and circle")
    args = parser.parse_args(argv)
    modules, edges, deferred = scan()
    groups = circles(edges)
    switches = target_switches(modules)
    report = {
        "modules": len(modules),
        "circles": len(groups),
        "modules_in_circles": sum(len(g) for g in groups),
        "circle_sizes": [len(g) for g in groups],
        "deferred_own_imports": len(deferred),
        "target_comparisons": sum(switches.values()),
        "files_with_target_comparisons": len(switches),
        "rule_places": rule_places(),
    }
    if args.list:
        report["circle_members"] = groups
        report["deferred"] = [f"{f}:{line} -> {t}" for f, line, t in deferred]
        report["target_comparison_files"] = switches
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            if isinstance(value, list) and value and isinstance(value[0], (list, str)) and key != "circle_sizes":
                print(f"{key}:")
                for item in value:
                    print(f"  {item}")
            elif isinstance(value, dict):
                print(f"{key}:")
                for k, v in value.items():
                    print(f"  {k}: {v}")
            else:
                print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
