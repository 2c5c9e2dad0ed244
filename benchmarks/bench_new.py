"""`new` for each preset: wall time of a fresh process, and what start-up imports (DESIGN.md section 7).

Each run is `python -m wizard new --preset P --out <fresh dir>` in a fresh process (what a user types,
byte code cached as for an installed wizard: common.bytecode_env),
alternating over the presets, with `python -c pass` measured in the same rounds: the floor that the
interpreter alone costs on this machine now. A separate run of each preset records sys.modules at exit.

Budgets: median wall under 0.5 s per preset; none of ray, torch, pyarrow, transformers imported.

    python benchmarks/bench_new.py [--repeats N] [--quick] [--importtime]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import (
    FORBIDDEN_AT_START,
    Stats,
    cache_is_warm,
    load_line,
    machine_line,
    run_fresh,
    table,
    verdict,
)

BUDGET_S = 0.5
QUICK = ("grpo-8b-1x8",)
FLOOR = "python -c pass"
# Runs the CLI exactly as `python -m wizard` does, then writes the imported module names to a file.
MODULES_PROBE = """\
import json, runpy, sys
out = sys.argv.pop(1)
try:
    runpy.run_module("wizard", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    open(out, "w").write(json.dumps(sorted(sys.modules)))
"""


def forbidden(modules: list[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules if m.split(".")[0] in FORBIDDEN_AT_START})


def third_party(modules: list[str]) -> list[str]:
    """Top-level packages imported that are neither the wizard nor the standard library."""
    stdlib = set(sys.stdlib_module_names) | {"__main__", "_distutils_hack", "sitecustomize", "usercustomize"}
    return sorted(
        {m.split(".")[0] for m in modules}
        - stdlib
        - {"wizard"}
        - {m for m in {x.split(".")[0] for x in modules} if m.startswith("_")}
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="fresh runs per preset (default 7)")
    parser.add_argument("--quick", action="store_true", help="one run of one preset")
    parser.add_argument(
        "--importtime", action="store_true", help="also print the 12 slowest imports of one run (-X importtime)"
    )
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    from wizard.core.presets import preset_names

    presets = preset_names()
    if args.quick:
        presets = [p for p in presets if p in QUICK] or presets[:1]
    work = Path(tempfile.mkdtemp(prefix="bench-new-"))
    print(machine_line())
    results = {name: {"wall": Stats(), "cpu": Stats(), "peak": Stats()} for name in [FLOOR, *presets]}
    try:
        if not (args.quick and cache_is_warm()):  # untimed: fills the byte-code cache (common.bytecode_env)
            run_fresh([sys.executable, "-m", "wizard", "new", "--preset", presets[0], "--out", str(work / "warm-up")])
        for i in range(repeats):
            for name in [FLOOR, *presets]:
                if name == FLOOR:
                    run = run_fresh([sys.executable, "-c", "pass"])
                else:
                    run = run_fresh(
                        [
                            sys.executable,
                            "-m",
                            "wizard",
                            "new",
                            "--preset",
                            name,
                            "--out",
                            str(work / f"{name}-{i}"),
                            "--format",
                            "json",
                        ]
                    )
                    if run.code != 0:
                        raise SystemExit(
                            f"new --preset {name}: exit {run.code}: {(run.stderr or run.stdout).strip()[-400:]}"
                        )
                results[name]["wall"].add(run.wall)
                results[name]["cpu"].add(run.cpu)
                results[name]["peak"].add(run.peak_mb)
        imports = {}
        for name in presets[:1] if args.quick else presets:
            listing = work / f"modules-{name}.json"
            run = run_fresh(
                [
                    sys.executable,
                    "-c",
                    MODULES_PROBE,
                    str(listing),
                    "new",
                    "--preset",
                    name,
                    "--out",
                    str(work / f"{name}-modules"),
                ]
            )
            imports[name] = json.loads(listing.read_text())
        if args.importtime:
            run = run_fresh(
                [
                    sys.executable,
                    "-X",
                    "importtime",
                    "-m",
                    "wizard",
                    "new",
                    "--preset",
                    presets[0],
                    "--out",
                    str(work / "importtime"),
                ]
            )
            slow = sorted(
                (
                    line.split("|")
                    for line in run.stderr.splitlines()
                    if line.startswith("import time:") and "self" not in line
                ),
                key=lambda cells: -int(cells[0].split(":")[1]),
            )[:12]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    ok = True
    rows = []
    for name, stats in results.items():
        if name == FLOOR:
            rows.append(
                [
                    name,
                    *stats["wall"].cells(1000, 0),
                    f"{stats['cpu'].median * 1000:.0f}",
                    f"{stats['peak'].median:.0f}",
                    "",
                    "",
                    "",
                ]
            )
            continue
        met = stats["wall"].median < BUDGET_S
        bad = forbidden(imports.get(name, []))
        ok &= met and not bad
        rows.append(
            [
                f"new --preset {name}",
                *stats["wall"].cells(1000, 0),
                f"{stats['cpu'].median * 1000:.0f}",
                f"{stats['peak'].median:.0f}",
                len(imports[name]) if name in imports else "-",
                ", ".join(bad) or ("none" if name in imports else "-"),
                f"< {BUDGET_S * 1000:.0f} ms: {verdict(met)}",
            ]
        )
    print(
        f"\n`new` per preset: fresh process each, {repeats} alternating rounds; floor = the bare interpreter in the same rounds"
    )
    print(
        table(
            [
                "case",
                "median ms",
                "min ms",
                "max ms",
                "CPU ms",
                "peak MB",
                "modules",
                "ray/torch/pyarrow/transformers",
                "budget",
            ],
            rows,
        )
    )
    packages = sorted(set().union(*(third_party(m) for m in imports.values())))
    print(f"third-party packages imported by new: {', '.join(packages)}")
    if args.importtime:
        print("\nslowest imports of one `new` (self us | cumulative us | module):")
        for cells in slow:
            print("  " + " | ".join(c.strip().replace("import time:", "") for c in cells))
    print(load_line())
    print(f"new budgets: {verdict(ok)}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
