"""The type checker of .ci/run (`mypy wizard`, configured in pyproject.toml) catches a broken seam: a renamed
answers field, a wrong argument to an emitter or a reader. Run on a small module written here, beside a correct
twin, with the project's own configuration (the pydantic plugin included)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BROKEN = """\
from wizard.core.answers.model import Answers
from wizard.detect.config.answers_file import read_answers
from wizard.emit.bundle import zip_files

print(Answers().batch.train_batch_sizes)
zip_files("run", ["config.yaml"])
read_answers(3)
"""

CORRECT = """\
from wizard.core.answers.model import Answers
from wizard.detect.config.answers_file import read_answers
from wizard.emit.bundle import zip_files

print(Answers().batch.train_batch_size)
zip_files("run", {"config.yaml": "{}"})
read_answers("answers.yaml")
"""


def _mypy(tmp_path: Path, *modules: Path) -> subprocess.CompletedProcess:
    config = ROOT / "pyproject.toml"
    command = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir", str(tmp_path / "cache")]
    return subprocess.run(
        [*command, *map(str, modules)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )


def test_mypy_fails_on_a_broken_seam_and_passes_its_correct_twin(tmp_path):
    broken, correct = tmp_path / "broken_seam.py", tmp_path / "correct_seam.py"
    broken.write_text(BROKEN)
    correct.write_text(CORRECT)
    done = _mypy(tmp_path, broken, correct)
    assert done.returncode == 1, done.stdout + done.stderr
    # (file, line, error code) of the two modules only: wizard's own state is `mypy wizard`'s business in CI
    found = re.findall(r"^.*/(\w+_seam\.py):(\d+): error: .*\[([a-z-]+)\]$", done.stdout, re.M)
    assert found == [
        ("broken_seam.py", "5", "attr-defined"),
        ("broken_seam.py", "6", "arg-type"),
        ("broken_seam.py", "7", "arg-type"),
    ]
    assert 'maybe "train_batch_size"?' in done.stdout
