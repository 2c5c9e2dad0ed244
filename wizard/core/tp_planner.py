"""The tensor-parallel (TP) group planner over a Topology: the best disjoint groups of one node, repeated
per node (an exact search, greedy above 12 GPUs), the recommended groups of sizes 2, 4 and 8 and the
subset of a node's GPUs they use, whether planned groups beat the ones verl forms by itself (rule PLACE-003),
and the `topo --format json` object, which carries the recommended groups.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from wizard.core.topology import WEAK_SYMBOLS, Topology, group_quality, link_rank, naive_tp_groups

RECOMMENDED_TP_SIZES = (2, 4, 8)

# Exact search is exponential in the GPUs of a node; real nodes have 8 (16 at most), and the
# cache below makes repeated rule runs free. Above the limit a greedy pass keeps the cost bounded.
_EXACT_LIMIT = 12


def _group_value(group: tuple[int, ...], scores: tuple, localities: tuple) -> tuple[int, int, int]:
    loc = localities[group[0]]
    local = int(loc is not None and all(localities[g] == loc for g in group))
    pairs = [scores[a][b] for a, b in combinations(group, 2)]
    return (local, min(pairs), sum(pairs))


def _twin_classes(scores: tuple, localities: tuple, elig: list[int]) -> list[int]:
    """A class id per position; GPUs share one when swapping them changes no link and no locality."""
    reps: list[int] = []
    out = []
    for p, a in enumerate(elig):
        for k, q in enumerate(reps):
            b = elig[q]
            if localities[a] == localities[b] and all(scores[a][c] == scores[b][c] for c in elig if c not in (a, b)):
                out.append(k)
                break
        else:
            reps.append(p)
            out.append(len(reps) - 1)
    return out


def _plan_exact(scores: tuple, localities: tuple, elig: list[int], size: int, spare: int, floor: int):
    """Best grouping whose every pair scores >= floor, or None if there is none.

    Maximises (groups on one NUMA node, sum of group bottlenecks, sum of pair scores); ties keep the
    first grouping in index order. Memoised over the set of GPUs still free.
    """
    m = len(elig)
    ok = [[scores[a][b] >= floor for b in elig] for a in elig]
    twin = _twin_classes(scores, localities, elig)
    memo: dict[tuple[int, int], Any] = {}

    def solve(rem: int, spare_left: int):
        key = (rem, spare_left)
        if key in memo:
            return memo[key]
        if rem == 0:
            memo[key] = ((0, 0, 0), ())
            return memo[key]
        i = (rem & -rem).bit_length() - 1
        rest = [j for j in range(i + 1, m) if rem >> j & 1 and ok[i][j]]
        # Interchangeable GPUs give equal groupings: take them in index order only.
        prev: dict[int, int] = {}
        last: dict[int, int] = {}
        for j in rest:
            if twin[j] in last:
                prev[j] = last[twin[j]]
            last[twin[j]] = j
        best = None
        for combo in combinations(rest, size - 1):
            if any(j in prev and prev[j] not in combo for j in combo):
                continue
            if not all(ok[a][b] for a, b in combinations(combo, 2)):
                continue
            mask = 1 << i
            for c in combo:
                mask |= 1 << c
            sub = solve(rem & ~mask, spare_left)
            if sub is None:
                continue
            group = tuple(elig[p] for p in (i, *combo))
            gv = _group_value(group, scores, localities)
            val = (gv[0] + sub[0][0], gv[1] + sub[0][1], gv[2] + sub[0][2])
            if best is None or val > best[0]:
                best = (val, (group, *sub[1]))
        if spare_left:
            sub = solve(rem & ~(1 << i), spare_left - 1)
            if sub is not None and (best is None or sub[0] > best[0]):
                best = sub
        memo[key] = best
        return best

    found = solve((1 << m) - 1, spare)
    return None if found is None else found[1]


def _greedy_key(scores: tuple, localities: tuple, group: tuple[int, ...], j: int) -> tuple[int, int, int]:
    same = int(localities[j] is not None and localities[j] == localities[group[0]])
    return (min(scores[g][j] for g in group), same, -j)


def _plan_greedy(scores: tuple, localities: tuple, elig: list[int], size: int, count: int):
    """Lowest free GPU first, then repeatedly the free GPU that keeps the group's worst link best."""
    free = list(elig)
    groups = []
    for _ in range(count):
        group = [free.pop(0)]
        while len(group) < size:
            # the default binds this group (ruff B023); mypy cannot infer a lambda that has a default
            pick = max(free, key=lambda j, grp=tuple(group): _greedy_key(scores, localities, grp, j))  # type: ignore[misc]
            free.remove(pick)
            group.append(pick)
        groups.append(tuple(sorted(group)))
    return tuple(groups)


@lru_cache(maxsize=512)
def _plan_local(scores: tuple, localities: tuple, eligible: tuple, size: int) -> tuple:
    """The best groups of one node from its pair scores; see plan_tp_groups for the order of criteria."""
    elig = [i for i, ok in enumerate(eligible) if ok]
    if size == 1:
        return tuple((i,) for i in elig)
    count = len(elig) // size
    if count == 0:
        return ()
    if len(elig) > _EXACT_LIMIT:
        return _plan_greedy(scores, localities, elig, size, count)
    spare = len(elig) - count * size
    # The highest floor that still admits a full grouping is the best possible worst pair.
    for floor in sorted({scores[a][b] for a, b in combinations(elig, 2)}, reverse=True):
        found = _plan_exact(scores, localities, elig, size, spare, floor)
        if found is not None:
            return found
    return ()


def _local_groups(topology: Topology, size: int) -> list[list[int]]:
    """Planner input for one node, answered from a cache keyed by the node's links and localities."""
    n = topology.gpus_per_node
    scores = tuple(tuple(link_rank(topology.link(a, b)) for b in range(n)) for a in range(n))
    localities = tuple(g.locality() for g in topology.gpus)
    eligible = tuple(g.mig is not True for g in topology.gpus)
    return [list(g) for g in _plan_local(scores, localities, eligible, size)]


def plan_tp_groups(topology: Topology, size: int) -> list[list[int]]:
    """The best disjoint TP groups of `size` GPUs on every node, as global GPU indices.

    One node is planned (best worst-pair link first, then most groups on one NUMA node, then the
    best links overall, then the lowest indices) and the pattern is repeated per node, so the cost
    grows linearly with the node count. A group never spans nodes. When `size` does not divide the
    GPUs of a node, the GPUs that connect worst are left out; `size` above it gives []. GPUs with MIG
    enabled are left out. Deterministic.
    """
    if size < 1:
        raise ValueError(f"TP size must be at least 1, got {size}")
    local = _local_groups(topology, size)
    per = topology.gpus_per_node
    return [[node * per + i for i in group] for node in range(topology.nodes) for group in local]


def recommended_tp_groups(topology: Topology) -> dict[int, list[list[int]]]:
    """For TP sizes 2, 4 and 8 that fit in a node: the best disjoint groups of ONE node (local indices).

    A size that does not divide the node's GPUs (3, 5, 6 or 7 GPUs: a workstation, a node with a failed
    GPU) still gets its best groups, of the GPUs that connect best; the rest stay idle (see `tp_subset`).
    """
    per = topology.gpus_per_node
    out: dict[int, list[list[int]]] = {}
    for size in RECOMMENDED_TP_SIZES:
        if size <= per:
            groups = _local_groups(topology, size)
            if groups:
                out[size] = groups
    return out


@dataclass(frozen=True)
class TPSubset:
    """The GPUs of a node that TP groups of one size use, and how to run on just those."""

    size: int
    groups: list[list[int]]
    used: list[int]  # local indices, in the order CUDA_VISIBLE_DEVICES should list them
    idle: list[int]

    @property
    def visible_devices(self) -> str:
        return ",".join(map(str, self.used))


def tp_subset(topology: Topology, size: int) -> TPSubset | None:
    """The best groups of `size` on one node and the GPUs they leave idle; None when no group fits.

    verl needs the GPUs of a node to be a multiple of the rollout TP: with idle GPUs, the run uses the
    subset (CUDA_VISIBLE_DEVICES lists the used GPUs group by group, trainer.n_gpus_per_node = their number).
    """
    groups = _local_groups(topology, size)
    if not groups:
        return None
    used = [g for group in groups for g in group]
    idle = [i for i in range(topology.gpus_per_node) if i not in used]
    return TPSubset(size, groups, used, idle)


def better_groups_exist(topology: Topology, size: int, naive_groups: list[list[int]] | None = None) -> list[list[int]]:
    """For rule PLACE-003: the planner's groups if the naive ones cross a weak link (NODE/SYS) and the plan is better; else [].

    "Better" compares the groups' qualities sorted worst first (so a plan with a better worst group,
    or the same worst group fewer times, wins). Unknown links ("?") are never called weak. Naive groups
    that span nodes are rule PLACE-002's business: the answer is then [].
    """
    if naive_groups is None:
        naive_groups = naive_tp_groups(topology, size)
    if not naive_groups:
        return []
    try:
        naive_q = [group_quality(topology, g) for g in naive_groups]
    except ValueError:
        return []
    if not any(q in WEAK_SYMBOLS for q in naive_q):
        return []
    planned = plan_tp_groups(topology, size)
    if len(planned) < len(naive_groups):
        return []
    naive_key = sorted(link_rank(q) for q in naive_q)
    planned_key = sorted(link_rank(group_quality(topology, g)) for g in planned)
    return planned if planned_key > naive_key else []


def topology_to_json(topology: Topology) -> dict[str, Any]:
    """The `topo --format json` object of DESIGN.md section 4 (groups per node, local indices)."""
    return {
        "source": topology.source,
        "gpus": [{"index": g.index, "name": g.name, "memory_mib": g.memory_mib, "numa": g.numa} for g in topology.gpus],
        "links": [list(row) for row in topology.links],
        "tp_groups": {str(k): v for k, v in recommended_tp_groups(topology).items()},
        "unknown": list(topology.unknown),
    }
