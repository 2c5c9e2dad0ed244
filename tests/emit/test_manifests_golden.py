"""Golden manifests, one preset per target, byte for byte. Regenerate with UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.emit.manifests_kit import render
from wizard.emit.manifests import FILES

GOLDEN = Path(__file__).resolve().parent / "golden" / "manifests"
CASES = {
    "ray-job": "grpo-7b-2x8",
    "kuberay-job": "grpo-7b-2x8",
    "kuberay-cluster": "grpo-8b-1x8",
    "slurm": "grpo-7b-2x8",
    "k8s-job": "workshop-0.5b-1gpu",
}


@pytest.mark.parametrize("target", sorted(CASES))
def test_manifest_matches_its_golden_file(target):
    files, findings = render(CASES[target], target)
    assert files, [f.message for f in findings]
    name = FILES[target]
    golden = GOLDEN / target / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(files[name], encoding="utf-8")
    assert golden.read_text(encoding="utf-8") == files[name], f"{target}/{name} differs; UPDATE_GOLDEN=1 to accept"


def test_every_target_has_a_golden_file():
    assert set(CASES) == set(FILES)
