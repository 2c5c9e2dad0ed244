"""A verl config or answers file is read as OmegaConf reads it: its scalar types, and no key written twice.

The wizard used PyYAML's safe loader, which reads `experiment_name: 2024-01-01` as a date (the answers model
then refused it) and `lr: 1e-6` as text, while verl's OmegaConf reads text and a number; and it took the last
of two equal keys where OmegaConf refuses the file. The table of scalars was recorded from omegaconf 2.3.1
(tests/detect/omegaconf_scalars.py; the conformance tier compares it with the live library).
"""

from __future__ import annotations

import io

import pytest
import yaml

from tests.detect.omegaconf_scalars import OMEGACONF_TYPES
from wizard.detect.config import yaml_input


def typed(scalar: str) -> tuple[str, str]:
    try:
        value = yaml_input.load_config(f"v: {scalar}\n")["v"]
    except yaml.YAMLError as exc:
        return "error", type(exc).__name__
    return type(value).__name__, repr(value)


@pytest.mark.parametrize("scalar", list(OMEGACONF_TYPES))
def test_scalars_are_typed_as_omegaconf_types_them(scalar):
    assert typed(scalar) == OMEGACONF_TYPES[scalar]


def test_the_table_holds_the_scalars_pyyaml_types_differently():
    # The neighbour: PyYAML's own safe loader (what the wizard used, and still uses for manifests) differs on these.
    differ = [s for s, want in OMEGACONF_TYPES.items() if want[0] != "error" and _pyyaml(s) != want]
    assert set(differ) == {
        "2024-01-01",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10 -5",
        "1e3",
        "1e-6",
        "1.0e3",
        "+1e-3",
        "[1e-6, 2024-01-01]",
    }


def _pyyaml(scalar: str) -> tuple[str, str]:
    value = yaml_input.load_one(f"v: {scalar}\n")["v"]
    return type(value).__name__, repr(value)


def test_the_table_matches_omegaconf_where_it_is_importable():
    omegaconf = pytest.importorskip("omegaconf")
    for scalar, want in OMEGACONF_TYPES.items():
        try:
            value = omegaconf.OmegaConf.to_container(omegaconf.OmegaConf.load(io.StringIO(f"v: {scalar}\n")))["v"]
            live = (type(value).__name__, repr(value))
        except Exception as exc:
            live = ("error", type(exc).__name__)
        assert live == want, scalar


@pytest.mark.parametrize(
    "text, key, lines",
    [
        ("trainer:\n  experiment_name: a\n  experiment_name: b\n", "experiment_name", (2, 3)),
        ("data: {max_prompt_length: 1, max_prompt_length: 2}\n", "max_prompt_length", (1, 1)),
        ("a: 1\n'a': 2\n", "a", (1, 2)),  # OmegaConf compares the key as written, quoted or not
        ("trainer:\n  x: 1\ntrainer:\n  y: 2\n", "trainer", (1, 3)),
    ],
)
def test_a_key_written_twice_is_refused_naming_the_key_and_lines(text, key, lines):
    with pytest.raises(yaml_input.DuplicateKeyError) as caught:
        yaml_input.load_config(text)
    assert f"the key {key} is written twice (line {lines[0]} and line {lines[1]})" in str(caught.value)


def test_equal_keys_in_different_mappings_are_fine():
    text = "actor:\n  param_offload: true\nref:\n  param_offload: true\nlist: [{a: 1}, {a: 2}]\n"
    assert yaml_input.load_config(text) == {
        "actor": {"param_offload": True},
        "ref": {"param_offload": True},
        "list": [{"a": 1}, {"a": 2}],
    }


def test_manifests_keep_pyyaml_reading():
    # Kubernetes' YAML is not OmegaConf's: load_one (manifests) still takes the last of two keys, as before.
    assert yaml_input.load_one("a: 1\na: 2\n") == {"a": 2}
