"""Hostile-input families for the CLI fuzz (issue 21): files that are not files, and arguments past the limits.

`hostile_runs()` draws (argv, files to make, special entries to make) for one command: a named pipe, a
link to /dev/zero or /dev/urandom, a socket or a folder where a file goes; a JSON or YAML document nested
thousands deep or holding a number of 100,001 digits; a preset name that is a path; an --out that is empty,
has a name over 255 bytes or runs past PATH_MAX; a boolean where a number goes; preflight's --timeout and
--address past their limits. Each run must keep the fuzz contract (tests/fuzz/runner.py) within 5 s.

Two guards keep a regression from taking the test session down with it, since a hang or a flood here would
not end by itself: `guarded()` caps the address space while the command runs (a read of /dev/zero without
end fails with MemoryError instead of exhausting the machine), and after the time limit opens every pipe of
the sandbox for writing once, which releases a reader blocked inside a C library that the alarm cannot reach.
"""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import stat
import threading
from pathlib import Path

from hypothesis import strategies as st

TIME_LIMIT_S = 5
HEADROOM = 2 << 30  # address space a command may add while it runs
ENDINGS = (".yaml", ".sh", ".txt", ".json", ".jsonl", ".parquet")
KINDS = ("pipe", "dev-zero", "dev-urandom", "dev-null", "socket", "folder", "deep", "huge-number", "empty")
FILE_COMMANDS = {
    "check": lambda f: ["check", f],
    "check --topology": lambda f: ["check", "c.yaml", "--topology", f],
    "new --answers": lambda f: ["new", "--answers", f, "--out", "out"],
    "new --from-script": lambda f: ["new", "--from-script", f, "--out", "out"],
    "new --topology": lambda f: ["new", "--preset", "grpo-8b-1x8", "--topology", f, "--out", "out"],
    "topo --from": lambda f: ["topo", "--from", f],
    "data": lambda f: ["data", f],
    "data convert": lambda f: [
        *("data", "convert", f, "--to", "rl", "--question-key", "q", "--answer-key", "a"),
        *("--data-source", "openai/gsm8k", "--out", "out.parquet"),
    ],
    "preflight --config": lambda f: ["preflight", "--config", f, "--address", "not an address"],
}
INT_FIELDS = (
    "data.train_batch_size",
    "trainer.nnodes",
    "trainer.n_gpus_per_node",
    "actor_rollout_ref.rollout.n",
    "actor_rollout_ref.actor.ppo_mini_batch_size",
    "deploy.cpus_per_gpu",
    "actor_rollout_ref.actor.optim.lr",
)


def _content(kind: str, ending: str) -> bytes | None:
    """Bytes of a regular file of this kind, or None when the kind is not a regular file."""
    if kind == "deep":
        if ending in (".json", ".jsonl"):
            return ('[{"prompt": ' + "[" * 10_000 + "]" * 10_000 + ', "q": "x", "a": "1"}]').encode()
        return ("data:\n  train_files: " + "[" * 10_000 + "]" * 10_000 + "\n").encode()
    if kind == "huge-number":
        if ending in (".json", ".jsonl"):
            return ('{"prompt": ' + "9" * 100_001 + ', "q": "x", "a": "1"}\n').encode()
        if ending == ".sh":
            return ("python3 -m verl.trainer.main_ppo data.train_batch_size=" + "9" * 100_001 + "\n").encode()
        return ("batch:\n  train_batch_size: " + "9" * 100_001 + "\n").encode()
    if kind == "empty":
        return b""
    return None


@st.composite
def hostile_files(draw) -> tuple[list[str], dict[str, bytes], dict[str, str]]:
    """(argv, regular files, special entries name -> kind) for a command given a hostile file."""
    command = draw(st.sampled_from(sorted(FILE_COMMANDS)))
    kind = draw(st.sampled_from(KINDS))
    name = "f" + draw(st.sampled_from(ENDINGS))
    files: dict[str, bytes] = {"c.yaml": b"data: {train_batch_size: 8}\n"}
    special: dict[str, str] = {}
    content = _content(kind, name)
    if content is None:
        special[name] = kind
    else:
        files[name] = content
    return FILE_COMMANDS[command](name), files, special


PRESETS = st.sampled_from(["", "/etc/passwd", "../presets/grpo-8b-1x8", "./grpo-8b-1x8", "p" * 5000, "a\nb", "."])
OUTS = st.sampled_from(["", " ", "a" * 256, "a/" * 2100, "/proc/x/y", "/dev/null", "out/" + "b" * 300 + "/c"])
TIMEOUTS = st.sampled_from(["nan", "inf", "-inf", "0", "0.001", "0.999", "600.5", "-1", "1e308", "x", ""])
HOSTS = st.sampled_from(["h" * 10_000, "a" * 64 + ".x", "ä" * 70, "[::1", "host:", ":6379", "h" * 254])
PORTS = st.sampled_from(["6379", "0", "65536", "99999999999999999999", ""])


@st.composite
def hostile_args(draw) -> tuple[list[str], dict[str, bytes], dict[str, str]]:
    """(argv, files, special entries) for arguments past their limits."""
    family = draw(st.sampled_from(["preset", "out", "topology", "bool", "timeout", "address"]))
    if family == "preset":
        return ["new", "--preset", draw(PRESETS), "--out", "out"], {}, {}
    if family == "out":
        return ["new", "--preset", "grpo-8b-1x8", "--out", draw(OUTS)], {}, {}
    if family == "topology":
        return (
            [
                "new",
                "--preset",
                "grpo-8b-1x8",
                "--topology",
                draw(st.sampled_from(["", " ", "x" * 300])),
                "--out",
                "out",
            ],
            {},
            {},
        )
    if family == "bool":
        flag = f"{draw(st.sampled_from(INT_FIELDS))}={draw(st.sampled_from(['true', 'false', 'True', 'yes']))}"
        return ["new", "--preset", "grpo-8b-1x8", "--set", flag, "--out", "out"], {}, {}
    if family == "timeout":
        return ["preflight", "--timeout", draw(TIMEOUTS), "--address", "not an address"], {}, {}
    return ["preflight", "--address", f"{draw(HOSTS)}:{draw(PORTS)}", "--timeout", "1"], {}, {}


def make_special(sandbox: Path, special: dict[str, str], sockets: list) -> None:
    for name, kind in special.items():
        path = sandbox / name
        if kind == "pipe":
            os.mkfifo(path)
        elif kind.startswith("dev-"):
            path.symlink_to(f"/dev/{kind[4:]}")
        elif kind == "socket":
            server = socket.socket(socket.AF_UNIX)
            server.bind(str(path))
            sockets.append(server)
        elif kind == "folder":
            path.mkdir()


def _release_pipes(sandbox: Path, done: threading.Event) -> None:
    if done.wait(TIME_LIMIT_S + 1):
        return
    for path in sandbox.iterdir():
        if stat.S_ISFIFO(path.lstat().st_mode):
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


@contextlib.contextmanager
def guarded(sandbox: Path):
    """Cap the address space for the block and release blocked pipe readers after the time limit."""
    with open("/proc/self/status", encoding="ascii") as f:
        size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + HEADROOM if hard == resource.RLIM_INFINITY else min(hard, size + HEADROOM)
    done = threading.Event()
    watcher = threading.Thread(target=_release_pipes, args=(sandbox, done), daemon=True)
    watcher.start()
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        done.set()
        watcher.join()
