"""The nvidia-smi topo -m parser on real layouts (our own re-typed fixtures) and on garbage."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from wizard.core.topology import group_quality, has_rdma_nic
from wizard.core.tp_planner import recommended_tp_groups
from wizard.detect.hardware.smi import MAX_INPUT_BYTES, parse_topo_matrix
from wizard.errors import UsageError

FIXTURES = Path(__file__).parent / "fixtures" / "topo"
HALVES = [[0, 1, 2, 3], [4, 5, 6, 7]]
PAIRS = [[0, 1], [2, 3], [4, 5], [6, 7]]
CUBE_PAIRS = [[0, 3], [1, 2], [4, 7], [5, 6]]

ALL8 = [list(range(8))]
NUMA_HALVES = [0] * 4 + [1] * 4

# file: (GPUs, NICs, NUMA per GPU or None, {TP size: (groups, worst link of each)})
EXPECTED = {
    "hgx_h100_8gpu_nv18_12nic_ansi_prompt.txt": (
        8,
        12,
        NUMA_HALVES,
        {2: (PAIRS, "NV18"), 4: (HALVES, "NV18"), 8: (ALL8, "NV18")},
    ),
    "hgx_h200_8gpu_nv18_10nic_expanded_tabs.txt": (
        8,
        10,
        NUMA_HALVES,
        {2: (PAIRS, "NV18"), 4: (HALVES, "NV18"), 8: (ALL8, "NV18")},
    ),
    "dgx1_v100_8gpu_cube_mlx5_legacy_crlf.txt": (
        8,
        4,
        [None] * 8,
        {2: (CUBE_PAIRS, "NV2"), 4: (HALVES, "NV1"), 8: (ALL8, "SYS")},
    ),
    "sxm2_v100_8gpu_cube_nic0_ansi_with_smi_l.txt": (
        8,
        1,
        NUMA_HALVES,
        {2: (CUBE_PAIRS, "NV2"), 4: (HALVES, "NV1"), 8: (ALL8, "SYS")},
    ),
    "a100_8gpu_nv12_condensed_fenced.txt": (
        8,
        0,
        NUMA_HALVES,
        {2: (PAIRS, "NV12"), 4: (HALVES, "NV12"), 8: (ALL8, "NV12")},
    ),
    "rtx4090_8gpu_phb_pairs_node_sys_ansi_aligned.txt": (
        8,
        0,
        [0] * 6 + [1] * 2,
        {2: (PAIRS, "PHB"), 4: (HALVES, None), 8: (ALL8, "SYS")},
    ),
    "rtx4090_8gpu_allsys_2nic_nolegend.txt": (
        8,
        2,
        NUMA_HALVES,
        {2: (PAIRS, "SYS"), 4: (HALVES, "SYS"), 8: (ALL8, "SYS")},
    ),
    "rtx5090_2gpu_phb_single_spaces.txt": (2, 0, [0, 0], {2: ([[0, 1]], "PHB")}),
    "l40s_4gpu_node_sys_2nic_padded.txt": (
        4,
        2,
        [0, 0, 1, 1],
        {2: ([[0, 1], [2, 3]], "NODE"), 4: ([[0, 1, 2, 3]], "SYS")},
    ),
    "k40m_4gpu_phb_soc_mlx4_legacy.txt": (4, 1, [None] * 4, {2: ([[0, 1], [2, 3]], "PHB"), 4: ([[0, 1, 2, 3]], "SYS")}),
}


def parse(name: str):
    return parse_topo_matrix((FIXTURES / name).read_bytes(), origin=name)


def test_every_fixture_is_listed():
    assert sorted(p.name for p in FIXTURES.glob("*.txt")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gpus_nics_numa(name):
    gpus, nics, numa, _ = EXPECTED[name]
    t = parse(name)
    assert t.source == "file"
    assert len(t.gpus) == gpus
    assert len(t.nics) == nics
    assert [g.numa for g in t.gpus] == numa
    assert all(t.links[i][i] == "X" for i in range(gpus))
    assert has_rdma_nic(t) is (nics > 0)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_tp_groups_as_source_md_says(name):
    _, _, _, tp = EXPECTED[name]
    t = parse(name)
    got = recommended_tp_groups(t)
    assert sorted(got) == sorted(tp)
    for size, (groups, worst) in tp.items():
        assert got[size] == groups
        if worst is not None:
            assert {group_quality(t, g) for g in groups} == {worst}


def test_4090_phb_pairs_quads_are_node_then_sys():
    t = parse("rtx4090_8gpu_phb_pairs_node_sys_ansi_aligned.txt")
    assert [group_quality(t, g) for g in recommended_tp_groups(t)[4]] == ["NODE", "SYS"]


def test_soc_is_read_as_sys_and_nic_columns_by_device_name():
    t = parse("k40m_4gpu_phb_soc_mlx4_legacy.txt")
    assert t.links[0][2] == "SYS"
    assert [(n.name, n.device, n.links) for n in t.nics] == [("mlx4_0", "mlx4_0", ["SYS", "SYS", "PHB", "PHB"])]
    assert t.gpus[0].cpu_affinity == "0-5" and t.gpus[2].cpu_affinity == "6-11"


def test_nic_legend_maps_columns_to_devices():
    t = parse("sxm2_v100_8gpu_cube_nic0_ansi_with_smi_l.txt")
    assert [(n.name, n.device) for n in t.nics] == [("NIC0", "mlx5_2")]
    assert t.nics[0].links == ["NODE"] * 4 + ["SYS"] * 4


def test_smi_l_lines_give_names_and_uuids():
    t = parse("sxm2_v100_8gpu_cube_nic0_ansi_with_smi_l.txt")
    assert {g.name for g in t.gpus} == {"Tesla V100-SXM2-32GB"}
    assert t.gpus[3].uuid == "GPU-00000003-aaaa-bbbb-cccc-000000000003"
    assert not any("names" in u for u in t.unknown)
    assert any("names" in u for u in parse("hgx_h100_8gpu_nv18_12nic_ansi_prompt.txt").unknown)


def test_dgx1_mlx5_columns_out_of_order():
    t = parse("dgx1_v100_8gpu_cube_mlx5_legacy_crlf.txt")
    assert [n.name for n in t.nics] == ["mlx5_0", "mlx5_2", "mlx5_1", "mlx5_3"]
    assert t.nics[1].links[4] == "PIX"
    assert any("only CPU Affinity" in u for u in t.unknown)


H100_LINE = "GPU0\t X \tNV18\t0-7\t0\t\tN/A\nGPU1\tNV18\t X \t0-7\t0\t\tN/A\n"
HEADER = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"


@pytest.mark.parametrize(
    "header",
    [
        HEADER,
        "\t\x1b[4mGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n",
        "\t[4mGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID[0m\n",
        "GPU0 GPU1 CPU Affinity NUMA Affinity GPU NUMA ID\n",
        "  GPU0    GPU1    CPU   Affinity    NUMA Affinity    GPU NUMA ID\n",
    ],
)
def test_header_variants(header):
    t = parse_topo_matrix(header + H100_LINE)
    assert t.links == [["X", "NV18"], ["NV18", "X"]]
    assert [g.numa for g in t.gpus] == [0, 0]


def test_lowercase_and_padded_symbols_are_normalised():
    t = parse_topo_matrix(HEADER + "GPU0\tx\tnv4\t0-7\t0\nGPU1\tnv4\tx\t0-7\t0\n")
    assert t.links == [["X", "NV4"], ["NV4", "X"]]


def test_asymmetric_matrix_is_reported_and_worse_link_used():
    text = HEADER + "GPU0\tX\tNV2\t0-7\t0\nGPU1\tNV1\tX\t0-7\t0\n"
    t = parse_topo_matrix(text)
    assert any("disagrees" in u for u in t.unknown)
    assert group_quality(t, [0, 1]) == "NV1"


def test_two_concatenated_outputs_read_the_first_and_say_so():
    second = HEADER + "GPU0\tX\tSYS\t0-7\t0\nGPU1\tSYS\tX\t0-7\t0\n"
    t = parse_topo_matrix(HEADER + H100_LINE + "\n" + second)
    assert t.links[0][1] == "NV18"
    assert any("more than one matrix" in n for n in t.notes)


def test_nic_rows_missing_are_noted_not_fatal():
    text = "\tGPU0\tGPU1\tNIC0\tCPU Affinity\nGPU0\tX\tPIX\tPHB\t0-7\nGPU1\tPIX\tX\tSYS\t0-7\n"
    t = parse_topo_matrix(text)
    assert t.nics[0].links == ["PHB", "SYS"]
    assert any("NIC0" in n for n in t.notes)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("", "empty"),
        ("   \n\t\n", "empty"),
        (b"", "empty"),
        ("index, name, memory.total [MiB]\n0, NVIDIA H100 80GB HBM3, 81559 MiB\n", "no nvidia-smi topo -m matrix"),
        ("GPU0,GPU1,CPU Affinity\nGPU0,X,NV18,0-7\n", "no nvidia-smi topo -m matrix"),
        (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 20, "binary"),
        (bytes(range(1, 32)) * 200, "binary"),
        (HEADER + "GPU0\tX\tNV18\t0-7\t0\n", "truncated"),
        ("\tGPU0\tGPU1\tGPU2\tCPU Affinity\nGPU0\tX\tNV18\tNV18\t0-7\nGPU1\tNV18\tX\n", "cells"),
        (HEADER + "GPU0\tX\tPIXNODE\t0-7\t0\nGPU1\tPIX\tX\t0-7\t0\n", "no nvidia-smi link symbol"),
        (HEADER + "GPU0\tNV18\tX\t0-7\t0\nGPU1\tX\tNV18\t0-7\t0\n", "diagonal"),
        (HEADER + "GPU0\tX\tX\t0-7\t0\nGPU1\tNV18\tX\t0-7\t0\n", "off the diagonal"),
        ("\tGPU0\tGPU2\tCPU Affinity\nGPU0\tX\tNV1\t0-7\n", "GPU1 belongs"),
        (HEADER + H100_LINE + "GPU1\tNV18\tX\t0-7\t0\n", "twice"),
        (HEADER + "GPU0\tX\tNV18\t0-7\t0\tN/A\t9\t9\nGPU1\tNV18\tX\t0-7\t0\n", "after the devices"),
    ],
)
def test_garbage_raises_one_line_usage_error(data, words):
    with pytest.raises(UsageError) as err:
        parse_topo_matrix(data, origin="topo.txt")
    message = str(err.value)
    assert words in message
    assert "\n" not in message
    assert message.startswith("topo.txt")


def test_ten_megabytes_is_refused_quickly():
    data = ("GPU0\tX\tNV18\n" * 900_000).encode()
    assert len(data) > 10_000_000
    start = time.perf_counter()
    with pytest.raises(UsageError, match="bytes"):
        parse_topo_matrix(data)
    assert time.perf_counter() - start < 0.1


def test_just_under_the_limit_still_parses_the_matrix():
    filler = ("# unrelated log line\n" * (MAX_INPUT_BYTES // 25)).encode()
    data = filler + (HEADER + H100_LINE).encode()
    assert len(data) <= MAX_INPUT_BYTES
    start = time.perf_counter()
    assert len(parse_topo_matrix(data).gpus) == 2
    assert time.perf_counter() - start < 1.0


def test_more_than_64_gpus_is_refused():
    header = "\t" + "\t".join(f"GPU{i}" for i in range(65)) + "\tCPU Affinity\n"
    with pytest.raises(UsageError, match="at most 64"):
        parse_topo_matrix(header)


def test_grace_gpu_numa_id_column_is_not_the_cpu_numa():
    text = "\tGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\nGPU0\tX\t0-71\t0\t\t4\n"
    t = parse_topo_matrix(text)
    assert t.gpus[0].numa == 0


H200 = Path(__file__).parent / "fixtures" / "h200"


def test_real_h200_capture_parses_to_one_gpu():
    t = parse_topo_matrix((H200 / "h200_topo_m.txt").read_bytes(), origin="h200_topo_m.txt")
    assert len(t.gpus) == 1
    assert t.links == [["X"]]
    assert (t.gpus[0].numa, t.gpus[0].cpu_affinity) == (0, "0-15")
    assert t.nics == [] and has_rdma_nic(t) is False
    assert recommended_tp_groups(t) == {}
