"""NVML detection against a fake `pynvml` module injected into sys.modules (CI has no GPU)."""

from __future__ import annotations

import json
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from wizard.core.tp_planner import recommended_tp_groups
from wizard.detect.hardware.nvml import NoGPUError, detect_nvml
from wizard.detect.hardware.smi import parse_topo_matrix


class NVMLError(Exception):
    def __init__(self, value: int = 999) -> None:
        super().__init__(value)
        self.value = value


def _err(name: str, code: int) -> type:
    return type(f"NVMLError_{name}", (NVMLError,), {"__init__": lambda self: NVMLError.__init__(self, code)})


NotSupported = _err("NotSupported", 3)
InvalidArgument = _err("InvalidArgument", 2)
LibraryNotFound = _err("LibraryNotFound", 12)
DriverNotLoaded = _err("DriverNotLoaded", 9)
LibRmVersionMismatch = _err("LibRmVersionMismatch", 18)


@dataclass
class FakeGPU:
    bus: str
    name: str = "NVIDIA H100 80GB HBM3"
    mem: int = 81559 * (1 << 20)
    links: list = field(default_factory=list)  # per link: ("switch",) or ("gpu", bus) or None (inactive)
    numa_words: object = (1,)
    mig: object = (0, 0)
    unsupported: set = field(default_factory=set)


class FakeNVML:
    """Builds a module object with the pynvml names detect_nvml uses."""

    def __init__(self, gpus, level=None, p2p_nvlink=None, p2p_read=0, init_error=None, max_links=18):
        self.gpus, self.level, self.p2p_nvlink, self.p2p_read = gpus, level, p2p_nvlink, p2p_read
        self.init_error, self.shutdowns, self.max_links = init_error, 0, max_links

    def module(self) -> types.ModuleType:
        m = types.ModuleType("pynvml")
        m.NVMLError = NVMLError
        for cls in (NotSupported, InvalidArgument, LibraryNotFound, DriverNotLoaded, LibRmVersionMismatch):
            setattr(m, cls.__name__, cls)
        m.NVML_NVLINK_MAX_LINKS = self.max_links
        m.NVML_P2P_CAPS_INDEX_READ = (0,)  # the real 13.x binding's stray-comma tuple
        m.NVML_P2P_CAPS_INDEX_NVLINK = 2
        m.NVML_AFFINITY_SCOPE_NODE = 0
        for name in dir(self):
            if name.startswith("nvml"):
                setattr(m, name, getattr(self, name))
        return m

    def _gpu(self, h) -> FakeGPU:
        return self.gpus[h]

    def _check(self, h, what):
        if what in self._gpu(h).unsupported:
            raise NotSupported()

    def nvmlInit(self):
        if self.init_error:
            raise self.init_error()

    def nvmlShutdown(self):
        self.shutdowns += 1

    def nvmlDeviceGetCount(self):
        return len(self.gpus)

    def nvmlDeviceGetHandleByIndex(self, k):
        return k

    def nvmlDeviceGetPciInfo(self, h):
        self._check(h, "pci")
        return types.SimpleNamespace(busId=self._gpu(h).bus.encode())

    def nvmlDeviceGetName(self, h):
        self._check(h, "name")
        return self._gpu(h).name

    def nvmlDeviceGetMemoryInfo(self, h):
        return types.SimpleNamespace(total=self._gpu(h).mem)

    def nvmlDeviceGetUUID(self, h):
        return f"GPU-{h:08d}-0000-0000-0000-000000000000"

    def nvmlDeviceGetCudaComputeCapability(self, h):
        return (9, 0)

    def nvmlDeviceGetMigMode(self, h):
        self._check(h, "mig")
        return list(self._gpu(h).mig)

    def nvmlDeviceGetMemoryAffinity(self, h, size, scope):
        self._check(h, "numa")
        return list(self._gpu(h).numa_words)

    def nvmlDeviceGetCpuAffinity(self, h, size):
        self._check(h, "cpus")
        return [0xFFFF] if self._gpu(h).numa_words == (1,) else [0xFFFF0000]

    def nvmlDeviceGetNvLinkState(self, h, link):
        self._check(h, "nvlink")
        links = self._gpu(h).links
        if link >= len(links):
            raise InvalidArgument()
        return 0 if links[link] is None else 1

    def nvmlDeviceGetNvLinkRemoteDeviceType(self, h, link):
        return 2 if self._gpu(h).links[link][0] == "switch" else 0

    def nvmlDeviceGetNvLinkRemotePciInfo(self, h, link):
        far = self._gpu(h).links[link]
        return types.SimpleNamespace(busId=far[1] if far[0] == "gpu" else "00000000:C0:00.0")

    def nvmlDeviceGetTopologyCommonAncestor(self, a, b):
        if self.level is None:
            raise NotSupported()
        return self.level(a, b)

    def nvmlDeviceGetP2PStatus(self, a, b, index):
        if not isinstance(index, int):
            raise TypeError("Don't know how to convert parameter 3")
        value = self.p2p_read if index == 0 else self.p2p_nvlink
        if value is None:
            raise NotSupported()
        return value


def bus(i: int) -> str:
    return f"00000000:{0x18 + 0x10 * i:02X}:00.0"


@pytest.fixture
def inject(monkeypatch, tmp_path):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)

    def _inject(fake: FakeNVML):
        monkeypatch.setitem(sys.modules, "pynvml", fake.module())
        return fake

    return _inject


def detect(tmp_path):
    return detect_nvml(sys_root=str(tmp_path))


def test_no_package_is_no_gpu(monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)
    with pytest.raises(NoGPUError, match="nvidia-ml-py package is not installed"):
        detect_nvml()


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (LibraryNotFound, "libnvidia-ml.so.1"),
        (DriverNotLoaded, "kernel driver is not loaded"),
        (LibRmVersionMismatch, "reboot"),
    ],
)
def test_no_driver_is_no_gpu(inject, tmp_path, error, words):
    inject(FakeNVML([], init_error=error))
    with pytest.raises(NoGPUError, match=words) as err:
        detect(tmp_path)
    assert str(err.value).startswith("no NVIDIA GPU here")


def test_zero_gpus_is_no_gpu_and_nvml_is_shut_down(inject, tmp_path):
    fake = inject(FakeNVML([]))
    with pytest.raises(NoGPUError, match="0 GPUs"):
        detect(tmp_path)
    assert fake.shutdowns == 1


def test_one_gpu_vm_where_every_topology_call_is_not_supported(inject, tmp_path):
    gpu = FakeGPU(bus(0), name="NVIDIA H200", mem=150754820096, unsupported={"nvlink", "numa"})
    inject(FakeNVML([gpu], p2p_nvlink=5))
    t = detect(tmp_path)
    assert t.source == "nvml"
    assert (t.gpus[0].name, t.gpus[0].memory_mib, t.gpus[0].numa) == ("NVIDIA H200", 143771, None)
    assert t.gpus[0].cpu_affinity == "0-15"
    assert t.links == [["X"]]
    assert "NUMA node (memory affinity) of GPU0: NotSupported" in t.unknown
    assert "NVLink state of GPU0: NotSupported" in t.unknown
    assert t.nics_known is False


def test_nvswitch_board_counts_switch_links_for_every_pair(inject, tmp_path):
    gpus = [FakeGPU(bus(i), links=[("switch",)] * 18, numa_words=(1,) if i < 4 else (2,)) for i in range(8)]
    inject(FakeNVML(gpus, level=lambda a, b: 40 if (a < 4) == (b < 4) else 50, p2p_nvlink=0))
    t = detect(tmp_path)
    assert {t.links[i][j] for i in range(8) for j in range(8) if i != j} == {"NV18"}
    assert [g.numa for g in t.gpus] == [0] * 4 + [1] * 4
    assert recommended_tp_groups(t)[4] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert not any("P2P read" in u for u in t.unknown)


def test_a_gpu_with_inactive_switch_links_lowers_its_pairs(inject, tmp_path):
    gpus = [FakeGPU(bus(i), links=[("switch",)] * 18) for i in range(3)]
    gpus[2].links = [("switch",)] * 16 + [None, None]
    inject(FakeNVML(gpus, level=lambda a, b: 40, p2p_nvlink=0))
    t = detect(tmp_path)
    assert (t.links[0][1], t.links[0][2], t.links[1][2]) == ("NV18", "NV16", "NV16")


def test_direct_links_are_counted_per_peer(inject, tmp_path):
    gpus = [
        FakeGPU(bus(0), links=[("gpu", bus(1)), ("gpu", bus(2)), ("gpu", bus(2)), None]),
        FakeGPU(bus(1), links=[("gpu", bus(0))]),
        FakeGPU(bus(2), links=[("gpu", bus(0)), ("gpu", bus(0))]),
    ]
    inject(FakeNVML(gpus, level=lambda a, b: 30, p2p_nvlink=5))
    t = detect(tmp_path)
    assert t.links[0][1:] == ["NV1", "NV2"]
    assert t.links[1][2] == "PHB"


def test_pcie_levels_map_to_smi_symbols(inject, tmp_path):
    levels = {(0, 1): 10, (0, 2): 20, (0, 3): 30, (1, 2): 40, (1, 3): 50, (2, 3): 0}
    inject(FakeNVML([FakeGPU(bus(i)) for i in range(4)], level=lambda a, b: levels[(a, b)], p2p_nvlink=5))
    t = detect(tmp_path)
    got = [t.links[a][b] for a, b in sorted(levels)]
    assert got == ["PIX", "PXB", "PHB", "NODE", "SYS", "PIX"]


def test_unreadable_links_are_unknown_never_guessed(inject, tmp_path):
    gpus = [FakeGPU(bus(i), unsupported={"nvlink"}) for i in range(2)]
    inject(FakeNVML(gpus, level=None, p2p_nvlink=0))
    t = detect(tmp_path)
    assert t.links[0][1] == "?"
    assert "PCIe level (common ancestor) of GPU0-GPU1: NotSupported" in t.unknown
    assert any("NVLink P2P is reported OK but the number of links could not be read" in u for u in t.unknown)


def test_unreadable_nvlink_with_known_pcie_level_says_so(inject, tmp_path):
    inject(
        FakeNVML([FakeGPU(bus(i), unsupported={"nvlink"}) for i in range(2)], level=lambda a, b: 50, p2p_nvlink=None)
    )
    t = detect(tmp_path)
    assert t.links[0][1] == "SYS"
    assert "GPU0-GPU1: NVLink could not be read; the PCIe level is shown" in t.unknown


def test_no_p2p_reads_are_reported(inject, tmp_path):
    inject(FakeNVML([FakeGPU(bus(i)) for i in range(2)], level=lambda a, b: 30, p2p_nvlink=5, p2p_read=2))
    t = detect(tmp_path)
    assert any("no PCIe peer-to-peer reads (GNS)" in u for u in t.unknown)


def test_mig_not_supported_and_mig_on(inject, tmp_path):
    inject(
        FakeNVML(
            [FakeGPU(bus(0), unsupported={"mig"}), FakeGPU(bus(1), mig=(1, 1))], level=lambda a, b: 30, p2p_nvlink=5
        )
    )
    t = detect(tmp_path)
    assert [g.mig for g in t.gpus] == [None, True]
    assert "MIG mode of GPU0: NotSupported" in t.unknown


def test_missing_function_in_old_binding_is_unknown(inject, tmp_path, monkeypatch):
    fake = FakeNVML([FakeGPU(bus(0))], p2p_nvlink=5)
    module = fake.module()
    del module.nvmlDeviceGetCudaComputeCapability
    monkeypatch.setitem(sys.modules, "pynvml", module)
    t = detect(tmp_path)
    assert t.gpus[0].compute_capability is None
    assert "compute capability of GPU0: missing in this nvidia-ml-py" in t.unknown


def test_gpus_are_numbered_in_pci_bus_order(inject, tmp_path):
    inject(FakeNVML([FakeGPU(bus(1), name="B"), FakeGPU(bus(0), name="A")], level=lambda a, b: 30, p2p_nvlink=5))
    t = detect(tmp_path)
    assert [g.name for g in t.gpus] == ["A", "B"]
    assert [g.pci_bus_id for g in t.gpus] == [bus(0), bus(1)]
    assert any("PCI bus order" in n for n in t.notes)


def test_cuda_visible_devices_is_explained(inject, tmp_path, monkeypatch):
    inject(FakeNVML([FakeGPU(bus(i)) for i in range(2)], level=lambda a, b: 30, p2p_nvlink=5))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1,GPU-00000000")
    t = detect(tmp_path)
    assert any(
        "CUDA_VISIBLE_DEVICES=1,GPU-00000000" in n and "cuda:0 = GPU1" in n and "cuda:1 = GPU0" in n for n in t.notes
    )


def test_sysfs_numa_and_cpus_win_and_rdma_nics_are_listed(inject, tmp_path):
    inject(FakeNVML([FakeGPU(bus(0), unsupported={"numa", "cpus"})], p2p_nvlink=5))
    dev = tmp_path / "bus" / "pci" / "devices" / "0000:18:00.0"
    dev.mkdir(parents=True)
    (dev / "numa_node").write_text("1\n")
    (dev / "local_cpulist").write_text("56-111,168-223\n")
    (tmp_path / "class" / "infiniband" / "mlx5_0").mkdir(parents=True)
    t = detect(tmp_path)
    assert (t.gpus[0].numa, t.gpus[0].cpu_affinity) == (1, "56-111,168-223")
    assert not any("NUMA" in u for u in t.unknown)
    assert [(n.name, n.device, n.links) for n in t.nics] == [("NIC0", "mlx5_0", ["?"])]
    assert t.nics_known is True


def test_sysfs_numa_minus_one_falls_back_to_nvml(inject, tmp_path):
    inject(FakeNVML([FakeGPU(bus(0), numa_words=(2,))], p2p_nvlink=5))
    dev = tmp_path / "bus" / "pci" / "devices" / "0000:18:00.0"
    dev.mkdir(parents=True)
    (dev / "numa_node").write_text("-1\n")
    assert detect(tmp_path).gpus[0].numa == 1


def test_shutdown_runs_even_when_a_handle_cannot_be_opened(inject, tmp_path, monkeypatch):
    fake = FakeNVML([FakeGPU(bus(0))])
    module = fake.module()

    def broken(k):
        raise NVMLError(15)

    module.nvmlDeviceGetHandleByIndex = broken
    monkeypatch.setitem(sys.modules, "pynvml", module)
    with pytest.raises(NoGPUError, match="could not open GPU 0"):
        detect(tmp_path)
    assert fake.shutdowns == 1


H200 = Path(__file__).parent / "fixtures" / "h200"


def test_real_h200_nvml_json_agrees_with_nvidia_smi():
    """The NVML detection run on the borrowed H200 against nvidia-smi's own outputs from the same run."""
    data = json.loads((H200 / "h200_topo.json").read_text())
    full = json.loads((H200 / "h200_detect_full.json").read_text())
    smi_q = (H200 / "h200_smi_q.txt").read_text()
    smi_m = parse_topo_matrix((H200 / "h200_topo_m.txt").read_bytes())
    assert list(data) == ["source", "gpus", "links", "tp_groups", "unknown"]
    assert data["source"] == "nvml"
    assert len(data["gpus"]) == len(smi_m.gpus) == 1
    name = re.search(r"Product Name\s*:\s*(.+)", smi_q).group(1).strip()
    total = int(re.search(r"FB Memory Usage\s*\n\s*Total\s*:\s*(\d+) MiB", smi_q).group(1))
    bus_id = re.search(r"Bus Id\s*:\s*(\S+)", smi_q).group(1)
    assert data["gpus"][0] == {"index": 0, "name": name, "memory_mib": total, "numa": smi_m.gpus[0].numa}
    assert (name, total) == ("NVIDIA H200", 143771)
    assert full["gpus"][0]["pci_bus_id"] == bus_id
    assert full["gpus"][0]["cpu_affinity"] == smi_m.gpus[0].cpu_affinity
    assert data["links"] == smi_m.links
    assert data["tp_groups"] == {}
    assert data["unknown"] == ["NVLink state of GPU0: NotSupported"]


def test_real_h200_nvml_detection_beat_nvidia_smi_topo():
    timing = (H200 / "h200_timing.txt").read_text()
    ratio = float(re.search(r"ratio nvidia-smi/NVML \(medians\): ([\d.]+)x", timing).group(1))
    assert ratio > 1.0
