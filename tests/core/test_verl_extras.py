"""The extras of verl's wheel in the snapshot: how scripts/snapshot_verl_schema.py reads them from METADATA."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from wizard.core import verl_schema

ROOT = Path(__file__).resolve().parents[2]

# A METADATA of our own: extras with plain, nested and marker-qualified requirements, then the long description.
METADATA = """\
Metadata-Version: 2.4
Name: verl
Version: 9.9.9
Requires-Dist: numpy>=2.0.0
Provides-Extra: core
Requires-Dist: pyzmq; extra == "core"
Requires-Dist: TransferQueue>=0.1.10; extra == "core"
Provides-Extra: fast
Requires-Dist: verl[core]; extra == "fast"
Requires-Dist: kernels==1.2; python_version >= "3.10" and extra == "fast"
Requires-Dist: other==3; extra == 'fast' and platform_system == "Linux"
Provides-Extra: empty

Requires-Dist: not-a-header; extra == "fast"
"""


def snapshot_script():
    spec = importlib.util.spec_from_file_location("snapshot_verl_schema", ROOT / "scripts" / "snapshot_verl_schema.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_extras_are_read_with_their_other_markers_kept():
    assert snapshot_script().extras(METADATA) == {
        "core": ["pyzmq", "TransferQueue>=0.1.10"],
        "fast": ["verl[core]", 'kernels==1.2; python_version >= "3.10"', 'other==3; platform_system == "Linux"'],
        "empty": [],
    }


def test_a_snapshot_of_a_config_folder_has_the_extras_of_its_metadata_file(tmp_path):
    module = snapshot_script()
    for name in module.ENGINE_FILES.values():
        (tmp_path / name).write_text("trainer: {nnodes: 1}\n")
    data = module.snapshot(tmp_path, "9.9.9", metadata=METADATA)
    assert data["extras"]["core"] == ["pyzmq", "TransferQueue>=0.1.10"]
    assert module.snapshot(tmp_path, "9.9.9")["extras"] == {}


def test_the_committed_snapshot_holds_verls_engine_and_rollout_extras():
    data = json.loads((verl_schema.DATA_DIR / f"verl-{verl_schema.TARGET_VERSION}.json").read_text())
    extras = data["extras"]
    assert {"vllm", "sglang", "fsdp", "megatron", "verl-core"} <= set(extras)
    assert "vllm==0.24.0" in extras["vllm"] and "sglang==0.5.12" in extras["sglang"]
    assert all("verl[verl-core]" in extras[name] for name in ("vllm", "sglang", "fsdp", "megatron"))
    assert verl_schema.extras() == extras
