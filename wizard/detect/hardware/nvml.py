"""Detect this machine's GPUs and their links through NVML (the `nvidia-ml-py` package, `import pynvml`).

Every NVML call is wrapped on its own: a call that fails (NotSupported in VMs and containers is
common) leaves its value unknown and adds a line to `Topology.unknown`; nothing is guessed. No
library, no driver or no GPU raises `NoGPUError` so that callers can carry on with a fake or a file.

GPUs are numbered in PCI bus order, as nvidia-smi and NVML number them (CUDA may differ; a set
CUDA_VISIBLE_DEVICES is explained in `Topology.notes`). NVLink counts follow nvidia-smi's NV#: links
whose far end is the peer GPU, plus, on NVSwitch boards, min(switch links of either GPU).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

from wizard.core.topology import GPU, NIC, Topology
from wizard.errors import UsageError

# NVML_TOPOLOGY_* -> nvidia-smi symbol. INTERNAL (two GPUs on one board) is a link between two
# different GPUs, so it cannot be "X"; PIX is the closest nvidia-smi symbol.
LEVEL_SYMBOLS = {0: "PIX", 10: "PIX", 20: "PXB", 30: "PHB", 40: "NODE", 50: "SYS"}
_NVLINK_DEVICE_GPU, _NVLINK_DEVICE_SWITCH = 0, 2
_P2P_STATUS_OK = 0
_P2P_STATUS_NAMES = {1: "CNS", 2: "GNS", 3: "TNS", 4: "DR", 5: "NS", 6: "U"}


class NoGPUError(UsageError):
    """NVML is not usable here (no package, no library, no driver, or no GPU); the message says which."""


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _caps_index(pynvml: Any, name: str, default: int) -> int:
    # nvidia-ml-py 13.x defines NVML_P2P_CAPS_INDEX_READ as `0,` (a tuple); ctypes rejects a tuple.
    value = getattr(pynvml, name, default)
    return value[0] if isinstance(value, tuple) else value


def _cpu_ranges(words: Any) -> str:
    cpus = [64 * w + b for w, word in enumerate(words) for b in range(64) if int(word) >> b & 1]
    parts, k = [], 0
    while k < len(cpus):
        j = k
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[k]) if j == k else f"{cpus[k]}-{cpus[j]}")
        k = j + 1
    return ",".join(parts)


def _sysfs_pci(bus_id: str) -> str | None:
    parts = bus_id.split(":")
    if len(parts) != 3:
        return None
    try:
        return f"{int(parts[0], 16):04x}:{parts[1].lower()}:{parts[2].lower()}"
    except ValueError:
        return None


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read(4096).strip()
    except OSError:
        return None


class _Calls:
    """Runs NVML calls, times them, and groups failures as (what, reason) -> subjects."""

    def __init__(self, pynvml: Any, timings: dict[str, float] | None) -> None:
        self.nvml = pynvml
        self.timings = timings
        self.failures: dict[tuple[str, str], list[str]] = {}

    def __call__(self, what: str, subject: str | None, fn_name: str, *args: Any) -> tuple[bool, Any]:
        start = time.perf_counter()
        try:
            fn: Callable[..., Any] = getattr(self.nvml, fn_name)
            return True, fn(*args)
        except Exception as exc:  # noqa: BLE001 - any failure means "unknown", never a crash
            if subject is not None:
                self.failures.setdefault((what, self.reason(exc)), []).append(subject)
            return False, exc
        finally:
            if self.timings is not None:
                self.timings[fn_name] = self.timings.get(fn_name, 0.0) + (time.perf_counter() - start) * 1000

    def reason(self, exc: BaseException) -> str:
        if isinstance(exc, AttributeError):
            return "missing in this nvidia-ml-py"
        name = type(exc).__name__
        return name.split("_", 1)[1] if name.startswith("NVMLError_") else name

    def is_(self, exc: Any, kind: str) -> bool:
        cls = getattr(self.nvml, f"NVMLError_{kind}", None)
        return cls is not None and isinstance(exc, cls)

    def unknown_lines(self, gpu_total: int, pair_total: int) -> list[str]:
        out = []
        for (what, reason), subjects in self.failures.items():
            pairs = "-" in subjects[0]
            total = pair_total if pairs else gpu_total
            every = len(subjects) == total and total > 1
            who = f"all {total} {'pairs' if pairs else 'GPUs'}" if every else ", ".join(subjects)
            out.append(f"{what} of {who}: {reason}")
        return out


def _init(pynvml: Any) -> None:
    try:
        pynvml.nvmlInit()
    except Exception as exc:
        name = type(exc).__name__
        if "LibraryNotFound" in name:
            why = "the NVIDIA driver library libnvidia-ml.so.1 is not installed"
        elif "DriverNotLoaded" in name:
            why = "the NVIDIA kernel driver is not loaded"
        elif "LibRmVersionMismatch" in name:
            why = "the NVIDIA driver and its library differ in version (reboot after a driver upgrade)"
        else:
            why = f"NVML did not start ({name}: {exc})"
        raise NoGPUError(f"no NVIDIA GPU here: {why}") from exc


def detect_nvml(timings: dict[str, float] | None = None, sys_root: str = "/sys") -> Topology:
    """Read this machine's GPUs with NVML into a one-node `Topology` (source "nvml").

    `timings`, if given, receives the milliseconds spent per NVML function. `sys_root` is where
    sysfs is mounted (tests point it elsewhere). Raises NoGPUError when NVML is unusable.
    """
    try:
        import pynvml
    except ImportError as exc:
        why = "the nvidia-ml-py package is not installed (pip install nvidia-ml-py)"
        raise NoGPUError(f"no NVIDIA GPU here: {why}") from exc
    _init(pynvml)
    try:
        return _detect(pynvml, _Calls(pynvml, timings), sys_root)
    finally:
        with contextlib.suppress(Exception):  # shutting down is best effort
            pynvml.nvmlShutdown()


def _detect(pynvml: Any, call: _Calls, sys_root: str) -> Topology:
    ok, count = call("GPU count", None, "nvmlDeviceGetCount")
    if not ok:
        raise NoGPUError(f"no NVIDIA GPU here: NVML could not count GPUs ({call.reason(count)})")
    if count == 0:
        raise NoGPUError("no NVIDIA GPU here: NVML sees 0 GPUs")
    handles = []
    for k in range(count):
        ok, h = call("device handle", f"GPU{k}", "nvmlDeviceGetHandleByIndex", k)
        if not ok:
            raise NoGPUError(f"no usable NVIDIA GPU here: NVML could not open GPU {k} ({call.reason(h)})")
        ok, pci = call("PCI bus id", f"GPU{k}", "nvmlDeviceGetPciInfo", h)
        handles.append((_text(pci.busId).upper() if ok else None, k, h))
    notes: list[str] = []
    if all(b is not None for b, _, _ in handles):
        ordered = sorted(handles, key=lambda t: (t[0], t[1]))
        if [k for _, k, _ in ordered] != list(range(count)):
            notes.append("NVML's order differs from PCI bus order; GPUs are numbered by PCI bus id here")
        handles = ordered
    gpus = [_read_gpu(pynvml, call, i, h, bus, sys_root) for i, (bus, _, h) in enumerate(handles)]
    links, pair_lines = _read_links(pynvml, call, [h for _, _, h in handles], [g.pci_bus_id for g in gpus])
    unknown = call.unknown_lines(count, count * (count - 1) // 2) + pair_lines
    nics, nics_known = _read_nics(sys_root, count, unknown)
    notes.extend(_cuda_visible_notes(gpus))
    return Topology(
        source="nvml", gpus=gpus, links=links, nics=nics, nics_known=nics_known, unknown=unknown, notes=notes
    )


def _read_gpu(pynvml: Any, call: _Calls, i: int, h: Any, bus: str | None, sys_root: str) -> GPU:
    who = f"GPU{i}"
    gpu = GPU(index=i, pci_bus_id=bus)
    ok, v = call("name", who, "nvmlDeviceGetName", h)
    gpu.name = _text(v) if ok else None
    ok, v = call("memory", who, "nvmlDeviceGetMemoryInfo", h)
    gpu.memory_mib = int(v.total) // (1 << 20) if ok else None
    ok, v = call("UUID", who, "nvmlDeviceGetUUID", h)
    gpu.uuid = _text(v) if ok else None
    ok, v = call("compute capability", who, "nvmlDeviceGetCudaComputeCapability", h)
    gpu.compute_capability = (int(v[0]), int(v[1])) if ok else None
    ok, v = call("MIG mode", who, "nvmlDeviceGetMigMode", h)
    gpu.mig = bool(v[0]) if ok else None
    sysfs = f"{sys_root}/bus/pci/devices/{_sysfs_pci(bus)}" if bus and _sysfs_pci(bus) else None
    node = _read(f"{sysfs}/numa_node") if sysfs else None
    if node is not None and node.lstrip("-").isdigit() and int(node) >= 0:
        gpu.numa = int(node)
    else:
        scope = getattr(pynvml, "NVML_AFFINITY_SCOPE_NODE", 0)
        ok, v = call("NUMA node (memory affinity)", who, "nvmlDeviceGetMemoryAffinity", h, 4, scope)
        if ok:
            nodes = [64 * w + b for w, word in enumerate(v) for b in range(64) if int(word) >> b & 1]
            gpu.numa = nodes[0] if len(nodes) == 1 else None
            if len(nodes) != 1:
                why = f"memory is near NUMA nodes {nodes}" if nodes else "the memory affinity names no NUMA node"
                call.failures.setdefault(("NUMA node", why), []).append(who)
    cpus = _read(f"{sysfs}/local_cpulist") if sysfs else None
    if cpus:
        gpu.cpu_affinity = cpus
    else:
        words = max(1, -(-(os.cpu_count() or 1) // 64))
        ok, v = call("CPU affinity", who, "nvmlDeviceGetCpuAffinity", h, words)
        gpu.cpu_affinity = (_cpu_ranges(v) or None) if ok else None
    return gpu


def _nvlink_scan(pynvml: Any, call: _Calls, h: Any, bus_ids: list[str | None]) -> tuple[dict[int, int], int, bool, int]:
    """One GPU's active NVLinks: (links per peer index, links to a switch, readable, links with an unknown far end)."""
    direct: dict[int, int] = {}
    switch = unresolved = 0
    read_any = blocked = False
    for link in range(int(getattr(pynvml, "NVML_NVLINK_MAX_LINKS", 18))):
        ok, state = call("NVLink state", None, "nvmlDeviceGetNvLinkState", h, link)
        if not ok:
            # InvalidArgument: past the GPU's last link; keep going, link numbers can have gaps.
            blocked = blocked or not call.is_(state, "InvalidArgument")
            continue
        read_any = True
        if state != 1:
            continue
        ok, kind = call("NVLink far end", None, "nvmlDeviceGetNvLinkRemoteDeviceType", h, link)
        if ok and kind == _NVLINK_DEVICE_SWITCH:
            switch += 1
            continue
        ok_pci, remote = call("NVLink far end", None, "nvmlDeviceGetNvLinkRemotePciInfo", h, link)
        peer_bus = _text(remote.busId).upper() if ok_pci else None
        if peer_bus is not None and peer_bus in bus_ids:
            peer = bus_ids.index(peer_bus)
            direct[peer] = direct.get(peer, 0) + 1
        elif not (ok and kind == _NVLINK_DEVICE_GPU):
            unresolved += 1
    return direct, switch, read_any or not blocked, unresolved


def _read_links(
    pynvml: Any, call: _Calls, handles: list[Any], bus_ids: list[str | None]
) -> tuple[list[list[str]], list[str]]:
    """The link matrix, and the lines about links that stay unknown or limit peer-to-peer traffic."""
    n = len(handles)
    scans = [_nvlink_scan(pynvml, call, h, bus_ids) for h in handles]
    extra: list[str] = []
    unreadable = [f"GPU{i}" for i, s in enumerate(scans) if not s[2]]
    if unreadable:
        extra.append(f"NVLink state of {', '.join(unreadable)}: NotSupported")
    for i, s in enumerate(scans):
        if s[3]:
            extra.append(f"GPU{i}: {s[3]} active NVLinks end at a device NVML does not identify")
    nvlink_idx = _caps_index(pynvml, "NVML_P2P_CAPS_INDEX_NVLINK", 2)
    read_idx = _caps_index(pynvml, "NVML_P2P_CAPS_INDEX_READ", 0)
    links = [["X"] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            pair = f"GPU{i}-GPU{j}"
            ok, level = call(
                "PCIe level (common ancestor)", pair, "nvmlDeviceGetTopologyCommonAncestor", handles[i], handles[j]
            )
            level_sym = LEVEL_SYMBOLS.get(level) if ok else None
            ok_p2p, p2p = call("NVLink P2P status", pair, "nvmlDeviceGetP2PStatus", handles[i], handles[j], nvlink_idx)
            ok_read, read = call("P2P read status", pair, "nvmlDeviceGetP2PStatus", handles[i], handles[j], read_idx)
            if ok_read and read != _P2P_STATUS_OK:
                status = _P2P_STATUS_NAMES.get(read, read)
                extra.append(f"{pair}: no PCIe peer-to-peer reads ({status}); NCCL goes through host memory")
            si, sj = scans[i], scans[j]
            count = max(si[0].get(j, 0), sj[0].get(i, 0)) + (min(si[1], sj[1]) if si[1] and sj[1] else 0)
            readable = si[2] and sj[2] and not si[3] and not sj[3]
            if count:
                sym = f"NV{count}"
            elif ok_p2p and p2p == _P2P_STATUS_OK:
                sym = "?"
                extra.append(f"{pair}: NVLink P2P is reported OK but the number of links could not be read")
            elif level_sym is not None:
                sym = level_sym
                if not readable and not ok_p2p:
                    extra.append(f"{pair}: NVLink could not be read; the PCIe level is shown")
            else:
                sym = "?"
            links[i][j] = links[j][i] = sym
    return links, extra


def _read_nics(sys_root: str, n: int, unknown: list[str]) -> tuple[list[NIC], bool]:
    path = f"{sys_root}/class/infiniband"
    try:
        names = sorted(os.listdir(path))
    except OSError:
        unknown.append("RDMA NICs: NVML does not list network adapters and /sys/class/infiniband is absent")
        return [], False
    if names:
        unknown.append(
            "link level of RDMA NICs to GPUs: NVML does not report it (pass nvidia-smi topo -m output to see it)"
        )
    return [NIC(name=f"NIC{k}", device=d, links=["?"] * n) for k, d in enumerate(names)], True


def _cuda_visible_notes(gpus: list[GPU]) -> list[str]:
    value = os.environ.get("CUDA_VISIBLE_DEVICES")
    if value is None:
        return []
    mapped = []
    for cuda, entry in enumerate(e.strip() for e in value.split(",") if e.strip()):
        if entry.isdigit():
            hit = next((g for g in gpus if g.index == int(entry)), None)
        else:
            hit = next((g for g in gpus if g.uuid and g.uuid.startswith(entry)), None)
        mapped.append(f"cuda:{cuda} = GPU{hit.index}" if hit else f"cuda:{cuda} = {entry} (not found)")
    return [
        f"CUDA_VISIBLE_DEVICES={value} is set; NVML ignores it and lists all {len(gpus)} GPUs in PCI bus order"
        + (f" ({', '.join(mapped)}, by PCI order or UUID)" if mapped else "")
    ]
