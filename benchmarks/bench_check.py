"""`check` on each preset's config against verl 0.9.1's own start-up validation of the same config.

For every preset, `new` writes its config.yaml once (untimed). Then, alternating, in fresh processes:
- ours: `python -m wizard check DIR/config.yaml --mode cluster --format json` (every rule; cluster mode
  because, like verl at this point, it does not look for the data files on this machine);
- the peer: benchmarks/verl_peer.py under the conformance environment's Python (VERL_PYTHON, else
  /root/verlenv or .venv-verl): Hydra compose + auto_set_device + validate_config on the same dir,
  i.e. what `python -m verl.trainer.main_ppo` does before it starts training (imports included).
The ratio is peer / ours for wall time and for CPU time (CPU time is the steadier of the two on a
loaded machine). The peer also repeats compose+validate in its process, and `check` runs in-process
here, for a warm comparison without start-up (shown, not the budget).

Budget: ours at least 20x faster than the peer (median wall ratio and median CPU ratio, per preset).

    python benchmarks/bench_check.py [--repeats N] [--presets a,b] [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    ROOT,
    Stats,
    cache_is_warm,
    load_line,
    machine_line,
    run_fresh,
    table,
    time_calls,
    verdict,
)

RATIO = 20.0
PEER = Path(__file__).resolve().with_name("verl_peer.py")


def verl_python() -> str | None:
    for candidate in (
        os.environ.get("VERL_PYTHON"),
        "/root/verlenv/bin/python",
        str(ROOT / ".venv-verl" / "bin" / "python"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def write_configs(presets: list[str], work: Path) -> dict[str, Path]:
    dirs = {}
    for name in presets:
        out = work / name
        run = run_fresh(
            [sys.executable, "-m", "wizard", "new", "--preset", name, "--out", str(out), "--format", "json"]
        )
        if run.code != 0 or not (out / "config.yaml").is_file():
            raise SystemExit(f"new --preset {name} wrote no config: {(run.stderr or run.stdout).strip()[-400:]}")
        dirs[name] = out
    return dirs


def check_in_process(config: Path) -> float:
    """Median ms of `check` called through the CLI's main() in this process (warm: imports paid)."""
    from wizard.cli import main as cli_main

    def once():
        with contextlib.redirect_stdout(io.StringIO()):
            cli_main(["check", str(config), "--mode", "cluster", "--format", "json"])

    return time_calls(once, repeats=5).median


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats",
        type=int,
        default=2,
        help="fresh runs of each side per preset (default 2; a verl start costs ~20 s CPU)",
    )
    parser.add_argument("--presets", help="comma-separated presets (default: all)")
    parser.add_argument(
        "--quick", action="store_true", help="ours only, one preset, one run: the peer is too slow for a quick run"
    )
    args = parser.parse_args(argv)
    from wizard.core.presets import preset_names

    presets = args.presets.split(",") if args.presets else preset_names()
    if args.quick:
        presets = presets[:1]
    peer_python = None if args.quick else verl_python()
    repeats = 1 if args.quick else args.repeats
    print(machine_line())
    work = Path(tempfile.mkdtemp(prefix="bench-check-"))
    models_dir = work / "models"
    try:
        dirs = write_configs(presets, work)
        if peer_python:  # warm-up: builds the tiny local models once, fills the disk cache
            run_fresh([peer_python, str(PEER), str(dirs[presets[0]]), "--models-dir", str(models_dir)])
        if not (args.quick and cache_is_warm()):  # untimed: fills the byte-code cache (common.bytecode_env)
            run_fresh(
                [sys.executable, "-m", "wizard", "check", str(dirs[presets[0]] / "config.yaml"), "--mode", "cluster"]
            )
        ours = {name: {"wall": Stats(), "cpu": Stats()} for name in presets}
        peer = {name: {"wall": Stats(), "cpu": Stats(), "warm": Stats()} for name in presets}
        verdicts = {}
        for _ in range(repeats):
            for name in presets:
                run = run_fresh(
                    [
                        sys.executable,
                        "-m",
                        "wizard",
                        "check",
                        str(dirs[name] / "config.yaml"),
                        "--mode",
                        "cluster",
                        "--format",
                        "json",
                    ]
                )
                if run.code not in (0, 1):
                    raise SystemExit(f"check {name}: exit {run.code}: {run.stderr.strip()[-400:]}")
                ours[name]["wall"].add(run.wall)
                ours[name]["cpu"].add(run.cpu)
                errors = sum(f["severity"] == "error" for f in json.loads(run.stdout).get("findings", []))
                if not peer_python:
                    verdicts[name] = (f"{errors} error(s)", "-")
                    continue
                run = run_fresh(
                    [peer_python, str(PEER), str(dirs[name]), "--models-dir", str(models_dir), "--repeat", "3"]
                )
                if run.code != 0:
                    raise SystemExit(f"verl peer {name}: exit {run.code}: {run.stderr.strip()[-600:]}")
                record = json.loads(run.stdout.strip().splitlines()[-1])
                peer[name]["wall"].add(run.wall)
                peer[name]["cpu"].add(run.cpu)
                for ms in record["warm_ms"]:
                    peer[name]["warm"].add(ms)
                said = (
                    ("accepts" + (" (LoRA rank check needs vllm)" if record.get("note") else ""))
                    if record["ok"]
                    else f"rejects: {record['error'][:40]}"
                )
                verdicts[name] = (f"{errors} error(s)", said)
        warm = {name: check_in_process(dirs[name] / "config.yaml") for name in presets}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    ok = True
    rows = []
    for name in presets:
        o, p = ours[name], peer[name]
        row = [name, f"{o['wall'].median * 1000:.0f}", f"{o['cpu'].median * 1000:.0f}"]
        if peer_python:
            wall_ratio = p["wall"].median / o["wall"].median
            cpu_ratio = p["cpu"].median / o["cpu"].median
            met = wall_ratio >= RATIO and cpu_ratio >= RATIO
            ok &= met
            row += [
                f"{p['wall'].median * 1000:.0f}",
                f"{p['cpu'].median * 1000:.0f}",
                f"{wall_ratio:.1f}x",
                f"{cpu_ratio:.1f}x",
                f"{warm[name]:.1f}",
                f"{p['warm'].median:.0f}",
                f"{p['warm'].median / warm[name]:.0f}x",
                *verdicts[name],
                f">= {RATIO:g}x: {verdict(met)}",
            ]
        else:
            row += ["-", "-", "-", "-", f"{warm[name]:.1f}", "-", "-", *verdicts[name], "peer not run"]
        rows.append(row)
    print(
        f"\n`check` vs verl's compose + validate_config, fresh processes alternating, {repeats} run(s) each side per preset"
    )
    print(
        table(
            [
                "preset",
                "check ms",
                "check CPU ms",
                "verl ms",
                "verl CPU ms",
                "wall ratio",
                "CPU ratio",
                "warm check ms",
                "warm verl ms",
                "warm ratio",
                "check says",
                "verl says",
                "budget",
            ],
            rows,
        )
    )
    if not peer_python:
        print(
            "the verl peer was not run: "
            + (
                "--quick"
                if args.quick
                else "no conformance environment (set VERL_PYTHON; .ci/conformance-env.sh builds one)"
            )
        )
    print("(warm: the same work again inside a process that has already imported everything; not the budget)")
    print(load_line())
    print(f"check budget: {verdict(ok) if peer_python else 'not measured'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
