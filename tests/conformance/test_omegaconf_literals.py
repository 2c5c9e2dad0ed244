"""Conformance: OmegaConf (verl's own, in VERL_PYTHON) reads `${...}` in a user's value back as that text.

config.yaml escapes each `${` a user wrote; verl's OmegaConf must then see exactly the string the user gave,
not an interpolation (`${oc.env:...}` would read a secret, an unclosed `${` would stop verl at start).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.cli.helpers import cli

pytestmark = [pytest.mark.conformance]

VALUES = ["exp-${now:%H}", "open ${x", "a\\${b}", "two \\\\${c} ${d}", "x\\y", "${e"]
READ = """
import json, sys
from omegaconf import OmegaConf
cfg = OmegaConf.load(sys.argv[1])
print(json.dumps({"name": cfg.trainer.project_name}))
"""


@pytest.mark.parametrize("value", VALUES)
def test_omegaconf_reads_the_users_text(value, tmp_path, verl_python):
    answers = tmp_path / "answers.yaml"
    answers.write_text(f"trainer:\n  project_name: {json.dumps(value)}\n")
    out = tmp_path / "run"
    assert cli("new", "--preset", "grpo-8b-1x8", "--answers", str(answers), "--out", str(out)).returncode == 0
    proc = subprocess.run(
        [verl_python, "-c", READ, str(out / "config.yaml")], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["name"] == value
