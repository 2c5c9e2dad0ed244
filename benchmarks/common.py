"""Timing helpers shared by the benchmark scripts: repeated measurement, fresh processes, tables.

Every budget of DESIGN.md section 7 that has a peer is measured as a ratio in the same run, with the
peer's repeats interleaved with ours (ABAB...), so that load from other work on the machine falls on
both sides alike. Each table is printed under a machine line that carries the load average.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN_AT_START = ("ray", "torch", "pyarrow", "transformers")


@dataclass
class Stats:
    """Repeated measurements of one case (any unit); median/min/max over the samples."""

    samples: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        self.samples.append(value)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def min(self) -> float:
        return min(self.samples)

    @property
    def max(self) -> float:
        return max(self.samples)

    def cells(self, scale: float = 1.0, digits: int = 1) -> list[str]:
        """[median, min, max] formatted, each multiplied by scale."""
        return [f"{v * scale:.{digits}f}" for v in (self.median, self.min, self.max)]


@dataclass
class Run:
    """One fresh process: wall and CPU seconds, peak resident memory, exit code, output."""

    wall: float
    cpu: float
    peak_mb: float
    code: int
    stdout: str
    stderr: str


def machine_line() -> str:
    """Python, platform, CPU count and model, and the load average now (wall times grow with load)."""
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"machine: {platform.node() or '?'}, {_cpu_model()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}; load average {load} (1/5/15 min)"
    )


def load_line() -> str:
    """The load average alone, for the end of a table (the machine line shows it at the start)."""
    return "load average now: " + "/".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def time_calls(fn: Callable[[], object], repeats: int, warmup: int = 1) -> Stats:
    """Milliseconds per call of fn, after `warmup` untimed calls."""
    for _ in range(warmup):
        fn()
    stats = Stats()
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        stats.add((time.perf_counter() - start) * 1000)
    return stats


PYCACHE = Path(tempfile.gettempdir()) / "verl-wizard-bench-pycache"


def bytecode_env() -> dict[str, str]:
    """Cache byte code in a folder of its own, as an installed package has it (pip compiles at install).

    Without it, a machine that sets PYTHONDONTWRITEBYTECODE (this one does) makes every fresh process
    compile the wizard's sources again, which no user pays. The folder outlives the run (Python checks
    each cached file against its source's time stamp), so a later --quick run finds it warm.
    """
    PYCACHE.mkdir(parents=True, exist_ok=True)
    return {"PYTHONPYCACHEPREFIX": str(PYCACHE)}


def child_env() -> dict[str, str]:
    """A child process's environment: the repo importable, byte code cached (outside the tree) as an install has it."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        **bytecode_env(),
    )
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cache_is_warm() -> bool:
    """Whether an earlier run left compiled wizard modules in the byte-code cache."""
    return any((PYCACHE / str(ROOT).lstrip("/") / "wizard").glob("__pycache__/*.pyc")) if PYCACHE.is_dir() else False


def run_fresh(argv: Sequence[str], cwd: Path = ROOT, env: dict | None = None, timeout: float = 600) -> Run:
    """Run argv in a fresh process; its own CPU time and peak RSS come from wait4, not from a wrapper.

    Processes of this interpreter get cached byte code (bytecode_env); another interpreter (the verl
    environment's) keeps its own, compiled when it was installed.
    """
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    if argv[0] == sys.executable:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        environment.update(bytecode_env())
    environment.update(env or {})
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, env=environment, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.002)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            wall=wall,
            cpu=usage.ru_utime + usage.ru_stime,
            peak_mb=usage.ru_maxrss / 1024,
            code=proc.returncode,
            stdout=out.read().decode(errors="replace"),
            stderr=err.read().decode(errors="replace"),
        )


def interleave(
    cases: Sequence[str], repeats: int, measure: Callable[[str], dict[str, float]]
) -> dict[str, dict[str, Stats]]:
    """Call measure(case) for every case in turn, `repeats` rounds (ABAB...); case -> metric -> Stats."""
    results: dict[str, dict[str, Stats]] = {case: {} for case in cases}
    for _ in range(repeats):
        for case in cases:
            for metric, value in measure(case).items():
                results[case].setdefault(metric, Stats()).add(value)
    return results


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A plain-text table, first column left-aligned, the others right-aligned."""
    rows = [[str(c) for c in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) if rows else len(str(h)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=False))
        ).rstrip()

    return "\n".join([line([str(h) for h in headers]), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def python_floor(repeats: int) -> Stats:
    """Wall seconds of `python -c pass` now: the floor every fresh-process figure stands on."""
    stats = Stats()
    for _ in range(repeats):
        stats.add(run_fresh([sys.executable, "-c", "pass"]).wall)
    return stats


def text_profiler(start: bool = True):
    """A pyinstrument profiler when BENCH_PROFILE names a .txt file (its call tree goes there), else None."""
    if not os.environ.get("BENCH_PROFILE", "").endswith(".txt"):
        return None
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005, async_mode="disabled")
    if start:
        profiler.start()
    return profiler


def profile_text(profiler) -> str:
    """The call tree (library frames folded), then the 30 functions with the most time of their own."""
    flat = profiler.output_text(unicode=True, flat=True).splitlines()
    rows = [line for line in flat if line[:1].isdigit()][:30]
    return profiler.output_text(unicode=True) + "\nby own time:\n" + "\n".join(rows) + "\n"


def print_phases(cases: dict[str, dict[str, float]], note: str = "") -> None:
    """One table: parts as rows, cases as columns, CPU ms (an instrumented run: a little slower)."""
    parts = sorted(
        set().union(*cases.values()), key=lambda p: (p.startswith("("), -max(c.get(p, 0.0) for c in cases.values()))
    )
    print(f"where the CPU time goes (ms, one instrumented run){note}")
    print(
        table(
            ["part", *cases],
            [[part, *(f"{c[part]:.0f}" if part in c else "-" for c in cases.values())] for part in parts],
        )
    )
