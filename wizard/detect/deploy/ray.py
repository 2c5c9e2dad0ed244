"""Reach a running Ray cluster for `preflight`: its nodes, GPUs and CPUs, within a deadline, never hanging.

`ray.init` on an address where nothing listens blocks for well over 30 s, and on a cluster with token
authentication a driver without the token retries for about 20 s before saying only 'Failed to connect'. So
this module (1) checks the address form, (2) opens a TCP connection to the GCS port with a short timeout,
and only then (3) asks the GCS for its nodes in a child process (`python -c PROBE`) that is killed at the
deadline. The child uses Ray's GCS client (one RPC; no driver is registered) and falls back to
`ray.init` + `ray.nodes()` where that client is missing; it reports an authentication refusal as such.
This process never imports ray.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from wizard.core.choices import Target
from wizard.core.rules.deploy.facts import DeployFacts, NodeGroup
from wizard.detect.child_process import run_with_deadline
from wizard.detect.input_files import regular_file_problem
from wizard.i18n.text import Msg, msg

TCP_TIMEOUT_S = 3.0
NO_TOKEN_TEXT = "couldn't find an authentication token"  # what Ray's core says before it aborts the driver
CURRENT_CLUSTER = Path("/tmp/ray/ray_current_cluster")
_HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})$")
DRIVER_VARS = (
    "CUDA_VISIBLE_DEVICES",
    "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES",
    "RAY_ADDRESS",
    "RAY_DEDUP_LOGS",
    "NCCL_SOCKET_IFNAME",
    "GLOO_SOCKET_IFNAME",
)

PROBE = r"""
import json, os, sys
address = sys.argv[1]
def say(**kw):
    print("PROBE " + json.dumps(kw), flush=True)
    sys.exit(0)
try:
    import ray
except Exception as exc:
    say(ok=False, kind="no-ray", error=f"{type(exc).__name__}: {exc}")
def is_auth(exc):
    text = f"{type(exc).__name__}: {exc}"
    return "AuthenticationError" in text or "InvalidAuthToken" in text or "Unauthenticated" in text
nodes = None
try:
    from ray._raylet import GcsClient
except Exception:
    GcsClient = None
try:
    if GcsClient is not None:
        infos = GcsClient(address=address).get_all_node_info(timeout=10)
        nodes = [{"alive": info.state == 0, "resources": dict(info.resources_total), "ip": info.node_manager_address,
                  "head": bool(info.is_head_node)} for info in infos.values()]
    else:
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        nodes = [{"alive": bool(n.get("Alive")), "resources": dict(n.get("Resources") or {}), "ip": n.get("NodeManagerAddress"),
                  "head": "node:__internal_head__" in (n.get("Resources") or {})} for n in ray.nodes()]
except Exception as exc:
    say(ok=False, kind="auth" if is_auth(exc) else "error", error=f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:400],
        auth_mode=os.environ.get("RAY_AUTH_MODE"))
say(ok=True, ray_version=ray.__version__, nodes=nodes)
"""


@dataclass
class RayNode:
    ip: str
    gpus: float
    cpus: float
    head: bool


@dataclass
class ProbeResult:
    """What preflight learned: the cluster's alive nodes, or why it could not (kind + one-line message)."""

    address: str
    ok: bool
    kind: str = ""  # "", "form", "dead", "timeout", "auth", "no-ray", "error"
    message: str | Msg = ""
    ray_version: str = ""
    nodes: list[RayNode] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict:
        return {
            "address": self.address,
            "ray_version": self.ray_version,
            "seconds": round(self.seconds, 2),
            "nodes": [{"ip": n.ip, "gpus": n.gpus, "cpus": n.cpus, "head": n.head} for n in self.nodes],
        }


def resolve_address(address: str | None, environ=os.environ) -> tuple[str, str]:
    """(address as given or found, where it came from): --address, else RAY_ADDRESS, else the local cluster ('auto')."""
    if address:
        return address.strip(), "--address"
    if environ.get("RAY_ADDRESS"):
        return environ["RAY_ADDRESS"].strip(), "RAY_ADDRESS"
    return "auto", "default"


def address_problem(address: str) -> Msg | None:
    """Why the address cannot be a GCS address that preflight connects to, or None when its form is right."""
    if re.match(r"^https?://", address):
        return msg("deploy.address.jobs_api_for_preflight", value=address)
    if address.startswith("ray://"):
        return msg("deploy.address.ray_client_for_preflight", value=_shortened(address))
    if address == "auto":
        return None
    match = _HOST_PORT.match(address)
    if match:
        host, port = match.group(1).strip("[]"), int(match.group(2))
        if len(host) > 253 or any(len(label) > 63 for label in host.split(".")):
            return msg("deploy.address.host_too_long", length=len(host))
        if not 0 < port < 65536:
            return msg("deploy.address.bad_port", port=port)
        return None
    return msg("deploy.address.not_host_port_for_preflight", value=_shortened(address))


def _shortened(text: str) -> str:
    """A user's address as a message shows it: whole when short, else its start (a 10,000-character host stays one line)."""
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} characters)"


def local_cluster_address() -> str | None:
    """The address `ray start` recorded for the cluster on this machine, if any."""
    try:
        text = CURRENT_CLUSTER.read_text().strip()
    except OSError:
        return None
    return text or None


def tcp_answer(host: str, port: int, timeout: float = TCP_TIMEOUT_S) -> str | Msg | None:
    """None when something accepts a TCP connection at host:port, else why not, in a few words."""
    try:
        with socket.create_connection((host.strip("[]"), port), timeout=timeout):
            return None
    except (socket.gaierror, UnicodeError):  # UnicodeError: a name IDNA cannot encode
        return msg("deploy.host_unresolved", host=_shortened(host))
    except TimeoutError:
        return msg("deploy.no_answer_within", seconds=timeout)
    except ConnectionRefusedError:
        return msg("deploy.connection_refused")
    except OSError as exc:
        return exc.strerror or type(exc).__name__


def _run_probe(address: str, timeout: float) -> tuple[dict | None, str]:
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", PYTHONUNBUFFERED="1")
    done = run_with_deadline([sys.executable, "-c", PROBE, address], timeout, env)
    if done is None:
        return None, ""
    line = next((x for x in done.stdout.splitlines() if x.startswith("PROBE ")), None)
    return (json.loads(line[6:]) if line else None), done.stderr


EXIT_MARGIN_S = 0.25  # what printing the result and leaving the interpreter take after the deadline


def startup_seconds() -> float:
    """How long ago this process started, when that was moments ago (a command line just run); else 0.

    A `preflight --timeout 15` must end within 15 s of being typed, not 15 s after its modules were imported.
    When main() runs inside a long-lived process (the tests), the process's age says nothing about this call.
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        age = uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22 of stat(5): starttime
    except (OSError, ValueError, IndexError):
        return 0.0
    return age if 0 <= age < 5 else 0.0


def token_problem(environ=os.environ, home: Path | None = None):
    """Why a driver with RAY_AUTH_MODE=token would find no token (a Msg), in Ray's own order of places; else None.

    Ray looks at RAY_AUTH_TOKEN, then the file RAY_AUTH_TOKEN_PATH names, then ~/.ray/auth_token; without
    any of them its core stops the driver with a C++ error that says only that no token was found.
    """
    if (environ.get("RAY_AUTH_MODE") or "").strip().lower() != "token":
        return None
    if (environ.get("RAY_AUTH_TOKEN") or "").strip():
        return None
    named = environ.get("RAY_AUTH_TOKEN_PATH")
    if named:
        problem = regular_file_problem(named)
        if problem is None and os.path.getsize(named) > 0:
            return None
        if problem is None:
            return msg("deploy.no_token.path_empty", path=named)
        return msg("deploy.no_token.path_unusable", path=named, problem=problem)
    default = (home or Path(environ.get("HOME") or Path.home())) / ".ray" / "auth_token"
    with contextlib.suppress(OSError):
        if regular_file_problem(default) is None and default.stat().st_size > 0:
            return None
    return msg("deploy.no_token.nowhere", default=str(default))


def probe(address: str, timeout: float = 15.0, started: float | None = None) -> ProbeResult:
    """Reach the cluster at address (HOST:PORT or auto) within timeout seconds, counted from `started`.

    `started` (a time.monotonic() value; default now) is when the command began, so that the whole command,
    its start-up included, ends within the timeout.
    """
    start = time.monotonic() if started is None else started
    budget = max(0.5, timeout - EXIT_MARGIN_S)
    shown = address
    if address == "auto":
        found = local_cluster_address()
        if found is None:
            return ProbeResult(
                address,
                False,
                "dead",
                msg("deploy.no_local_cluster", file=str(CURRENT_CLUSTER)),
            )
        address, shown = found, f"auto ({found})"
    problem = address_problem(address)
    if problem:
        return ProbeResult(shown, False, "form", problem)
    host, port = address.rsplit(":", 1)
    why = tcp_answer(host, int(port), max(0.1, min(TCP_TIMEOUT_S, budget - (time.monotonic() - start))))
    if why is not None:
        return ProbeResult(
            shown,
            False,
            "dead",
            msg("deploy.nothing_answers", address=address, why=why, port=port),
            seconds=time.monotonic() - start,
        )
    result, err = _run_probe(address, budget - (time.monotonic() - start))
    took = time.monotonic() - start
    if result is None and NO_TOKEN_TEXT in err:
        found = token_problem({"RAY_AUTH_MODE": "token", "HOME": os.environ.get("HOME", "")})
        return ProbeResult(shown, False, "auth", str(found or err.strip().splitlines()[-1][:200]), seconds=took)
    if result is None:
        tail = err.strip().splitlines()[-1] if err.strip() else ""
        return ProbeResult(
            shown,
            False,
            "timeout",
            msg(
                "deploy.no_gcs",
                address=address,
                seconds=timeout,
                tail=msg("deploy.last_output", output=tail[:200]) if tail else "",
            ),
            seconds=took,
        )
    if result["ok"]:
        nodes = [
            RayNode(
                str(n.get("ip")),
                float(n["resources"].get("GPU", 0)),
                float(n["resources"].get("CPU", 0)),
                bool(n.get("head")),
            )
            for n in result["nodes"]
            if n.get("alive")
        ]
        return ProbeResult(shown, True, ray_version=result.get("ray_version", ""), nodes=nodes, seconds=took)
    kind = result.get("kind", "error")
    if kind == "auth":
        mode = result.get("auth_mode")
        if mode != "token":
            message = msg("deploy.auth_refused_mode", address=address, mode=mode or msg("deploy.mode_unset"))
        else:
            message = msg("deploy.auth_refused_token", address=address)
        return ProbeResult(shown, False, "auth", message, seconds=took)
    if kind == "no-ray":
        return ProbeResult(
            shown,
            False,
            "no-ray",
            msg("deploy.no_ray", error=str(result.get("error"))),
            seconds=took,
        )
    return ProbeResult(
        shown,
        False,
        "error",
        msg("deploy.ray_error", address=address, error=str(result.get("error"))),
        seconds=took,
    )


def driver_env(environ=os.environ) -> dict[str, str]:
    """The variables of this shell that matter to verl's driver and its placement."""
    return {k: environ[k] for k in DRIVER_VARS if k in environ}


def cluster_facts(result: ProbeResult, environ=os.environ, target: str = Target.LOCAL.value) -> DeployFacts:
    """The live cluster as DeployFacts: one group per node, this shell as the driver."""
    groups = tuple(
        NodeGroup("head" if n.head else "worker", 1, int(n.gpus), n.cpus, where=msg("deploy.place.node", ip=n.ip))
        for n in result.nodes
    )
    return DeployFacts(
        target=target,
        origin="cluster",
        source=result.address,
        groups=groups,
        driver_env=driver_env(environ),
        driver_where=msg("deploy.place.this_shell"),
        joins_cluster=True,
        addresses=(("ray-init", environ["RAY_ADDRESS"], "RAY_ADDRESS"),) if environ.get("RAY_ADDRESS") else (),
    )
