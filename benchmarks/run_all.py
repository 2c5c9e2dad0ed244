"""Run every CPU benchmark in benchmarks/ one after the other, and summarise their verdicts.

    python benchmarks/run_all.py            # the full run: the tables of benchmarks/README.md
    python benchmarks/run_all.py --quick    # the before-commit habit: every script in its quick form
    python benchmarks/run_all.py --write-readme   # also put this run's output into benchmarks/README.md

Scripts run one at a time (never side by side: they would load the machine for each other), each in
its own process, their output streamed. Every bench_*.py is run, the other engineers' included; a
script this file does not know is run without arguments, or in --quick mode only if it has --quick.
GPU-only scripts are listed as skipped. Exit 1 if any budget is missed, 2 if a script failed.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.common import machine_line, table  # noqa: E402 - after the sys.path line above

# script -> (arguments of a full run, arguments of a quick run or None to skip it in --quick, why skipped)
KNOWN: dict[str, tuple[list[str], list[str] | None, str]] = {
    "bench_rules.py": ([], ["--quick"], ""),
    "bench_tp_planner.py": ([], ["--repeats", "5"], ""),
    "bench_new.py": (["--importtime"], ["--quick"], ""),
    "bench_check.py": ([], ["--quick"], ""),
    "bench_script_report.py": ([], ["--repeats", "1"], ""),
    "bench_many_keys.py": ([], ["--quick"], ""),
    "bench_doctor.py": ([], ["--quick"], ""),
    "bench_check_verl.py": ([], ["--quick"], ""),
    "bench_check_verl_version.py": ([], ["--quick"], ""),
    "bench_launch_script.py": ([], ["--repeats", "1"], ""),
    "bench_tui.py": (["--phases"], ["--quick"], ""),
    "bench_data.py": ([], None, "writes and reads a 2 GB parquet file"),
    "bench_serve.py": (["--rounds", "3"], ["--quick"], ""),
}
GPU_ONLY = {"calibrate_memory.py": "needs a GPU"}
MARKERS = ("<!-- results:start -->", "<!-- results:end -->")


def plan(quick: bool) -> list[tuple[str, list[str] | None, str]]:
    """(script, arguments or None when skipped, why skipped) for every bench_*.py here, known ones first."""
    found = sorted(p.name for p in HERE.glob("bench_*.py"))
    order = [name for name in KNOWN if name in found] + [name for name in found if name not in KNOWN]
    steps = []
    for name in order:
        if name in KNOWN:
            full, short, why = KNOWN[name]
            steps.append((name, short if quick else full, why if quick and short is None else ""))
        elif quick:
            has_quick = "--quick" in (HERE / name).read_text(encoding="utf-8", errors="replace")
            steps.append((name, ["--quick"] if has_quick else None, "" if has_quick else "has no --quick"))
        else:
            steps.append((name, [], ""))
    steps += [(name, None, why) for name, why in GPU_ONLY.items() if (HERE / name).exists()]
    return steps


def run_script(name: str, args: list[str], log: list[str]) -> tuple[int, float, str]:
    """Run one script, echo and keep its output; (exit code, seconds, its last "budget(s): ..." verdict or "")."""
    first = len(log) + 1
    header = f"== {name} {' '.join(args)}".rstrip()
    print(header, flush=True)
    log.append(header)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-u", str(HERE / name), *args],
        cwd=HERE.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(HERE.parent)),
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        sys.stdout.write(line)
        log.append(line.rstrip("\n"))
    code = proc.wait()
    seconds = time.perf_counter() - started
    said = next(
        (line.split(":", 1)[1].strip() for line in reversed(log[first:]) if re.match(r"^[\w ]*budgets?: ", line)), ""
    )
    print(flush=True)
    log.append("")
    return code, seconds, said


def write_readme(command: str, log: list[str]) -> None:
    """Replace the results block of benchmarks/README.md with this run's output."""
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(MARKERS[0]), text.index(MARKERS[1])
    stamp = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    block = f"{MARKERS[0]}\nProduced by `{command}` on {stamp}:\n\n```text\n" + "\n".join(log).rstrip() + "\n```\n"
    readme.write_text(text[:start] + block + text[end:], encoding="utf-8")
    print(f"wrote the results into {readme}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every script in its quick form (target: under a minute)")
    parser.add_argument("--write-readme", action="store_true", help="put this run's output into benchmarks/README.md")
    args = parser.parse_args(argv)
    command = "python benchmarks/run_all.py" + (" --quick" if args.quick else "")
    log = [machine_line(), ""]
    print(log[0] + "\n", flush=True)
    started = time.perf_counter()
    rows, worst = [], 0
    for name, script_args, why in plan(args.quick):
        if script_args is None:
            rows.append([name, "-", "skipped: " + why, "-"])
            continue
        code, seconds, said = run_script(name, script_args, log)
        outcome = {0: said if said == "not measured" else "met", 1: "MISSED"}.get(code, f"FAILED (exit {code})")
        worst = max(worst, 0 if code == 0 else (1 if code == 1 else 2))
        rows.append([name, " ".join(script_args) or "-", outcome, f"{seconds:.0f}"])
    total = time.perf_counter() - started
    summary = table(["script", "arguments", "budgets", "seconds"], rows)
    tail = f"total {total:.0f} s" + (
        f" (quick target: under 60 s: {'met' if total < 60 else 'MISSED'})" if args.quick else ""
    )
    print("== summary\n" + summary + "\n" + tail)
    log += ["== summary", summary, tail]
    if args.write_readme:
        write_readme(command, log)
    return worst


if __name__ == "__main__":
    raise SystemExit(main())
