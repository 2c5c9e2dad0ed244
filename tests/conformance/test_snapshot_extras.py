"""Conformance tier: the committed snapshot's extras are what verl 0.9.1's installed wheel declares."""

from __future__ import annotations

import pytest

from tests.core.test_verl_extras import snapshot_script
from wizard.core import verl_schema

pytestmark = [pytest.mark.conformance]


def test_the_snapshot_extras_are_the_installed_wheels(verl_python):
    module = snapshot_script()
    _, version, metadata = module.locate(verl_python)
    assert version == verl_schema.TARGET_VERSION
    assert module.extras(metadata) == verl_schema.extras(), "run scripts/snapshot_verl_schema.py --python VERL_PYTHON"
