"""Turn a `--topology` argument into a `Topology`: a fake name, a file of `nvidia-smi topo -m` output, or `detect`."""

from __future__ import annotations

import os

from wizard.core.topology import Topology
from wizard.detect.hardware.fake import fake_topology, is_fake_name
from wizard.detect.hardware.nvml import detect_nvml
from wizard.detect.hardware.smi import MAX_INPUT_BYTES, parse_topo_matrix
from wizard.detect.input_files import open_regular, regular_file_problem
from wizard.errors import UsageError


def read_topology_file(path: str) -> Topology:
    """Parse a file holding `nvidia-smi topo -m` output; UsageError if it is missing, unreadable or no such output.

    At most MAX_INPUT_BYTES are read, so a huge file costs no more than a small one.
    """
    if regular_file_problem(path) == "a folder, not a regular file":
        raise UsageError(f"{path} is a directory; expected a file with nvidia-smi topo -m output")
    if regular_file_problem(path) == "no such file":
        raise UsageError(f"{path}: no such file (expected nvidia-smi topo -m output)")
    fd = open_regular(path)
    try:
        with os.fdopen(fd, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return parse_topo_matrix(data, origin=path)


def load_topology(spec: str) -> Topology:
    """`detect` (NVML on this machine; NoGPUError if there is none), an existing file, or a fake name.

    An existing file wins over a fake name of the same spelling. Anything else is a UsageError that
    says what is accepted.
    """
    spec = spec.strip()
    if not spec:
        raise UsageError(
            "--topology '': empty; give 'detect', a file of nvidia-smi topo -m output, or a fake name such as 8xH100"
        )
    if spec == "detect":
        return detect_nvml()
    if os.path.lexists(spec):
        return read_topology_file(spec)
    if is_fake_name(spec):
        return fake_topology(spec)
    if os.sep in spec or spec.endswith(".txt"):
        raise UsageError(f"{spec}: no such file (expected nvidia-smi topo -m output)")
    raise UsageError(
        f"--topology {spec!r} is not 'detect', an existing file, or a fake name such as 8xH100 or 2x8xH100"
    )
