"""Link ranking, the TP planner (checked against brute force), group quality and PLACE-003's helper."""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest

from wizard.core import tp_planner as topo_mod
from wizard.core.topology import (
    GPU,
    NIC,
    Topology,
    group_quality,
    has_rdma_nic,
    link_label,
    link_rank,
    naive_tp_groups,
    nearest_nic,
    normalize_link,
)
from wizard.core.tp_planner import better_groups_exist, plan_tp_groups, recommended_tp_groups, topology_to_json

SYMBOLS = ["NV18", "NV12", "NV2", "NV1", "PIX", "PXB", "PHB", "NODE", "SYS", "?"]


def make(rows: list[str], numa=None, nodes=1, **kw) -> Topology:
    links = [r.split() for r in rows]
    numa = numa if numa is not None else [None] * len(links)
    return Topology("fake", [GPU(i, numa=numa[i]) for i in range(len(links))], links, nodes=nodes, **kw)


def test_ranking_order():
    ranks = [link_rank(s) for s in SYMBOLS]
    assert ranks == sorted(ranks, reverse=True)
    assert len(set(ranks)) == len(ranks)
    assert link_rank("X") > link_rank("NV18")


@pytest.mark.parametrize(
    ("cell", "symbol"),
    [
        ("SOC", "SYS"),
        (" x ", "X"),
        ("nv6", "NV6"),
        ("NV018", "NV18"),
        ("?", "?"),
        ("PIXNODE", None),
        ("NV0", None),
        ("N/A", None),
        ("", None),
    ],
)
def test_normalize_link(cell, symbol):
    assert normalize_link(cell) == symbol


@pytest.mark.parametrize(
    ("symbol", "label"),
    [("NV1", "good"), ("PXB", "good"), ("PHB", "acceptable"), ("NODE", "poor"), ("SYS", "poor"), ("?", "unknown")],
)
def test_link_label(symbol, label):
    assert link_label(symbol) == label


def test_topology_rejects_a_non_square_matrix():
    with pytest.raises(ValueError):
        Topology("fake", [GPU(0), GPU(1)], [["X", "NV1"]])
    with pytest.raises(ValueError):
        Topology("fake", [GPU(0)], [["X"]], nodes=0)


PHB_PAIRS = [
    "X PHB NODE NODE NODE NODE SYS SYS",
    "PHB X NODE NODE NODE NODE SYS SYS",
    "NODE NODE X PHB NODE NODE SYS SYS",
    "NODE NODE PHB X NODE NODE SYS SYS",
    "NODE NODE NODE NODE X PHB SYS SYS",
    "NODE NODE NODE NODE PHB X SYS SYS",
    "SYS SYS SYS SYS SYS SYS X PHB",
    "SYS SYS SYS SYS SYS SYS PHB X",
]


def test_plan_picks_best_worst_pair():
    t = make(PHB_PAIRS, numa=[0] * 6 + [1] * 2)
    assert plan_tp_groups(t, 2) == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert plan_tp_groups(t, 4) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_numa_breaks_ties_between_equal_links():
    rows = [" ".join("X" if i == j else "NV18" for j in range(8)) for i in range(8)]
    interleaved = make(rows, numa=[0, 1] * 4)
    assert plan_tp_groups(interleaved, 2) == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert plan_tp_groups(interleaved, 4) == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert plan_tp_groups(make(rows), 4) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_cpu_affinity_stands_in_for_missing_numa():
    rows = [" ".join("X" if i == j else "SYS" for j in range(4)) for i in range(4)]
    t = Topology(
        "file", [GPU(i, cpu_affinity="0-7" if i in (0, 3) else "8-15") for i in range(4)], [r.split() for r in rows]
    )
    assert plan_tp_groups(t, 2) == [[0, 3], [1, 2]]


def test_size_not_dividing_leaves_the_worst_gpu_out():
    t = make(["X NV4 SYS", "NV4 X SYS", "SYS SYS X"])
    assert plan_tp_groups(t, 2) == [[0, 1]]
    t2 = make(["X SYS SYS", "SYS X NV4", "SYS NV4 X"])
    assert plan_tp_groups(t2, 2) == [[1, 2]]


def test_sizes_at_the_edges():
    t = make(["X NV1", "NV1 X"])
    assert plan_tp_groups(t, 1) == [[0], [1]]
    assert plan_tp_groups(t, 3) == []
    with pytest.raises(ValueError):
        plan_tp_groups(t, 0)


def test_mig_gpus_are_left_out():
    t = make(["X NV1 NV1", "NV1 X NV1", "NV1 NV1 X"])
    t.gpus[0].mig = True
    assert plan_tp_groups(t, 2) == [[1, 2]]


def test_groups_never_cross_nodes_and_repeat_per_node():
    t = make(PHB_PAIRS, numa=[0] * 6 + [1] * 2, nodes=3)
    groups = plan_tp_groups(t, 4)
    assert groups[2:4] == [[8, 9, 10, 11], [12, 13, 14, 15]]
    assert all(len({g // 8 for g in grp}) == 1 for grp in groups)
    assert recommended_tp_groups(t)[4] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def _brute_force_best(t: Topology, size: int):
    """Every partition of all GPUs into groups of `size`, scored by (worst bottleneck, local groups, bottleneck sum)."""
    n = len(t.gpus)

    def partitions(rest):
        if not rest:
            yield []
            return
        first = rest[0]
        for combo in combinations(rest[1:], size - 1):
            group = (first, *combo)
            left = [g for g in rest if g not in group]
            for tail in partitions(left):
                yield [group, *tail]

    def score(part):
        bottlenecks = [min(link_rank(t.link(a, b)) for a, b in combinations(g, 2)) for g in part]
        local = sum(1 for g in part if len({t.gpus[x].numa for x in g}) == 1 and t.gpus[g[0]].numa is not None)
        return (min(bottlenecks), local, sum(bottlenecks))

    return max(score(p) for p in partitions(list(range(n)))), score


@pytest.mark.parametrize("seed", range(40))
def test_planner_matches_brute_force_on_random_nodes(seed):
    rng = random.Random(seed)
    n = rng.choice([4, 6, 8])
    size = rng.choice([s for s in (2, 4) if n % s == 0])
    links = [["X"] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            links[i][j] = links[j][i] = rng.choice(SYMBOLS)
    t = Topology("fake", [GPU(i, numa=rng.choice([0, 1, None])) for i in range(n)], links)
    best, score = _brute_force_best(t, size)
    planned = plan_tp_groups(t, size)
    assert sorted(x for g in planned for x in g) == list(range(n))
    assert score([tuple(g) for g in planned]) == best
    topo_mod._plan_local.cache_clear()
    assert plan_tp_groups(t, size) == planned


def test_cost_is_one_node_plan_plus_replication():
    t = make(
        [" ".join("X" if i == j else "NV18" for j in range(8)) for i in range(8)], numa=[0] * 4 + [1] * 4, nodes=128
    )
    topo_mod._plan_local.cache_clear()
    start = time.perf_counter()
    groups = plan_tp_groups(t, 2)
    elapsed = time.perf_counter() - start
    assert len(groups) == 128 * 4
    assert topo_mod._plan_local.cache_info().misses == 1
    assert elapsed < 0.05


def test_large_nodes_use_the_bounded_greedy_pass():
    n = 16
    rows = [" ".join("X" if i == j else ("NV6" if (i < 8) == (j < 8) else "SYS") for j in range(n)) for i in range(n)]
    t = make(rows, numa=[0] * 8 + [1] * 8)
    start = time.perf_counter()
    groups = plan_tp_groups(t, 8)
    assert time.perf_counter() - start < 0.5
    assert groups == [list(range(8)), list(range(8, 16))]


def test_group_quality():
    t = make(PHB_PAIRS, nodes=2)
    assert group_quality(t, [0, 1]) == "PHB"
    assert group_quality(t, [8, 9, 10]) == "NODE"
    assert group_quality(t, [5]) == "X"
    for bad in ([7, 8], [], [16]):
        with pytest.raises(ValueError):
            group_quality(t, bad)


def test_better_groups_exist_when_naive_crosses_sockets():
    rows = [" ".join("X" if i == j else ("PIX" if i % 2 == j % 2 else "SYS") for j in range(4)) for i in range(4)]
    t = make(rows, numa=[0, 1, 0, 1])
    assert naive_tp_groups(t, 2) == [[0, 1], [2, 3]]
    assert better_groups_exist(t, 2) == [[0, 2], [1, 3]]
    assert better_groups_exist(t, 2, [[0, 2], [1, 3]]) == []


def test_no_better_groups_when_every_plan_is_as_weak():
    t = make(PHB_PAIRS, numa=[0] * 6 + [1] * 2)
    assert better_groups_exist(t, 4) == []
    assert better_groups_exist(t, 8) == []


def test_unknown_links_are_never_called_weak():
    t = make(["X ? SYS SYS", "? X SYS SYS", "SYS SYS X ?", "SYS SYS ? X"])
    assert better_groups_exist(t, 2, [[0, 1], [2, 3]]) == []


def test_naive_groups_across_nodes_are_left_to_place_002():
    t = make(["X SYS SYS", "SYS X SYS", "SYS SYS X"], nodes=2)
    assert better_groups_exist(t, 2) == []


def test_nics_helpers():
    t = make(["X PIX", "PIX X"], nics=[NIC("NIC0", "mlx5_0", ["SYS", "PIX"])])
    assert has_rdma_nic(t) is True
    assert nearest_nic(t, 1)[1] == "PIX"
    assert has_rdma_nic(make(["X"])) is False
    assert has_rdma_nic(make(["X"], nics_known=False)) is None


def test_json_shape():
    t = make(PHB_PAIRS, numa=[0] * 6 + [1] * 2, unknown=["GPU names"])
    data = topology_to_json(t)
    assert list(data) == ["source", "gpus", "links", "tp_groups", "unknown"]
    assert data["gpus"][0] == {"index": 0, "name": None, "memory_mib": None, "numa": 0}
    assert data["tp_groups"] == {
        "2": [[0, 1], [2, 3], [4, 5], [6, 7]],
        "4": [[0, 1, 2, 3], [4, 5, 6, 7]],
        "8": [list(range(8))],
    }
    assert data["unknown"] == ["GPU names"]
    assert recommended_tp_groups(make(["X"])) == {}
