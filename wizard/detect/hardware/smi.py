"""Parse `nvidia-smi topo -m` output as people paste it into a file or an issue.

Handles every legend symbol (X, NV#, PIX, PXB, PHB, NODE, SYS and the old SOC), NIC columns named
NIC0.. or by device (mlx5_0, mlx4_0) and the "NIC Legend:" block, the CPU Affinity / NUMA Affinity /
GPU NUMA ID columns (any of them may be missing), the ANSI underline recent drivers put around the
header (also as literal "[4m" once the ESC byte is lost), tabs or any runs of spaces, CRLF line ends,
prompt lines or code fences around the block, and `nvidia-smi -L` lines (for GPU names) in the same
text. Anything it cannot read for sure raises `UsageError` with one line; the work is bounded by the
input size limit.
"""

from __future__ import annotations

import re

from wizard.core.topology import GPU, NIC, Topology, normalize_link
from wizard.errors import UsageError

MAX_INPUT_BYTES = 1 << 20
MAX_GPUS = 64
MAX_COLUMNS = 512

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f]")
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\[[0-9;]*m")
_HEADER_TOKEN_RE = re.compile(r"GPU\s+NUMA\s+ID|CPU\s+Affinity|NUMA\s+Affinity|\S+", re.IGNORECASE)
_GPU_COL_RE = re.compile(r"^GPU(\d+)$")
_NIC_LEGEND_RE = re.compile(r"^\s*(NIC\d+)\s*:\s*(\S+)\s*$")
_SMI_L_RE = re.compile(r"^\s*GPU (\d+): (.+?) \(UUID: (GPU-[0-9a-fA-F-]+)\)\s*$")
_AFFINITY_NAMES = {"cpu affinity": "cpu", "numa affinity": "numa", "gpu numa id": "gpu_numa"}


def _decode(data: str | bytes, origin: str) -> str:
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(
            f"{origin} is {len(data)} bytes; nvidia-smi topo -m output is a few KB "
            f"(limit {MAX_INPUT_BYTES}): pass only that output"
        )
    if isinstance(data, bytes):
        if b"\x00" in data:
            raise UsageError(f"{origin} is binary data, not the text of nvidia-smi topo -m")
        text = data.decode("utf-8", errors="replace")
    else:
        text = data
    if "\x00" in text:
        raise UsageError(f"{origin} is binary data, not the text of nvidia-smi topo -m")
    if not text.strip():
        raise UsageError(f"{origin} is empty: expected the output of nvidia-smi topo -m")
    noise = len(_CONTROL_RE.findall(text)) + text.count("\ufffd")
    if noise > len(text) // 100 + 2:
        raise UsageError(f"{origin} is binary data, not the text of nvidia-smi topo -m")
    text = _ANSI_RE.sub("", text)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")


def _header_tokens(line: str) -> list[str] | None:
    """The column names if this line is a matrix header (first name GPU0, second no link symbol)."""
    tokens = _HEADER_TOKEN_RE.findall(line.strip())
    if len(tokens) < 2 or tokens[0] != "GPU0":
        return None
    if normalize_link(tokens[1]) is not None:
        return None
    return [re.sub(r"\s+", " ", t) for t in tokens]


def _split_columns(tokens: list[str], origin: str) -> tuple[list[str], list[str], list[str]]:
    """Split header names into GPU columns, NIC columns and affinity columns, in order."""
    if len(tokens) > MAX_COLUMNS:
        raise UsageError(f"{origin}: the header has {len(tokens)} columns; this is no nvidia-smi topo -m output")
    gpus: list[str] = []
    nics: list[str] = []
    extra: list[str] = []
    for tok in tokens:
        kind = _AFFINITY_NAMES.get(tok.lower())
        if kind is not None or extra:
            extra.append(kind or tok)
            continue
        m = _GPU_COL_RE.match(tok)
        if m:
            if nics:
                raise UsageError(f"{origin}: GPU column {tok} comes after the NIC columns; the header is garbled")
            if int(m.group(1)) != len(gpus):
                raise UsageError(f"{origin}: the header names {tok} where GPU{len(gpus)} belongs")
            gpus.append(tok)
        else:
            nics.append(tok)
    if len(gpus) > MAX_GPUS:
        raise UsageError(f"{origin}: {len(gpus)} GPU columns; at most {MAX_GPUS} GPUs per node are supported")
    return gpus, nics, extra


def _int_or_none(cell: str | None) -> int | None:
    if cell is None or not cell.isdigit():
        return None
    return int(cell)


def parse_topo_matrix(data: str | bytes, origin: str = "the input") -> Topology:
    """Read `nvidia-smi topo -m` text into a one-node `Topology` (source "file").

    `origin` names the input in error messages (a file name, say). Raises UsageError when no
    complete matrix is found: no header, a missing or short GPU row, a cell that is no link symbol,
    or a diagonal cell that is not X (a sign of shifted columns).
    """
    text = _decode(data, origin)
    lines = text.split("\n")
    start = next((k for k, line in enumerate(lines) if _header_tokens(line)), None)
    if start is None:
        raise UsageError(f"{origin} holds no nvidia-smi topo -m matrix (no header line starting with GPU0 was found)")
    gpu_cols, nic_cols, extra_cols = _split_columns(_header_tokens(lines[start]) or [], origin)
    device_cols = gpu_cols + nic_cols
    n, width = len(gpu_cols), len(gpu_cols) + len(nic_cols)
    labels = set(device_cols)
    rows: dict[str, list[str]] = {}
    unknown: list[str] = []
    notes: list[str] = []
    end = len(lines)
    for k in range(start + 1, len(lines)):
        cells = lines[k].split()
        if not cells:
            if rows:
                end = k
                break
            continue
        if cells[0] not in labels:
            end = k
            break
        if cells[0] in rows:
            raise UsageError(f"{origin}: row {cells[0]} appears twice in the matrix")
        rows[cells[0]] = cells[1:]

    links: list[list[str]] = []
    gpus: list[GPU] = []
    nic_links: dict[str, list[str]] = {c: [] for c in nic_cols}
    for i, col in enumerate(gpu_cols):
        if col not in rows:
            raise UsageError(f"{origin}: the matrix is truncated: the header names {n} GPUs but row {col} is missing")
        cells = rows[col]
        if len(cells) < width:
            raise UsageError(f"{origin}: row {col} has {len(cells)} cells where the header names {width} devices")
        symbols = []
        for j, cell in enumerate(cells[:width]):
            sym = normalize_link(cell)
            if sym is None:
                raise UsageError(f"{origin}: row {col}, column {device_cols[j]}: {cell!r} is no nvidia-smi link symbol")
            symbols.append(sym)
        if symbols[i] != "X":
            raise UsageError(
                f"{origin}: row {col} has {symbols[i]!r} on the diagonal where X belongs (columns shifted?)"
            )
        if "X" in symbols[:i] + symbols[i + 1 : n]:
            raise UsageError(f"{origin}: row {col} has X off the diagonal (columns shifted?)")
        links.append(symbols[:n])
        for j, nic in enumerate(nic_cols):
            nic_links[nic].append(symbols[n + j])
        rest = cells[width:]
        if len(rest) > len(extra_cols):
            raise UsageError(
                f"{origin}: row {col} has {len(rest)} cells after the devices; the header names {len(extra_cols)}"
            )
        values = dict(zip(extra_cols, rest, strict=False))
        gpus.append(
            GPU(
                index=i,
                numa=_int_or_none(values.get("numa")),
                cpu_affinity=values.get("cpu") if values.get("cpu") not in (None, "N/A") else None,
            )
        )
    for i in range(n):
        for j in range(i + 1, n):
            if links[i][j] != links[j][i]:
                unknown.append(
                    f"GPU{i}-GPU{j}: the matrix disagrees with itself ({links[i][j]} vs {links[j][i]}); the worse is used"
                )

    nic_devices = _nic_legend(lines[end:])
    nics = [
        NIC(name=c, device=nic_devices.get(c, c if not c.startswith("NIC") else None), links=nic_links[c])
        for c in nic_cols
    ]
    for c in nic_cols:
        if c not in rows:
            notes.append(f"row {c} is missing; its links to the GPUs were read from the GPU rows")
    _apply_smi_l(lines, gpus)
    if any(g.name is None for g in gpus):
        unknown.append("GPU names and memory: nvidia-smi topo -m does not show them")
    if all(g.numa is None for g in gpus):
        if all(g.cpu_affinity is None for g in gpus):
            unknown.append("NUMA node of each GPU: no NUMA or CPU Affinity column")
        else:
            unknown.append(
                "NUMA node of each GPU: only CPU Affinity is shown; GPUs with the same CPU list count as one node"
            )
    if any(_header_tokens(line) for line in lines[end:]):
        notes.append(f"{origin} holds more than one matrix; the first was read")
    return Topology(source="file", gpus=gpus, links=links, nics=nics, unknown=unknown, notes=notes)


def _nic_legend(lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines:
        m = _NIC_LEGEND_RE.match(line)
        if m:
            out.setdefault(m.group(1), m.group(2))
    return out


def _apply_smi_l(lines: list[str], gpus: list[GPU]) -> None:
    """Fill names and UUIDs from `nvidia-smi -L` lines ("GPU 0: NVIDIA H100 ... (UUID: GPU-...)") if the text has them."""
    for line in lines:
        m = _SMI_L_RE.match(line)
        if m and int(m.group(1)) < len(gpus):
            gpu = gpus[int(m.group(1))]
            gpu.name, gpu.uuid = m.group(2), m.group(3)
