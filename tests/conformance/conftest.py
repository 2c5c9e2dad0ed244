"""Fixtures of the conformance tier: the verl environment, the validation harness, the wizard CLI.

verl lives in a separate environment (built by ``.ci/conformance-env.sh``) whose python is given by
the ``VERL_PYTHON`` environment variable. Without it, or when that python cannot import verl, every
test here is skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.helpers import cli_subprocess

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
HARNESS = HERE / "verl_validate.py"
VERL_VERSION = "0.9.1"
CI_HINT = "the conformance tier runs in CI (.ci/run)"


@pytest.fixture(scope="session")
def verl_python() -> str:
    """The verl environment's python; skips the test when there is none that imports verl."""
    path = os.environ.get("VERL_PYTHON")
    if not path:
        pytest.skip(f"VERL_PYTHON not set: {CI_HINT}")
    try:
        probe = subprocess.run(
            [path, "-c", "import verl; print(verl.__version__)"],
            check=False,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except OSError as exc:
        pytest.skip(f"VERL_PYTHON={path} cannot run ({exc}): {CI_HINT}")
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        pytest.skip(f"VERL_PYTHON={path} cannot import verl ({last}): {CI_HINT}")
    version = probe.stdout.strip().splitlines()[-1]
    # A wrong version is a broken CI env, not an absent one: fail instead of skipping.
    assert version == VERL_VERSION, f"VERL_PYTHON has verl {version}, the tier needs {VERL_VERSION}"
    return path


@pytest.fixture(scope="session")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory for the harness's tiny models, shared by every harness run."""
    return tmp_path_factory.mktemp("verl-models")


class HarnessRun:
    """One running ``verl_validate.py`` process over several config dirs."""

    def __init__(self, cmd: list[str], dirs: list[Path]):
        self.dirs = dirs
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def result(self) -> dict[str, dict]:
        """Wait for the run; return {str(dir): verdict}. Fails the test on a harness error."""
        try:
            out, err = self.proc.communicate(timeout=900)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        assert self.proc.returncode == 0, f"harness failed (rc {self.proc.returncode}):\n{err[-4000:]}"
        verdicts = [json.loads(line) for line in out.splitlines() if line.strip()]
        assert len(verdicts) == len(self.dirs), f"expected {len(self.dirs)} verdicts, got:\n{out}"
        return {v["config"]: v for v in verdicts}


@pytest.fixture(scope="session")
def start_harness(verl_python: str, models_dir: Path) -> Callable[..., HarnessRun]:
    """Return ``start(dirs, overrides=())``: a harness process started now, read with ``.result()``.

    Runs started together overlap, which hides most of each one's seconds of imports.
    """

    def start(dirs: list[Path], overrides: tuple[str, ...] = ()) -> HarnessRun:
        cmd = [verl_python, str(HARNESS), *map(str, dirs), "--models-dir", str(models_dir)]
        for override in overrides:
            cmd += ["--override", override]
        return HarnessRun(cmd, list(dirs))

    return start


@pytest.fixture(scope="session")
def run_wizard() -> Callable[..., subprocess.CompletedProcess]:
    """Return ``run(*args)``: ``python -m wizard *args`` from the project's own environment."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))

    def run(*args: str) -> subprocess.CompletedProcess:
        return cli_subprocess(*args, cwd=REPO_ROOT, env=env, timeout=300)  # `--format json` output must parse

    return run


# The support matrix of issue 31: one venv per release, built by .ci/verl-matrix-env.sh, named by
# VERL_PYTHON_0_7_1 and so on (0.9.1: VERL_PYTHON_0_9_1, else VERL_PYTHON).
MATRIX_VERSIONS = ("0.7.1", "0.8.0", "0.9.0", "0.9.1")


def matrix_python(version: str) -> str:
    """The python of verl `version`'s venv. Without one that imports that verl, the test is skipped, or fails
    when CI asks for the matrix (VERL_WIZARD_VERSION_MATRIX=required): a missing venv there is a broken build."""
    name = "VERL_PYTHON_" + version.replace(".", "_")
    path = os.environ.get(name) or (os.environ.get("VERL_PYTHON") if version == VERL_VERSION else None)
    problem = None
    if not path:
        problem = f"{name} not set"
    else:
        try:
            probe = subprocess.run(
                [path, "-c", "import verl; print(verl.__version__)"],
                check=False,
                capture_output=True,
                text=True,
                timeout=300,
            )
        except OSError as exc:
            problem = f"{name}={path} cannot run ({exc})"
        else:
            found = (probe.stdout.strip().splitlines() or ["?"])[-1]
            if probe.returncode != 0 or found != version:
                problem = f"{name}={path} does not import verl {version} (got {found!r})"
    if problem is None:
        return path
    if os.environ.get("VERL_WIZARD_VERSION_MATRIX") == "required":
        pytest.fail(f"{problem}: CI builds it with .ci/verl-matrix-env.sh")
    pytest.skip(f"{problem}: {CI_HINT} (.ci/verl-matrix-env.sh)")
