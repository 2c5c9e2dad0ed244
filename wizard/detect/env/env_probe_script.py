"""The script `doctor` runs in the interpreter that will run verl: what that environment has, as one JSON line.

It is not imported by the wizard: wizard.detect.env.probe reads this file's text and runs it with
`PYTHON -c TEXT REQUEST`, so it must work on any CPython from 3.8 on with the standard library alone. It imports
neither torch nor verl nor ray (their import takes seconds and may fail for reasons of its own): versions come from
package metadata, torch's CUDA build from its version.py, the driver from NVML through ctypes. It prints one line,
MARK followed by the JSON report, and nothing about a secret: of the environment it reports only the variables
the request names and NCCL's.
"""

import ctypes
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys

MARK = "VERL_WIZARD_DOCTOR "


def _version(metadata, name):
    try:
        return metadata.version(name)
    except Exception:  # noqa: BLE001 - any failure means "not installed" to the report
        return None


def _packages(names):
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8
        return {name: None for name in names}
    return {name: _version(metadata, name) for name in names}


def _verl():
    """verl's version, location, declared requirements, and `git describe` for a checkout."""
    info: dict = {"version": None, "location": None, "requires": None, "git": None}
    try:
        from importlib import metadata

        dist = metadata.distribution("verl")
        info["version"] = dist.version
        info["requires"] = list(dist.requires or [])
    except Exception:  # noqa: BLE001 - not installed as a distribution (a checkout on PYTHONPATH, or absent)
        pass
    try:
        spec = importlib.util.find_spec("verl")  # a top-level package: finding it imports nothing
    except Exception:  # noqa: BLE001
        spec = None
    if spec is None or not spec.origin:
        return info
    folder = os.path.dirname(spec.origin)
    info["location"] = folder
    version_file = os.path.join(folder, "version", "version")
    if info["version"] is None and os.path.isfile(version_file):
        with open(version_file, encoding="utf-8") as handle:
            info["version"] = handle.read().strip() or None
    if os.path.isdir(os.path.join(os.path.dirname(folder), ".git")):
        try:
            done = subprocess.run(
                ["git", "-C", os.path.dirname(folder), "describe", "--tags", "--always", "--dirty"],
                capture_output=True,
                text=True,
                timeout=3,
            )
            info["git"] = done.stdout.strip() or None
        except Exception:  # noqa: BLE001 - no git, or it hung: the checkout is still reported
            pass
    return info


def _torch():
    """torch's version and the CUDA (or ROCm) it was built for, read from torch/version.py without importing torch."""
    try:
        spec = importlib.util.find_spec("torch")
    except Exception:  # noqa: BLE001
        spec = None
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "version.py")
    info: dict = {"version": None, "cuda": None, "hip": None}
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        return info
    for name in info:
        key = "__version__" if name == "version" else name
        m = re.search(r"^" + key + r"\s*(?::[^=]*)?=\s*'([^']*)'", text, re.M)
        info[name] = m.group(1) if m else None
    return info


class _Memory(ctypes.Structure):
    _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]


def _nvml():
    """The driver, the CUDA version it supports, and the GPUs, from NVML (libnvidia-ml) through ctypes."""
    try:
        lib = ctypes.CDLL("libnvidia-ml.so.1")
    except OSError as exc:
        return {"ok": False, "error": str(exc)[:200]}  # OSError names the library itself
    if lib.nvmlInit_v2() != 0:
        return {"ok": False, "error": "nvmlInit failed"}
    try:
        buf = ctypes.create_string_buffer(96)
        lib.nvmlSystemGetDriverVersion(buf, 96)
        cuda = ctypes.c_int(0)
        lib.nvmlSystemGetCudaDriverVersion_v2(ctypes.byref(cuda))
        count = ctypes.c_uint(0)
        lib.nvmlDeviceGetCount_v2(ctypes.byref(count))
        gpus = []
        for index in range(count.value):
            handle = ctypes.c_void_p()
            if lib.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)) != 0:
                continue
            name = ctypes.create_string_buffer(96)
            lib.nvmlDeviceGetName(handle, name, 96)
            memory = _Memory()
            lib.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(memory))
            gpus.append({"name": name.value.decode(errors="replace"), "memory_bytes": memory.total})
        return {
            "ok": True,
            "driver": buf.value.decode(errors="replace"),
            "cuda_driver": cuda.value,
            "gpus": gpus,
        }
    finally:
        lib.nvmlShutdown()


def _nearest_existing(path):
    path = os.path.abspath(os.path.expanduser(path))
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def _free_bytes(path):
    try:
        stat = os.statvfs(path)
    except (OSError, AttributeError):
        return None
    return stat.f_bavail * stat.f_frsize


def _memory_bytes():
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _open_files():
    try:
        import resource

        return list(resource.getrlimit(resource.RLIMIT_NOFILE))
    except Exception:  # noqa: BLE001 - not on this platform
        return None


def _hf(request):
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "huggingface"
    )
    hub = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE") or os.path.join(home, "hub")
    cached = {}
    for model in request.get("model_ids", []):
        cached[model] = os.path.isdir(os.path.join(hub, "models--" + model.replace("/", "--")))
    existing = _nearest_existing(home)
    return {"home": home, "writable": os.access(existing, os.W_OK), "cached": cached}


def _interfaces():
    try:
        return sorted(os.listdir("/sys/class/net"))
    except OSError:
        return None


def main():
    request = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    local_dir = request.get("local_dir") or "."
    env_names = set(request.get("env_names", []))
    env = {k: v for k, v in os.environ.items() if k in env_names or k.startswith("NCCL_")}
    report = {
        "schema": 1,
        "host": socket.gethostname(),
        "python": {"executable": sys.executable, "version": "{}.{}.{}".format(*sys.version_info[:3])},
        "packages": _packages(request.get("packages", [])),
        "verl": _verl(),
        "torch": _torch(),
        "nvml": _nvml(),
        "shm_bytes": _free_bytes("/dev/shm") if os.path.isdir("/dev/shm") else None,
        "memory_bytes": _memory_bytes(),
        "open_files": _open_files(),
        "disk": {"path": _nearest_existing(local_dir), "free_bytes": _free_bytes(_nearest_existing(local_dir))},
        "hf": _hf(request),
        "env": env,
        "interfaces": _interfaces(),
    }
    sys.stdout.write(MARK + json.dumps(report) + "\n")


if __name__ == "__main__":
    main()
