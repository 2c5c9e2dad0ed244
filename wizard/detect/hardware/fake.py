"""Named fake topologies, for planning without the hardware (`--topology 2x8xH100`, `topo --fake NAME`).

Names follow `[NODESx]COUNTxGPU[-nvlink|-pcie|-hybrid-cube]`, e.g. `1xH100`, `8xH100`, `2x8xH100`,
`16x8xH100`, `8xL40S-pcie`, `4xV100-hybrid-cube`. The layouts model real boards:
- nvlink: NVSwitch boards (more than 4 GPUs) show NV<links per GPU> for every pair; boards of 2-4 GPUs
  split the GPU's links evenly over its peers (4xA100 -> NV4). One RDMA NIC per GPU from 4 GPUs up.
- pcie: two sockets from 4 GPUs up (first half NUMA 0); GPUs 2k and 2k+1 share a PCIe switch (PIX,
  PHB on consumer cards), other GPUs of a socket are NODE, across sockets SYS. Data-centre cards get
  one RDMA NIC per socket.
- hybrid-cube: the DGX-1 V100 cube mesh (NV1/NV2; no direct link between quads is SYS).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wizard.core.topology import GPU, NIC, Topology
from wizard.errors import UsageError


@dataclass(frozen=True)
class GpuModel:
    """What nvidia-smi reports for one GPU model, and how boards of it are wired."""

    name: str
    memory_mib: int
    compute_capability: tuple[int, int]
    nvlinks: int = 0
    consumer: bool = False
    default_layout: str = "pcie"


# Memory is nvidia-smi's memory.total in MiB on current drivers.
GPU_MODELS: dict[str, GpuModel] = {
    "H100": GpuModel("NVIDIA H100 80GB HBM3", 81559, (9, 0), 18, default_layout="nvlink"),
    "H200": GpuModel("NVIDIA H200", 143771, (9, 0), 18, default_layout="nvlink"),
    "B200": GpuModel("NVIDIA B200", 183359, (10, 0), 18, default_layout="nvlink"),
    "A100": GpuModel("NVIDIA A100-SXM4-80GB", 81920, (8, 0), 12, default_layout="nvlink"),
    "A100-40GB": GpuModel("NVIDIA A100-SXM4-40GB", 40960, (8, 0), 12, default_layout="nvlink"),
    "V100": GpuModel("Tesla V100-SXM2-32GB", 32768, (7, 0), 6, default_layout="hybrid-cube"),
    "L40S": GpuModel("NVIDIA L40S", 46068, (8, 9)),
    "A6000": GpuModel("NVIDIA RTX A6000", 49140, (8, 6)),
    "A10": GpuModel("NVIDIA A10", 23028, (8, 6)),
    "L4": GpuModel("NVIDIA L4", 23034, (8, 9)),
    "T4": GpuModel("Tesla T4", 15360, (7, 5)),
    "4090": GpuModel("NVIDIA GeForce RTX 4090", 24564, (8, 9), consumer=True),
    "5090": GpuModel("NVIDIA GeForce RTX 5090", 32607, (12, 0), consumer=True),
}

NAMED = (
    "1xH100",
    "1xH200",
    "8xH100",
    "2x8xH100",
    "4xA100-nvlink",
    "8xL40S-pcie",
    "8x4090-pcie",
    "4xV100-hybrid-cube",
)
LAYOUTS = ("nvlink", "pcie", "hybrid-cube")
MAX_GPUS_PER_NODE = 16
MAX_NODES = 4096
_NAME_RE = re.compile(r"^(?:(\d+)x)?(\d+)x(.+?)(?:-(nvlink|pcie|hybrid-cube))?$", re.IGNORECASE)

# DGX-1 hybrid cube mesh, upper triangle by rows: (i, j) -> NVLinks; absent pairs have no direct link.
_CUBE = {
    (0, 1): 1,
    (0, 2): 1,
    (0, 3): 2,
    (0, 4): 2,
    (1, 2): 2,
    (1, 3): 1,
    (1, 5): 2,
    (2, 3): 2,
    (2, 6): 1,
    (3, 7): 1,
    (4, 5): 1,
    (4, 6): 1,
    (4, 7): 2,
    (5, 6): 2,
    (5, 7): 1,
    (6, 7): 2,
}


def _valid_names() -> str:
    models = ", ".join(GPU_MODELS)
    return (
        f"valid: {', '.join(NAMED)}, or [NODESx]COUNTxGPU[-nvlink|-pcie|-hybrid-cube] "
        f"with GPU one of {models} (e.g. 16x8xH100)"
    )


def _numa_of(count: int, i: int) -> int:
    return 0 if count < 4 else int(i >= (count + 1) // 2)


def _cpus(numa: int) -> str:
    return f"{numa * 32}-{numa * 32 + 31}"


def _nvlink_links(model: GpuModel, count: int) -> list[list[str]]:
    per_pair = model.nvlinks if count > 4 else max(1, model.nvlinks // max(1, count - 1))
    return [["X" if i == j else f"NV{per_pair}" for j in range(count)] for i in range(count)]


def _pcie_links(model: GpuModel, count: int) -> list[list[str]]:
    near = "PHB" if model.consumer else "PIX"
    out = []
    for i in range(count):
        row = []
        for j in range(count):
            if i == j:
                row.append("X")
            elif i // 2 == j // 2:
                row.append(near)
            elif _numa_of(count, i) == _numa_of(count, j):
                row.append("NODE")
            else:
                row.append("SYS")
        out.append(row)
    return out


def _cube_links(count: int) -> list[list[str]]:
    out = [["X" if i == j else "SYS" for j in range(count)] for i in range(count)]
    for (i, j), n in _CUBE.items():
        if i < count and j < count:
            out[i][j] = out[j][i] = f"NV{n}"
    return out


def _nics(layout: str, model: GpuModel, links: list[list[str]]) -> list[NIC]:
    count = len(links)
    if layout == "pcie":
        if model.consumer or count < 2:
            return []
        anchors = sorted({(count + 1) // 2 * s for s in range(2 if count >= 4 else 1)})
    else:
        if count < 4:
            return []
        anchors = list(range(count))
    nics = []
    for k, anchor in enumerate(anchors):
        row = []
        for g in range(count):
            if g == anchor:
                row.append("PIX")
            elif _numa_of(count, g) == _numa_of(count, anchor):
                row.append("NODE")
            else:
                row.append("SYS")
        nics.append(NIC(name=f"NIC{k}", device=f"mlx5_{k}", links=row))
    return nics


def fake_topology(name: str) -> Topology:
    """The fake `Topology` for a name; UsageError (listing valid names) for anything else."""
    spec = name.strip()
    m = _NAME_RE.match(spec)
    model_key = m.group(3).upper() if m else ""
    model = GPU_MODELS.get(model_key)
    if m is None or model is None:
        raise UsageError(f"unknown fake topology {name!r}; {_valid_names()}")
    nodes = int(m.group(1) or 1)
    count = int(m.group(2))
    layout = (m.group(4) or model.default_layout).lower()
    if not 1 <= count <= MAX_GPUS_PER_NODE:
        raise UsageError(f"fake topology {name!r}: GPUs per node must be 1..{MAX_GPUS_PER_NODE}")
    if not 1 <= nodes <= MAX_NODES:
        raise UsageError(f"fake topology {name!r}: nodes must be 1..{MAX_NODES}")
    if layout == "hybrid-cube" and count not in (4, 8):
        if m.group(4):
            raise UsageError(f"fake topology {name!r}: the hybrid cube mesh has 4 or 8 GPUs")
        layout = "pcie"
    if layout == "hybrid-cube" and model_key != "V100":
        raise UsageError(f"fake topology {name!r}: the hybrid cube mesh is a V100 (DGX-1) board")
    if layout == "nvlink" and not model.nvlinks:
        raise UsageError(f"fake topology {name!r}: {model.name} has no NVLink boards; use -pcie")
    if count == 1:
        links = [["X"]]
    elif layout == "nvlink":
        links = _nvlink_links(model, count)
    elif layout == "hybrid-cube":
        links = _cube_links(count)
    else:
        links = _pcie_links(model, count)
    gpus = [
        GPU(
            index=i,
            name=model.name,
            memory_mib=model.memory_mib,
            numa=_numa_of(count, i),
            compute_capability=model.compute_capability,
            mig=False,
            cpu_affinity=_cpus(_numa_of(count, i)),
        )
        for i in range(count)
    ]
    return Topology(
        source="fake",
        gpus=gpus,
        links=links,
        nodes=nodes,
        nics=_nics(layout, model, links),
        label=spec,
    )


def is_fake_name(spec: str) -> bool:
    """Whether a string has the shape of a fake name (the GPU model may still be unknown)."""
    return _NAME_RE.match(spec.strip()) is not None
