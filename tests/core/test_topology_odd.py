"""Nodes with 3, 5 or 7 GPUs (workstations, nodes with a failed GPU): the best TP groups of the GPUs that can be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import cli
from wizard.core.tp_planner import recommended_tp_groups, topology_to_json, tp_subset
from wizard.detect.hardware.fake import fake_topology
from wizard.detect.hardware.smi import parse_topo_matrix

ODD = Path(__file__).resolve().parents[1] / "detect" / "fixtures" / "topo_odd"


def read(name: str):
    return parse_topo_matrix((ODD / name).read_text(), name)


@pytest.mark.parametrize(
    ("name", "groups", "idle"),
    [
        # 3 GPUs, 0 and 2 joined by NV4, 1 on PCIe: TP2 on the NVLink pair, GPU 1 idle
        ("workstation_3gpu_nv4_pair.txt", {2: [[0, 2]]}, {2: [1]}),
        # 5 GPUs left of NVLink pairs: both pairs, the GPU that lost its partner idle
        ("nvlink_pairs_5gpu_one_lost.txt", {2: [[0, 1], [2, 3]], 4: [[0, 1, 2, 3]]}, {2: [4], 4: [4]}),
        # 7 PCIe GPUs in PIX pairs over two sockets: the three pairs; TP4 stays on one socket
        ("pcie_pairs_7gpu.txt", {2: [[0, 1], [2, 3], [4, 5]], 4: [[0, 1, 2, 3]]}, {2: [6], 4: [4, 5, 6]}),
    ],
)
def test_odd_gpu_counts_get_the_best_groups_of_the_usable_gpus(name, groups, idle):
    topo = read(name)
    assert recommended_tp_groups(topo) == groups
    for size, expected_idle in idle.items():
        subset = tp_subset(topo, size)
        assert subset.idle == expected_idle
        assert subset.visible_devices == ",".join(str(g) for group in groups[size] for g in group)
    assert topology_to_json(topo)["tp_groups"] == {str(k): v for k, v in groups.items()}


def test_the_topo_report_says_how_to_run_on_the_subset():
    proc = cli("topo", "--from", str(ODD / "workstation_3gpu_nv4_pair.txt"))
    assert proc.returncode == 0
    assert "TP2: [0,2]   worst link NV4 (good)" in proc.stdout
    assert "GPU 1 would stay idle" in proc.stdout
    assert "CUDA_VISIBLE_DEVICES=0,2 and trainer.n_gpus_per_node=2" in proc.stdout
    assert "one GPU per node leaves TP at 1" not in proc.stdout


def test_a_node_whose_gpus_all_fit_has_no_idle_gpu_and_one_gpu_has_no_group():
    eight = fake_topology("8xH100")
    assert set(recommended_tp_groups(eight)) == {2, 4, 8}
    assert all(not tp_subset(eight, size).idle for size in (2, 4, 8))
    one = fake_topology("1xH100")
    assert recommended_tp_groups(one) == {} and tp_subset(one, 2) is None
    proc = cli("topo", "--fake", "1xH100")
    assert "with 1 GPU per node there is no TP group (TP stays 1)" in proc.stdout
