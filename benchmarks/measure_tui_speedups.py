"""What each speed-up of wizard/tui/textual_compat.py buys: the keystroke and the start with it turned off.

The configurations: every speed-up on (what the pinned Textual release runs), each one turned off alone
(VERL_WIZARD_STOCK_TEXTUAL=NAME), and all of them off (=all: what any other Textual release runs). In each
round every configuration runs once, in turn, so that load from other work on the machine falls on all of
them alike; each run is bench_tui.py's keystroke child (a fresh process, 8-GPU presets, fake 8xH100).
Two key patterns: "cycle" (bench_tui.py's: backspace and a digit cycling 0-9, most values new) and
"toggle" (BENCH_DIGIT=6: 256 <-> 25, an error comes and goes, so the step list's mark changes every key).
Per configuration: the median CPU ms per key to the settled frame over every key of every round and
preset, its difference to "all on" with a 95% bootstrap interval (an interval that holds 0: no
measurable difference), and the range of the rounds' own medians. --starts adds the start (first paint,
wall and CPU) as a ratio to a minimal Textual app for "all on" and "all off".

    python benchmarks/measure_tui_speedups.py [--rounds N] [--keys N] [--only NAME,NAME+NAME,...] [--starts N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_tui import STARTS, eight_gpu_presets, measure_keys, measure_starts
from benchmarks.common import Stats, load_line, machine_line, table
from wizard.tui.textual_compat import PRIVATE_USES, STOCK_ENV

PATTERNS = {"cycle": {}, "toggle": {"BENCH_DIGIT": "6"}}
START_CASES = {
    name: STARTS[name] for name in ("minimal Textual app", "verl-wizard --preset grpo-8b-1x8 --topology 8xH100")
}


def configurations(only: list[str] | None) -> dict[str, dict[str, str]]:
    """Configuration name -> the environment that makes it."""
    names = only or [name for name in PRIVATE_USES if name != "bindings"]  # bindings: footer labels, not speed
    # "a+b": both turned off in one configuration
    return {
        "all on": {},
        **{f"without {name}": {STOCK_ENV: name.replace("+", ",")} for name in names},
        "all off": {STOCK_ENV: "all"},
    }


def median_difference_interval(a: list[float], b: list[float], draws: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of median(a) - median(b) (resampling keys; a fixed seed)."""
    rng = random.Random(17)
    diffs = sorted(
        Stats(rng.choices(a, k=len(a))).median - Stats(rng.choices(b, k=len(b))).median for _ in range(draws)
    )
    return diffs[int(draws * 0.025)], diffs[int(draws * 0.975) - 1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of every configuration (default 3)")
    parser.add_argument("--keys", type=int, default=40, help="keystrokes per run (default 40)")
    parser.add_argument(
        "--only", help="the speed-ups to turn off one at a time, a+b for two together (default: every one alone)"
    )
    parser.add_argument("--patterns", default="cycle,toggle", help="key patterns (default cycle,toggle)")
    parser.add_argument("--starts", type=int, default=0, help="also this many start rounds of all on / all off")
    args = parser.parse_args(argv)
    configs = configurations(args.only.split(",") if args.only else None)
    patterns = {name: PATTERNS[name] for name in args.patterns.split(",")}
    presets = eight_gpu_presets()
    out_dir = tempfile.mkdtemp(prefix="bench-speedups-")
    print(machine_line())
    print(
        f"presets {', '.join(presets)}; {args.rounds} rounds x {args.keys} keys per configuration, pattern and preset"
    )
    keys = {(config, pattern): [] for config in configs for pattern in patterns}  # settled CPU ms per key
    rounds = {(config, pattern): Stats() for config in configs for pattern in patterns}  # each round's median
    try:
        for _ in range(args.rounds):
            for pattern, pattern_env in patterns.items():
                for config, env in configs.items():
                    this_round = []
                    for preset in presets:
                        records = measure_keys(preset, args.keys, 60, out_dir, env={**pattern_env, **env})
                        this_round += [r["settled_cpu_ms"] for r in records]
                    keys[config, pattern] += this_round
                    rounds[config, pattern].add(Stats(this_round).median)
        rows = []
        for config in configs:
            row = [config]
            for pattern in patterns:
                samples, base = keys[config, pattern], keys["all on", pattern]
                low, high = median_difference_interval(samples, base)
                difference = Stats(samples).median - Stats(base).median
                row += [
                    f"{Stats(samples).median:.2f}",
                    "-" if config == "all on" else f"{difference:+.2f} [{low:+.2f}, {high:+.2f}]",
                    f"{rounds[config, pattern].min:.2f}-{rounds[config, pattern].max:.2f}",
                ]
            rows.append(row)
        header = ["configuration"]
        for pattern in patterns:
            header += [f"{pattern} CPU ms/key", "vs all on [95%]", "round medians"]
        print(table(header, rows))
        print(
            f"(keys per cell: {len(keys['all on', next(iter(patterns))])}; CPU ms from the key press to the settled frame)"
        )
        if args.starts:
            start_configs = {"all on": {}, "all off": {STOCK_ENV: "all"}}
            starts = {config: None for config in start_configs}
            for round_number in range(args.starts):
                for config, env in start_configs.items():
                    result = measure_starts(START_CASES, 1, out_dir, warm_up=round_number == 0, env=env)
                    if starts[config] is None:
                        starts[config] = result
                    else:
                        for case, stats in result.items():
                            for measure, values in stats.items():
                                starts[config][case][measure].samples += values.samples
            rows = []
            for config, result in starts.items():
                peer, wizard = (result[case] for case in START_CASES)
                rows.append(
                    [
                        config,
                        f"{wizard['wall'].median * 1000:.0f}",
                        f"{wizard['wall'].median / peer['wall'].median:.2f}x",
                        f"{wizard['cpu'].median * 1000:.0f}",
                        f"{wizard['cpu'].median / peer['cpu'].median:.2f}x",
                        f"{peer['cpu'].median * 1000:.0f}",
                    ]
                )
            print(f"\nstart to first paint, --preset grpo-8b-1x8 --topology 8xH100, {args.starts} rounds")
            print(table(["configuration", "wall ms", "wall ratio", "CPU ms", "CPU ratio", "minimal app CPU ms"], rows))
    finally:
        shutil.rmtree(out_dir, True)
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
