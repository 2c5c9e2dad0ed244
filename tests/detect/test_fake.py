"""Named fake topologies and the [NODESx]COUNTxGPU[-suffix] grammar."""

from __future__ import annotations

import pytest

from wizard.core.topology import group_quality, has_rdma_nic
from wizard.core.tp_planner import plan_tp_groups, recommended_tp_groups
from wizard.detect.hardware.fake import GPU_MODELS, NAMED, fake_topology, is_fake_name
from wizard.errors import UsageError


@pytest.mark.parametrize("name", NAMED)
def test_every_named_fake_builds_a_consistent_topology(name):
    t = fake_topology(name)
    assert t.source == "fake" and t.label == name
    n = len(t.gpus)
    assert all(len(row) == n for row in t.links)
    assert all(t.links[i][j] == t.links[j][i] for i in range(n) for j in range(n))
    assert all(t.links[i][i] == "X" for i in range(n))
    assert t.unknown == []


@pytest.mark.parametrize(
    ("name", "nodes", "count", "gpu_name", "memory"),
    [
        ("1xH100", 1, 1, "NVIDIA H100 80GB HBM3", 81559),
        ("1xH200", 1, 1, "NVIDIA H200", 143771),
        ("8xH100", 1, 8, "NVIDIA H100 80GB HBM3", 81559),
        ("2x8xH100", 2, 8, "NVIDIA H100 80GB HBM3", 81559),
        ("16x8xH100", 16, 8, "NVIDIA H100 80GB HBM3", 81559),
        ("128x8xH100", 128, 8, "NVIDIA H100 80GB HBM3", 81559),
        ("4xA100-nvlink", 1, 4, "NVIDIA A100-SXM4-80GB", 81920),
        ("8xA100-40GB", 1, 8, "NVIDIA A100-SXM4-40GB", 40960),
        ("8xL40S-pcie", 1, 8, "NVIDIA L40S", 46068),
        ("8x4090-pcie", 1, 8, "NVIDIA GeForce RTX 4090", 24564),
        ("4xV100-hybrid-cube", 1, 4, "Tesla V100-SXM2-32GB", 32768),
        ("2xa10", 1, 2, "NVIDIA A10", 23028),
        ("1xL4", 1, 1, "NVIDIA L4", 23034),
    ],
)
def test_names_give_nodes_count_and_memory(name, nodes, count, gpu_name, memory):
    t = fake_topology(name)
    assert (t.nodes, len(t.gpus), t.gpus[0].name, t.gpus[0].memory_mib) == (nodes, count, gpu_name, memory)
    assert t.total_gpus == nodes * count


def test_8xh100_is_nvswitch_nv18_everywhere_with_a_nic_per_gpu():
    t = fake_topology("8xH100")
    assert {t.links[i][j] for i in range(8) for j in range(8) if i != j} == {"NV18"}
    assert len(t.nics) == 8 and has_rdma_nic(t) is True
    assert recommended_tp_groups(t) == {
        2: [[0, 1], [2, 3], [4, 5], [6, 7]],
        4: [[0, 1, 2, 3], [4, 5, 6, 7]],
        8: [list(range(8))],
    }


def test_4xa100_nvlink_splits_links_over_peers():
    assert fake_topology("4xA100-nvlink").links[0][1] == "NV4"
    assert fake_topology("8xA100").links[0][1] == "NV12"


def test_l40s_pcie_has_pix_pairs_node_and_sys():
    t = fake_topology("8xL40S-pcie")
    assert (t.links[0][1], t.links[0][2], t.links[0][4]) == ("PIX", "NODE", "SYS")
    assert [g.numa for g in t.gpus] == [0] * 4 + [1] * 4
    assert [group_quality(t, g) for g in recommended_tp_groups(t)[2]] == ["PIX"] * 4
    assert [group_quality(t, g) for g in recommended_tp_groups(t)[4]] == ["NODE", "NODE"]
    assert len(t.nics) == 2


def test_4090_pcie_is_phb_pairs_without_rdma():
    t = fake_topology("8x4090-pcie")
    assert t.links[0][1] == "PHB"
    assert has_rdma_nic(t) is False


def test_v100_hybrid_cube_quad():
    t = fake_topology("4xV100-hybrid-cube")
    assert recommended_tp_groups(t)[2] == [[0, 3], [1, 2]]
    assert group_quality(t, [0, 1, 2, 3]) == "NV1"
    assert fake_topology("8xV100").links[0][5] == "SYS"


def test_multi_node_plan_uses_global_indices():
    t = fake_topology("2x8xH100")
    assert plan_tp_groups(t, 4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("8xH999", "unknown fake topology"),
        ("banana", "unknown fake topology"),
        ("", "unknown fake topology"),
        ("0xH100", "GPUs per node must be"),
        ("17xH100", "GPUs per node must be"),
        ("0x8xH100", "nodes must be"),
        ("8x4090-nvlink", "no NVLink boards"),
        ("8xH100-hybrid-cube", "V100"),
        ("2xV100-hybrid-cube", "4 or 8"),
    ],
)
def test_bad_names_raise_usage_error(name, words):
    with pytest.raises(UsageError, match=words) as err:
        fake_topology(name)
    assert "\n" not in str(err.value)


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(UsageError) as err:
        fake_topology("9xQ7")
    for name in NAMED:
        assert name in str(err.value)
    for model in GPU_MODELS:
        assert model in str(err.value)


def test_is_fake_name():
    assert is_fake_name("16x8xH100") and is_fake_name("8xL40S-pcie")
    assert not is_fake_name("topo.txt") and not is_fake_name("detect")
