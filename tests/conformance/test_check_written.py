"""Conformance tier: `verl-wizard check` reads back every file `new` writes, for every preset and target.

RUN.md is prose and not a check input; every other file must pass (exit 0, warnings allowed), run.sh included:
the launch-script reader follows its `--config-path="$HERE"` (the folder bash computes) to the config.yaml
beside it.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import cli
from wizard.core.presets import load_preset, preset_names

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

TARGETS = ("local", "ray-job", "kuberay-job", "kuberay-cluster", "slurm", "k8s-job")
FILES = {
    "local": (),
    "ray-job": ("ray-job.sh",),
    "kuberay-job": ("rayjob.yaml",),
    "kuberay-cluster": ("raycluster.yaml",),
    "slurm": ("job.sbatch",),
    "k8s-job": ("k8s-job.yaml",),
}


def _cases():
    for preset in preset_names():
        for target in TARGETS:
            if target == "k8s-job" and load_preset(preset).nnodes > 1:
                continue  # new refuses one Pod for several nodes (DEPLOY-004)
            for name in ("config.yaml", "answers.yaml", "run.sh", *FILES[target]):
                yield pytest.param(preset, target, name, id=f"{preset}-{target}-{name}")


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("written")
    cache = {}

    def folder(preset: str, target: str):
        if (preset, target) not in cache:
            out = root / preset / target
            proc = cli("new", "--preset", preset, "--target", target, "--out", str(out))
            assert proc.returncode == 0, proc.stdout + proc.stderr
            cache[preset, target] = out
        return cache[preset, target]

    return folder


@pytest.mark.parametrize("preset,target,name", list(_cases()))
def test_check_reads_back_every_written_file(written, preset, target, name):
    path = written(preset, target) / name
    assert path.is_file()
    proc = cli("check", str(path), "--mode", "cluster", "--format", "json")
    doc = json.loads(proc.stdout) if proc.stdout.strip() else {}
    errors = [f"{f['id']}: {f['message']}" for f in doc.get("findings", []) if f["severity"] == "error"]
    assert proc.returncode == 0 and doc.get("verdict") == "pass", proc.stderr or "\n".join(errors)
