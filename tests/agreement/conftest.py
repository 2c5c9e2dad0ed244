"""Fixtures of the agreement tests: the verl oracle pool (conformance tier only) and run sizes.

The large runs are marked ``conformance``: CI's conformance step (``pytest -m conformance``, with
``VERL_PYTHON`` set by ``.ci/conformance-env.sh``) runs them; the default run skips them and runs the
small ones. Sizes can be changed with ``AGREEMENT_CONFIGS`` and ``AGREEMENT_WORKERS``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.agreement.oracle_pool import OraclePool
from tests.agreement.tiers import skip_unless_conformance

VERL_VERSION = "0.9.1"


@pytest.fixture(scope="session")
def agreement_configs() -> int:
    """How many configs the large run draws (at least 2,000 in CI)."""
    return int(os.environ.get("AGREEMENT_CONFIGS", "2000"))


@pytest.fixture(scope="session")
def verl_python_for_agreement(request) -> str:
    """The verl environment's python, checked to import verl 0.9.1; skips without one."""
    skip_unless_conformance(request)
    path = os.environ.get("VERL_PYTHON")
    if not path:
        pytest.skip("VERL_PYTHON not set: the conformance tier runs in CI (.ci/run)")
    probe = subprocess.run(
        [path, "-c", "import verl; print(verl.__version__)"], capture_output=True, text=True, timeout=600
    )
    if probe.returncode != 0:
        pytest.skip(f"VERL_PYTHON={path} cannot import verl")
    assert probe.stdout.strip().splitlines()[-1] == VERL_VERSION, f"VERL_PYTHON has verl {probe.stdout.strip()}"
    return path


@pytest.fixture(scope="session")
def oracle(verl_python_for_agreement, tmp_path_factory) -> OraclePool:
    """Several verl 0.9.1 oracles, one per CPU (at most 8), for the whole session."""
    size = int(os.environ.get("AGREEMENT_WORKERS", min(8, os.cpu_count() or 1)))
    pool = OraclePool(verl_python_for_agreement, Path(tmp_path_factory.mktemp("verl-oracle")), size)
    yield pool
    pool.close()
