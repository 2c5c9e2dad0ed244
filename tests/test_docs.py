"""Docs that are generated must be current: the rule catalogue page and the README's commands."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rule_catalogue_page_is_current():
    spec = importlib.util.spec_from_file_location("write_rule_docs", ROOT / "scripts" / "write_rule_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == module.render(), "run scripts/write_rule_docs.py"


def test_field_page_is_current():
    spec = importlib.util.spec_from_file_location("write_field_docs", ROOT / "scripts" / "write_field_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = module.render()
    assert (ROOT / "docs" / "fields.md").read_text(encoding="utf-8") == page, "run scripts/write_field_docs.py"
    assert '| `target` | - | `"local"` | local, ray-job, kuberay-job, kuberay-cluster, slurm, k8s-job |' in page


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(
        line.strip() for line in readme.splitlines() if "pytest" in line and line.strip().startswith("pip install")
    )
    assert test_command in ci
