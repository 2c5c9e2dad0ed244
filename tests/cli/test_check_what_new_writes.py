"""`check` reads back every file `new` writes, for every preset and target, and finds no error in it."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import check_json, cli
from wizard.core.presets import load_preset

TARGETS = ("local", "ray-job", "kuberay-job", "kuberay-cluster", "slurm", "k8s-job")
LAUNCH_FILES = ("run.sh", "ray-job.sh", "job.sbatch", "rayjob.yaml", "raycluster.yaml", "k8s-job.yaml")


def presets() -> list[str]:
    proc = cli("presets", "--format", "json")
    return [p["name"] for p in json.loads(proc.stdout)]


def cases():
    for preset in presets():
        nnodes = load_preset(preset).values.get("trainer.nnodes", 1)
        for target in TARGETS:
            if target == "k8s-job" and nnodes > 1:
                continue  # one Pod on one node: `new` refuses a multi-node preset for it (DEPLOY-004)
            yield preset, target


@pytest.mark.parametrize(("preset", "target"), list(cases()))
def test_check_passes_every_launch_file_new_writes(preset, target, tmp_path):
    out = tmp_path / "run"
    made = cli("new", "--preset", preset, "--target", target, "--out", str(out), "--format", "json")
    assert made.returncode == 0, made.stdout + made.stderr
    written = [name for name in json.loads(made.stdout)["written"] if name in LAUNCH_FILES]
    assert "run.sh" in written and len(written) == (1 if target == "local" else 2)
    for name in written:
        proc, doc = check_json(out / name, "--mode", "cluster")
        assert proc.returncode == 0, (name, proc.stderr, doc and [f["message"] for f in doc["findings"]])
        assert not [f for f in doc["findings"] if f["severity"] == "error"], (name, doc["findings"])
        # the config beside it was read: its keys are checked, not reported as a foreign config
        assert "SCRIPT-009" not in {f["id"] for f in doc["findings"]}, name
