"""The recorded table of how OmegaConf types scalars (tests/detect/omegaconf_scalars.py) against the live
omegaconf of the verl environment, so that the wizard's reader (checked against the table in the fast suite)
follows what verl 0.9.1 really reads."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.detect.omegaconf_scalars import OMEGACONF_TYPES, PROBE

pytestmark = pytest.mark.conformance


def test_recorded_table_matches_live_omegaconf(verl_python):
    proc = subprocess.run(
        [verl_python, "-c", PROBE, json.dumps(list(OMEGACONF_TYPES))],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    live = {scalar: tuple(pair) for scalar, pair in json.loads(proc.stdout).items()}
    assert live == OMEGACONF_TYPES
