"""The GPU topology of one node type: its GPUs, their links and network adapters, and what a group of
GPUs or one GPU is connected by.

Pure data and arithmetic: no textual, no pynvml. The detectors in `wizard.detect` (NVML, the
`nvidia-smi topo -m` parser, the named fakes) all produce a `Topology`; the rules and the TUI read it.
The TP group planner over it is wizard.core.tp_planner.

Links use nvidia-smi's symbols: "X" (self), "NV<n>" (n bonded NVLinks), "PIX", "PXB", "PHB", "NODE",
"SYS" (the legacy "SOC" is stored as "SYS") and "?" where the link could not be read. Better links
rank higher: NV# (more links first) > PIX > PXB > PHB > NODE > SYS > "?".

A cluster is `nodes` identical nodes; `gpus` and `links` describe one of them. Global GPU index =
node * gpus_per_node + local index, as verl numbers its workers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Source = Literal["nvml", "file", "fake"]

SELF = "X"
UNKNOWN = "?"
PCIE_SYMBOLS = ("PIX", "PXB", "PHB", "NODE", "SYS")
_NV_RE = re.compile(r"^NV(\d{1,3})$")
_PCIE_RANK = {"PIX": 50, "PXB": 40, "PHB": 30, "NODE": 20, "SYS": 10}
WEAK_SYMBOLS = frozenset({"NODE", "SYS"})


def normalize_link(symbol: str) -> str | None:
    """Return the canonical symbol for a matrix cell ("SOC" -> "SYS", "nv18" -> "NV18"), or None if it is no link symbol."""
    s = symbol.strip().upper()
    if s in ("X", "?"):
        return s
    if s == "SOC":
        return "SYS"
    if s in _PCIE_RANK:
        return s
    m = _NV_RE.match(s)
    if m and int(m.group(1)) > 0:
        return f"NV{int(m.group(1))}"
    return None


def nvlink_count(symbol: str) -> int:
    """The number of bonded NVLinks a symbol names ("NV18" -> 18), 0 for any non-NVLink symbol."""
    m = _NV_RE.match(symbol)
    return int(m.group(1)) if m else 0


def link_rank(symbol: str) -> int:
    """A score where higher is a better TP link: NV<n> = 100 + n, PIX 50, PXB 40, PHB 30, NODE 20, SYS 10, "?" 0.

    "X" (self) ranks above everything so that it never is a group's worst pair.
    """
    if symbol == SELF:
        return 10_000
    n = nvlink_count(symbol)
    if n:
        return 100 + n
    return _PCIE_RANK.get(symbol, 0)


def link_label(symbol: str) -> str:
    """How usable a link is inside a TP group: "good" (NV#, PIX, PXB), "acceptable" (PHB), "poor" (NODE, SYS) or "unknown"."""
    if symbol == SELF or nvlink_count(symbol) or symbol in ("PIX", "PXB"):
        return "good"
    if symbol == "PHB":
        return "acceptable"
    if symbol in WEAK_SYMBOLS:
        return "poor"
    return "unknown"


@dataclass
class GPU:
    """One GPU of a node. Fields a source could not read are None (and named in `Topology.unknown`)."""

    index: int
    name: str | None = None
    memory_mib: int | None = None
    numa: int | None = None
    pci_bus_id: str | None = None
    uuid: str | None = None
    compute_capability: tuple[int, int] | None = None
    mig: bool | None = None
    cpu_affinity: str | None = None

    def locality(self) -> object:
        """The key that says which GPUs sit on the same CPU socket: the NUMA node, else the CPU list, else None."""
        if self.numa is not None:
            return ("numa", self.numa)
        if self.cpu_affinity and self.cpu_affinity.upper() != "N/A":
            return ("cpus", self.cpu_affinity)
        return None


@dataclass
class NIC:
    """A network adapter that nvidia-smi lists (RDMA devices): its column name, device name and link to each GPU."""

    name: str
    device: str | None = None
    links: list[str] = field(default_factory=list)


@dataclass
class Topology:
    """What is known about the GPUs of `nodes` identical nodes.

    `links[i][j]` is the symbol between local GPUs i and j. `unknown` says, one line each, what could
    not be read; `notes` holds other remarks for people (index mapping, ignored input).
    `nics_known` is False when the source cannot see network adapters at all.
    """

    source: Source
    gpus: list[GPU]
    links: list[list[str]]
    nodes: int = 1
    nics: list[NIC] = field(default_factory=list)
    nics_known: bool = True
    unknown: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    label: str = ""

    def __post_init__(self) -> None:
        n = len(self.gpus)
        if self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, got {self.nodes}")
        if len(self.links) != n or any(len(row) != n for row in self.links):
            raise ValueError(f"links must be a {n}x{n} matrix for {n} GPUs")

    @property
    def gpus_per_node(self) -> int:
        """GPUs in one node."""
        return len(self.gpus)

    @property
    def total_gpus(self) -> int:
        """GPUs in all nodes together."""
        return self.nodes * len(self.gpus)

    def link(self, a: int, b: int) -> str:
        """The worse of the two matrix cells between local GPUs a and b (they should agree)."""
        x, y = self.links[a][b], self.links[b][a]
        return x if link_rank(x) <= link_rank(y) else y


def group_quality(topology: Topology, group: list[int]) -> str:
    """The worst link symbol inside a group of global GPU indices ("X" for a single GPU).

    Raises ValueError for an index out of range or a group that spans nodes (no symbol fits that).
    """
    per = topology.gpus_per_node
    if not group:
        raise ValueError("an empty group has no quality")
    for g in group:
        if not 0 <= g < topology.total_gpus:
            raise ValueError(f"GPU {g} is not in a topology of {topology.total_gpus} GPUs")
    if len({g // per for g in group}) > 1:
        raise ValueError(f"group {group} spans nodes")
    local = [g % per for g in group]
    worst = SELF
    for i, a in enumerate(local):
        for b in local[i + 1 :]:
            sym = topology.link(a, b)
            if link_rank(sym) < link_rank(worst):
                worst = sym
    return worst


def naive_tp_groups(topology: Topology, size: int) -> list[list[int]]:
    """The groups verl/vLLM form by themselves: consecutive global indices [0..size-1], [size..2*size-1], ..."""
    if size < 1:
        raise ValueError(f"TP size must be at least 1, got {size}")
    total = topology.total_gpus
    return [list(range(s, s + size)) for s in range(0, total - size + 1, size)]


def has_rdma_nic(topology: Topology) -> bool | None:
    """For rule PLACE-011: whether the node has an RDMA NIC nvidia-smi can see; None when the source cannot tell."""
    if not topology.nics_known:
        return None
    return bool(topology.nics)


def nearest_nic(topology: Topology, gpu: int) -> tuple[NIC, str] | None:
    """The NIC with the best link to a local GPU index and that link's symbol; None without NICs or links."""
    best: tuple[NIC, str] | None = None
    for nic in topology.nics:
        if gpu < len(nic.links):
            sym = nic.links[gpu]
            if best is None or link_rank(sym) > link_rank(best[1]):
                best = (nic, sym)
    return best
