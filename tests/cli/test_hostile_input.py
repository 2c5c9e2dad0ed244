"""Hostile input: every case ends with exit 2 (or 3), one `verl-wizard: error:` line, no traceback, within 5 s.

The families an outside probe found hangs and tracebacks in: named pipes and device files where a file is
expected, folders the user cannot enter, preset names that are paths, empty and over-long paths, JSON and
YAML nested thousands deep or holding 100,001-digit numbers, `data convert --out` where nothing can be
written, preflight limits (an unencodable host, a nan timeout), booleans where numbers go. Each case runs
in this process through the fuzz suite's runner (its alarm turns a hang into a failure at 5 s), except the
pipes and devices: a regression there would block inside a C library or read /dev/zero without end, so those
run in a child process with bounded memory that is killed when late. Closed standard streams need a real
process too (test_closed_stdin_is_exit_3_and_closed_stdout_a_clean_exit).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.helpers import ROOT
from tests.fuzz.runner import Outcome, run_cli

TIME_LIMIT_S = 5
NOBODY = 65534
PRESET = ["--preset", "grpo-8b-1x8"]
CONVERT = ["--to", "rl", "--question-key", "q", "--answer-key", "a", "--data-source", "openai/gsm8k"]


@dataclass(frozen=True)
class Case:
    """A sandbox to build (returns the argv to run in it) and words the error line must hold."""

    setup: Callable[[Path], list[str]]
    words: tuple[str, ...] = ()
    other_user: bool = False  # run as an unprivileged user, so that permissions hold even for root
    codes: tuple[int, ...] = (2,)


def fifo(name: str) -> Callable[[Path], Path]:
    def make(box: Path) -> Path:
        os.mkfifo(box / name)
        return box / name

    return make


def link(name: str, target: str) -> Callable[[Path], Path]:
    def make(box: Path) -> Path:
        (box / name).symlink_to(target)
        return box / name

    return make


def locked(name: str, text: str = "data: {}\n") -> Callable[[Path], Path]:
    """A file inside a folder nobody but root may enter (mode 000)."""

    def make(box: Path) -> Path:
        folder = box / "locked"
        folder.mkdir()
        if "." in name:
            (folder / name).write_text(text)
        else:
            (folder / name).mkdir()
        folder.chmod(0)
        return folder / name

    return make


def write(name: str, text: str) -> Callable[[Path], Path]:
    def make(box: Path) -> Path:
        (box / name).write_text(text)
        return box / name

    return make


def deep_json(levels: int) -> str:
    return '[{"q": ' + "[" * levels + "]" * levels + ', "a": "1"}]\n'


HUGE = "9" * 100_001
CASES: dict[str, Case] = {
    # -- named pipes: opening one for reading blocks until a writer comes (never)
    "check a pipe": Case(lambda b: ["check", str(fifo("f.yaml")(b))], ("f.yaml", "named pipe")),
    "check a pipe .sh": Case(lambda b: ["check", str(fifo("run.sh")(b))], ("named pipe",)),
    "new --answers a pipe": Case(lambda b: ["new", "--answers", str(fifo("a.yaml")(b)), "--out", "o"], ("pipe",)),
    "new --from-script a pipe": Case(lambda b: ["new", "--from-script", str(fifo("o.sh")(b)), "--out", "o"], ("pipe",)),
    "new --topology a pipe": Case(lambda b: ["new", *PRESET, "--topology", str(fifo("t.txt")(b)), "--out", "o"]),
    "topo --from a pipe": Case(lambda b: ["topo", "--from", str(fifo("t.txt")(b))], ("named pipe",)),
    "check --topology a pipe": Case(
        lambda b: ["check", str(write("c.yaml", "data: {}\n")(b)), "--topology", str(fifo("t.txt")(b))]
    ),
    "data a pipe .parquet": Case(lambda b: ["data", str(fifo("d.parquet")(b))], ("named pipe",)),
    "data a pipe .jsonl": Case(lambda b: ["data", str(fifo("d.jsonl")(b))], ("named pipe",)),
    "data convert a pipe": Case(lambda b: ["data", "convert", str(fifo("d.jsonl")(b)), *CONVERT, "--out", "o.parquet"]),
    "data --tokenizer a pipe": Case(
        lambda b: ["data", str(write("d.jsonl", '{"prompt": "x"}\n')(b)), "--tokenizer", str(fifo("tokenizer.json")(b))]
    ),
    "preflight --config a pipe": Case(lambda b: ["preflight", "--config", str(fifo("c.yaml")(b))], ("pipe",)),
    "tui --answers a pipe": Case(lambda b: ["tui", "--answers", str(fifo("a.yaml")(b))], codes=(2, 3)),
    # -- devices: /dev/zero reports size 0 and never ends
    "check /dev/zero": Case(lambda b: ["check", "/dev/zero"], ("character device",)),
    "check a link to /dev/urandom": Case(lambda b: ["check", str(link("c.yaml", "/dev/urandom")(b))], ("device",)),
    "new --answers /dev/zero": Case(lambda b: ["new", "--answers", "/dev/zero", "--out", "o"], ("device",)),
    "new --from-script /dev/zero": Case(lambda b: ["new", "--from-script", "/dev/zero", "--out", "o"], ("device",)),
    "topo --from /dev/urandom": Case(lambda b: ["topo", "--from", "/dev/urandom"], ("device",)),
    "data a link to /dev/zero": Case(lambda b: ["data", str(link("z.jsonl", "/dev/zero")(b))], ("device",)),
    "check a socket": Case(lambda b: ["check", str(unix_socket("s.yaml")(b))], ("socket",)),
    # -- folders the user cannot enter
    "check in a locked folder": Case(
        lambda b: ["check", str(locked("c.yaml")(b))], ("Permission denied",), other_user=True
    ),
    "new --answers in a locked folder": Case(
        lambda b: ["new", "--answers", str(locked("a.yaml")(b)), "--out", "o"], ("Permission denied",), other_user=True
    ),
    "new --out in a locked folder": Case(
        lambda b: ["new", *PRESET, "--out", str(locked("out")(b) / "run")], ("Permission denied",), other_user=True
    ),
    "data in a locked folder": Case(
        lambda b: ["data", str(locked("d.jsonl", '{"prompt": "x"}\n')(b))], ("Permission denied",), other_user=True
    ),
    "data --tokenizer in a locked folder": Case(
        lambda b: ["data", str(write("d.jsonl", '{"prompt": "x"}\n')(b)), "--tokenizer", str(locked("tok")(b))],
        ("Permission denied",),
        other_user=True,
    ),
    "data convert --out in a locked folder": Case(
        lambda b: [
            "data",
            "convert",
            str(write("d.jsonl", '{"q": "x", "a": "1"}\n')(b)),
            *CONVERT,
            "--out",
            str(locked("out")(b) / "o.parquet"),
        ],
        other_user=True,
    ),
    # -- preset names are names, not paths
    "--preset an absolute path": Case(
        lambda b: ["new", "--preset", str(write("x.yaml", "batch: [1\n")(b)).removesuffix(".yaml"), "--out", "o"],
        ("no such preset",),
    ),
    "--preset ../x": Case(lambda b: ["new", "--preset", "../presets/grpo-8b-1x8", "--out", "o"], ("no such preset",)),
    "--preset ''": Case(lambda b: ["new", "--preset", "", "--out", "o"], ("--preset ''",)),
    "--preset of 5,000 characters": Case(lambda b: ["new", "--preset", "p" * 5000, "--out", "o"], ("no such preset",)),
    "tui --preset a path": Case(lambda b: ["tui", "--preset", "/etc/passwd"], codes=(2, 3)),
    # -- empty and over-long paths
    "--out ''": Case(lambda b: ["new", *PRESET, "--out", ""], ("--out ''",)),
    "--out with a 300-byte name": Case(lambda b: ["new", *PRESET, "--out", "a" * 300], ("longer than 255",)),
    "--out past PATH_MAX": Case(lambda b: ["new", *PRESET, "--out", "a/" * 2100], ("longer than",)),
    "--topology ''": Case(lambda b: ["new", *PRESET, "--topology", "", "--out", "o"], ("--topology ''",)),
    "check a 300-byte name": Case(lambda b: ["check", "c" * 300 + ".yaml"]),
    "--answers past PATH_MAX": Case(lambda b: ["new", "--answers", "a/" * 2100 + "x.yaml", "--out", "o"]),
    # -- nesting and numbers past Python's limits
    "data JSON 10,000 deep": Case(lambda b: ["data", str(write("d.json", deep_json(10_000))(b))], ("deeply",)),
    "data JSON lines 10,000 deep": Case(
        lambda b: ["data", str(write("d.jsonl", deep_json(10_000).strip()[1:-1] + "\n")(b))], ("deeply",)
    ),
    "data a 100,001-digit number": Case(
        lambda b: ["data", str(write("d.jsonl", '{"prompt": ' + HUGE + "}\n")(b))], ("digits",)
    ),
    "data convert JSON 10,000 deep": Case(
        lambda b: ["data", "convert", str(write("d.json", deep_json(10_000))(b)), *CONVERT, "--out", "o.parquet"]
    ),
    "check YAML with a 100,001-digit number": Case(
        lambda b: ["check", str(write("c.yaml", f"data:\n  train_batch_size: {HUGE}\n")(b))], ("digits",)
    ),
    "answers with a 100,001-digit number": Case(
        lambda b: ["new", "--answers", str(write("a.yaml", f"batch:\n  train_batch_size: {HUGE}\n")(b)), "--out", "o"]
    ),
    "check YAML 10,000 deep": Case(
        lambda b: ["check", str(write("c.yaml", "data:\n  train_files: " + "[" * 10_000 + "]" * 10_000 + "\n")(b))]
    ),
    # -- data convert --out where nothing can be written
    "data convert --out a folder": Case(
        lambda b: [
            "data",
            "convert",
            str(write("d.jsonl", '{"q": "x", "a": "1"}\n')(b)),
            *CONVERT,
            "--out",
            str(_folder(b / "o.parquet")),
            "--force",
        ],
        ("is a folder",),
    ),
    "data convert --out /proc": Case(
        lambda b: [
            "data",
            "convert",
            str(write("d.jsonl", '{"q": "x", "a": "1"}\n')(b)),
            *CONVERT,
            "--out",
            "/proc/o.parquet",
        ]
    ),
    # -- preflight's limits, checked before anything connects
    "preflight a 10,000-character host": Case(lambda b: ["preflight", "--address", "h" * 10_000 + ":6379"], ("host",)),
    "preflight a 64-character label": Case(lambda b: ["preflight", "--address", "a" * 64 + ".example:6379"]),
    "preflight a port past 65535": Case(lambda b: ["preflight", "--address", "10.0.0.1:99999"], ("port",)),
    "preflight --timeout nan": Case(lambda b: ["preflight", "--timeout", "nan"], ("between 1 and 600",)),
    "preflight --timeout inf": Case(lambda b: ["preflight", "--timeout", "inf"], ("between 1 and 600",)),
    "preflight --timeout 0.001": Case(lambda b: ["preflight", "--timeout", "0.001"], ("between 1 and 600",)),
    "preflight --timeout 601": Case(lambda b: ["preflight", "--timeout", "601"], ("between 1 and 600",)),
    # -- booleans are not numbers
    "--set an integer to true": Case(
        lambda b: ["new", *PRESET, "--set", "data.train_batch_size=true", "--out", "o"],
        ("data.train_batch_size", "boolean"),
    ),
    "--set an integer to false": Case(
        lambda b: ["new", *PRESET, "--set", "trainer.nnodes=false", "--out", "o"], ("boolean",)
    ),
    "--set a float to true": Case(
        lambda b: ["new", *PRESET, "--set", "actor_rollout_ref.actor.optim.lr=true", "--out", "o"], ("boolean",)
    ),
    "answers file integer true": Case(
        lambda b: ["new", "--answers", str(write("a.yaml", "batch:\n  train_batch_size: true\n")(b)), "--out", "o"],
        ("data.train_batch_size", "boolean"),
    ),
    "check a config with true for a size": Case(
        lambda b: ["check", str(write("c.yaml", "data:\n  train_batch_size: true\n")(b))], ("boolean",)
    ),
    "deploy answer true for CPUs": Case(
        lambda b: ["new", *PRESET, "--set", "deploy.cpus_per_gpu=true", "--out", "o"], ("deploy.cpus_per_gpu",)
    ),
}


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


@contextlib.contextmanager
def as_other_user(box: Path):
    """Run the block as `nobody` when this is root (root ignores permissions); as is otherwise."""
    if os.geteuid() != 0:
        yield
        return
    box.chmod(0o777)
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


def _unlock(box: Path) -> None:
    if (box / "locked").exists():
        (box / "locked").chmod(stat.S_IRWXU)


def unix_socket(name: str) -> Callable[[Path], Path]:
    def make(box: Path) -> Path:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(box / name))
        SOCKETS.append(server)
        return box / name

    return make


SOCKETS: list[socket.socket] = []


@pytest.fixture
def box():
    """A sandbox outside pytest's own temp folder (that one is closed to other users), removed after."""
    path = Path(tempfile.mkdtemp(prefix="hostile-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    _unlock(path)
    for server in SOCKETS:
        server.close()
    SOCKETS.clear()
    shutil.rmtree(path, ignore_errors=True)


def needs_a_process(box: Path, argv: list[str]) -> bool:
    """Cases whose failure would not end in this process: a read blocked inside a C library (pyarrow retries an
    interrupted open of a pipe) or a read of /dev/zero that grows without end. A child can be killed."""
    pipes = any(stat.S_ISFIFO(p.lstat().st_mode) for p in box.iterdir())
    devices = any(a.startswith("/dev/") for a in argv) or any(
        p.is_symlink() and os.readlink(p).startswith("/dev/") for p in box.iterdir()
    )
    return pipes or devices


def run_in_a_process(argv: list[str], box: Path) -> Outcome:
    """The command in a child with 3 GiB of address space, killed when it outlives the time limit."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    outcome = Outcome(argv)
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "wizard", *argv],
            cwd=box,
            env=env,
            capture_output=True,
            text=True,
            timeout=3 * TIME_LIMIT_S,
            stdin=subprocess.DEVNULL,
            preexec_fn=limit,  # only setrlimit, in the child before exec
        )
    except subprocess.TimeoutExpired:
        outcome.crash = f"HANG: no result after {3 * TIME_LIMIT_S} s (killed)"
        return outcome
    outcome.seconds = time.perf_counter() - start
    outcome.code, outcome.stdout, outcome.stderr = proc.returncode, proc.stdout, proc.stderr
    return outcome


@pytest.mark.parametrize("name", CASES)
def test_hostile_input_is_one_line_and_exit_2(name, box):
    case = CASES[name]
    argv = case.setup(box)
    try:
        if needs_a_process(box, argv):
            outcome = run_in_a_process(argv, box)
        else:
            with as_other_user(box) if case.other_user else contextlib.nullcontext():
                outcome = run_cli(argv, box, out_dir="o", time_limit=TIME_LIMIT_S)
    finally:
        _unlock(box)
    assert not outcome.crash, f"{name}: {outcome.crash[-3000:]}"
    assert outcome.code in case.codes, (name, outcome.code, outcome.stdout[-500:], outcome.stderr[-500:])
    assert "Traceback" not in outcome.stderr + outcome.stdout
    lines = [line for line in outcome.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("verl-wizard: error: "), (name, outcome.stderr[-2000:])
    assert len(lines[0]) < 1000, (name, len(lines[0]))  # a 10,000-character input is not echoed whole
    for word in case.words:
        assert word in lines[0], (name, lines[0])
    assert outcome.seconds < TIME_LIMIT_S, (name, outcome.seconds)
    assert not (box / "o").exists() or not os.listdir(box / "o"), name  # nothing was written


def test_an_unreadable_model_folder_or_hugging_face_cache_is_a_note_not_a_traceback(box, monkeypatch):
    """Not bad input (the path is for the cluster, or fine there): the rules run, the folder is said unreadable."""
    model = locked("model")(box)
    cache = box / "hf"
    (cache / "hub" / "models--Qwen--Qwen3-8B" / "snapshots").mkdir(parents=True)
    cache.chmod(0)
    monkeypatch.setenv("HF_HOME", str(cache))
    try:
        for path in (str(model), "Qwen/Qwen3-8B"):
            argv = ["check", str(write("c.yaml", f"actor_rollout_ref:\n  model:\n    path: {path}\n")(box))]
            with as_other_user(box):
                outcome = run_cli([*argv, "--mode", "local"], box, time_limit=TIME_LIMIT_S)
            assert not outcome.problems(), outcome.problems()
            assert outcome.code in (0, 1) and "Traceback" not in outcome.stderr
    finally:
        _unlock(box)
        cache.chmod(stat.S_IRWXU)


def _shell(command: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        ["bash", "-c", command, "wizard", sys.executable], capture_output=True, text=True, env=env, timeout=60
    )


def test_closed_stdin_is_exit_3_and_closed_stdout_a_clean_exit():
    tui = _shell('"$1" -m wizard <&-')
    assert tui.returncode == 3 and "Traceback" not in tui.stderr and "needs a terminal" in tui.stderr, tui.stderr
    presets = _shell('"$1" -m wizard presets >&-')
    assert presets.returncode == 0 and presets.stderr == "", presets.stderr
    both = _shell('"$1" -m wizard explain BATCH-999 >&- 2>&-; echo "exit $?" >&2')
    assert both.stderr.strip() == "exit 2"
